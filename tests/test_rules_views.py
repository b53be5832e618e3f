"""Views and the information rule (docs/rules.md#information-rule).

The strongest check: two games that differ only in one player's secrets look *identical* to everybody
else, at every moment, in every attribute and every event of the log."""
from __future__ import annotations

import copy

import pytest

from heimlich_lab import Game, Position, Rules, View, WrongPlayer
from heimlich_lab.bots import RandomBot
from heimlich_lab.transcript import transcript

P3 = ["Ann", "Bob", "Cy"]
AG6 = ("grey", "yellow", "orange", "red", "green", "blue")
ALL = Rules(top_secret=True, dossier=True)


def dump(v: View) -> dict:
    """Everything a view holds, public attributes and the whole log."""
    return copy.deepcopy(dict(
        viewer=v.viewer, kind=v.kind, label=v.label, players=v.players, agents=v.agents, rules=v.rules,
        positions=v.positions, scores=v.scores, safe=v.safe, phase=v.phase, current=v.current_player,
        active=v.active_player, turn=v.turn, die=v.die, points=v.points, triggers=v.triggers, own=v.own_agents,
        hand=v.hand, hand_sizes=v.hand_sizes, supply=v.supply_size, discards=v.discards, sheet=v.dossier_sheet,
        dossier_done=v.dossier_done, over=v.is_over, winners=v.winners, owners=v.owners, final=v.final_owners,
        log=[(e.kind, e.data, e.hidden) for e in v.log]))


def everything_reachable(obj, seen=None) -> list:
    """Every str/int reachable from an object through attributes, slots, containers (secrets search)."""
    seen = set() if seen is None else seen
    out = []
    if id(obj) in seen:
        return out
    seen.add(id(obj))
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return [obj]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += everything_reachable(k, seen) + everything_reachable(v, seen)
        return out
    if isinstance(obj, (list, tuple, set, frozenset)):
        for x in obj:
            out += everything_reachable(x, seen)
        return out
    if type(obj).__module__.startswith("heimlich_lab"):
        names = list(getattr(obj, "__dict__", {}))
        for cls in type(obj).__mro__:
            names += list(getattr(cls, "__slots__", ()))
        for name in names:
            try:
                out += everything_reachable(getattr(obj, name), seen)
            except AttributeError:
                pass
    return out


# ----------------------------------------------------------------------------- two games, one secret apart
def twin_games():
    """Same public story; Bob's agent, hand, taken agent, draws and dossier entries differ."""
    games = []
    for bob_agent, bob_card, take, draw, entries in [
        ("grey", "swap", "orange", "fwd123", {"yellow": "Ann", "red": "Ann", "green": "Cy", "blue": "Cy"}),
        ("green", "join", "yellow", "back12", {"grey": "Cy", "orange": "free", "red": "free", "blue": "Ann"}),
    ]:
        start = Position(positions={c: 0 for c in AG6} | {"red": 5}, owners={"Ann": "red", "Bob": bob_agent,
                                                                              "Cy": "blue"},
                         scores={c: 0 for c in AG6} | {"red": 25}, active="Ann", decision="move", die="2",
                         hands={"Ann": ["tosafe"], "Bob": ["second", bob_card], "Cy": []})
        g = Game(P3, rules=ALL, chance="manual", start=start)
        script = ["move red+2", "announce no", "announce yes", "play second", f"take {take}", "done",
                  "pass", "pass"]
        snaps = []

        def step(a):
            g.apply(a)
            snaps.append({p: dump(g.view(p)) for p in (*P3, None)})
        for a in script:
            step(a)
        assert g.phase == "dossier"
        ann_sheet = dict(zip([c for c in AG6 if c != "red"], ["Bob", "free", "free", "free", "Cy"]))
        cy_sheet = {c: "free" for c in AG6 if c != "blue"}
        while g.phase == "dossier":
            p = g.current_player
            agent = g.legal_actions()[0].args[0]
            step(f"dossier {agent}={ {'Ann': ann_sheet, 'Cy': cy_sheet}.get(p, entries)[agent]}")
        step("safe 4")
        step("roll 1-3")                   # Bob's turn
        step("points 0")                   # Bob draws: a different card in each game
        step("collect yes")                # Bob may draw, and does
        step(f"draw {draw}")
        step("announce no")                # Bob
        step("announce no")                # Ann (Cy holds no card)
        step("roll 1-3")                   # Cy's turn
        step("points 0")                   # Cy draws the same card in both games
        step("collect yes")
        step("draw ruins")
        step("announce no")                # Cy
        step("announce no")                # Ann
        step("announce no")                # Bob
        step("roll 2")                     # Ann's turn
        step("move grey+1 green+1")
        games.append((g, snaps))
    return games


def test_other_players_cannot_tell_two_games_apart_that_differ_only_in_bobs_secrets():
    (g1, s1), (g2, s2) = twin_games()
    assert g1.owners["Bob"] != g2.owners["Bob"] and g1.hands["Bob"] != g2.hands["Bob"]
    assert g1.dossier_sheets["Bob"] != g2.dossier_sheets["Bob"]
    assert len(s1) == len(s2)
    for a, b in zip(s1, s2):
        assert a["Ann"] == b["Ann"]
        assert a[None] == b[None]
    # ...and Bob (and Cy, whose draw differs) can: the test would notice a secret going missing
    assert s1[-1]["Bob"] != s2[-1]["Bob"]
    assert s1[-1]["Bob"]["hand"] != s2[-1]["Bob"]["hand"] and s1[-1]["Bob"]["own"] != s2[-1]["Bob"]["own"]
    assert s1[-1]["Cy"] == s2[-1]["Cy"]                 # Cy's secrets are the same in both games


def test_nothing_reachable_from_a_view_holds_another_players_secret():
    (g1, _), _ = twin_games()
    # Bob: grey, orange (taken); his hand holds the only 'swap' and a drawn 'fwd123' (nobody else has one)
    assert g1.owners["Bob"] == ["grey", "orange"] and g1.hands["Bob"] == ["swap", "fwd123"]
    assert g1.hands["Cy"] == ["ruins"] and g1.hands["Ann"] == ["tosafe"]
    for who in ("Ann", "Cy", None):
        v = g1.view(who)
        reachable = everything_reachable(v)          # attributes, slots, the log's internals, recursively
        assert "swap" not in reachable and "fwd123" not in reachable
        text = "\n".join(str((e.kind, e.data)) for e in v.log)
        assert "swap" not in text and "fwd123" not in text
        others = "\n".join(str(e.data) for e in v.log if e.player != who)
        assert "'agent': 'orange'" not in others and "'agent': 'grey'" not in others
        lines = "\n".join(transcript(g1, viewer=who))
        assert "swap" not in lines and "fwd123" not in lines
        assert "takes the free agent card" not in lines and "Bob's dossier" not in lines
        assert "Bob writes a dossier entry." in lines and "Bob takes a free agent card." in lines
    bob = everything_reachable(g1.view("Bob"))
    assert "swap" in bob and "fwd123" in bob             # the search does find secrets where they belong


def test_a_player_sees_their_own_secrets():
    (g1, _), _ = twin_games()
    v = g1.view("Bob")
    assert v.own_agents == ("grey", "orange") and v.hand == tuple(g1.hands["Bob"])
    assert v.dossier_sheet == g1.dossier_sheets["Bob"]
    take = [e for e in v.log if e.kind == "take"]
    assert take[0].agent == "orange" and not take[0].hidden
    ann = g1.view("Ann")
    assert ann.own_agents == ("red",) and ann.hand == tuple(g1.hands["Ann"])
    assert ann.dossier_sheet == g1.dossier_sheets["Ann"]
    assert all(e.hidden and e.agent is None and e.entry is None for e in ann.log if e.kind == "dossier"
               and e.player != "Ann")
    assert all(not e.hidden for e in ann.log if e.kind == "dossier" and e.player == "Ann")


def test_public_facts_are_in_every_view():
    (g1, _), _ = twin_games()
    for who in (*P3, None):
        v = g1.view(who)
        assert v.positions == g1.positions and v.scores == g1.scores and v.safe == g1.safe
        assert v.hand_sizes == {p: len(h) for p, h in g1.hands.items()}
        assert v.supply_size == g1.supply_size and v.discards == tuple(g1.discards)
        kinds = [e.kind for e in v.log]
        assert {"move", "announce", "play", "score", "safe", "roll", "draw", "take"} <= set(kinds)
        # who drew is public, the card is not (unless it is one's own)
        draws = [e for e in v.log if e.kind == "draw"]
        assert [e.player for e in draws] == ["Bob", "Cy"]
        assert all((e.card is not None) == (e.player == who) for e in draws)


def test_spectator_and_omniscient_views():
    g = Game(P3, rules=ALL, seed=3)
    s = g.spectator_view()
    assert s.viewer is None and s.kind == "spectator" and s.label == "Spectator (public information only)"
    assert s.own_agents == () and s.hand == () and s.dossier_sheet == {} and s.owners is None
    assert all(e.hidden for e in s.log if e.kind in ("deal", "draw"))
    o = g.omniscient_view()
    assert o.kind == "omniscient" and o.label == "Omniscient (all secrets shown)"
    assert o.owners == g.owners
    assert [e.agent for e in o.log if e.kind == "deal"] == [g.owners[p][0] for p in P3]
    assert all(not e.hidden for e in o.log)
    assert g.view("Bob").label == "Bob's view" and g.view("Bob").kind == "player"
    with pytest.raises(WrongPlayer, match=r"not a player.*\[rule: players\]"):
        g.view("Zed")


def test_owners_are_revealed_only_when_the_game_is_over():
    g = Game(P3, rules=ALL, seed=6)
    bot = RandomBot(seed=2)
    while not g.is_over:
        for who in (*P3, None):
            v = g.view(who)
            assert v.owners is None and v.final_owners is None and v.winners is None
        g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
    for who in (*P3, None):
        v = g.view(who)
        assert v.owners == g.owners and v.final_owners == g.final_owners and v.winners == g.winners
        assert v.is_over and v.phase == "over"


def test_a_view_is_a_snapshot():
    g = Game(P3, seed=4)
    v = g.view("Ann")
    before = dump(v)
    bot = RandomBot(seed=1)
    for _ in range(30):
        g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
    assert dump(v) == before
    assert len(v.log) < len(g.view("Ann").log)


def test_log_indexing():
    g = Game(P3, rules=ALL, seed=4)
    log = g.view("Ann").log
    assert len(log) == len(g.events) and repr(log) == f"<EventLog of {len(log)} events>"
    assert log[0].kind == "deal" and log[-1].kind == log[len(log) - 1].kind
    assert [e.kind for e in log[1:3]] == [e.kind for e in list(log)[1:3]]
    with pytest.raises(IndexError):
        log[len(log)]
    assert log[0].player == "Ann" and log[1].agent is None and log[1].hidden


def test_random_games_never_show_a_player_another_players_draw_or_agent():
    for seed in range(6):
        g = Game(P3, rules=ALL, seed=seed)
        bot = RandomBot(seed=seed)
        while not g.is_over:
            p = g.current_player
            v = g.view(p)
            assert v.own_agents == tuple(g.owners[p]) and v.hand == tuple(g.hands[p])
            for e in v.log:
                if e.kind in ("deal", "draw", "take", "dossier") and e.player != p:
                    assert e.hidden and all(e.data.get(f) is None for f in ("agent", "card", "entry"))
            g.apply(bot.choose(v, g.legal_actions()))
