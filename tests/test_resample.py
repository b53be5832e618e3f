"""Game.resample: a game the viewer cannot tell from the real one, its other secrets drawn from a seed."""
from __future__ import annotations

import pytest

from heimlich_lab import Game, Rules, play
from heimlich_lab.bots import RandomBot, make_bot
from heimlich_lab.errors import HeimlichError, PositionError, RecordError

FIELDS = ("viewer", "kind", "players", "agents", "rules", "positions", "scores", "safe", "phase", "current_player",
          "active_player", "turn", "die", "points", "triggers", "own_agents", "hand", "hand_sizes", "supply_size",
          "discards", "removed", "dossier_sheet", "dossier_done", "is_over", "winners", "owners", "final_owners")

VARIANTS = {
    "basic": (("Ann", "Bob", "Cy"), Rules(), 3),
    "top secret": (("Ann", "Bob", "Cy", "Dee"), Rules(top_secret=True), 11),
    "dossier": (("Ann", "Bob", "Cy", "Dee", "Eve"), Rules(top_secret=True, dossier=True), 5),
    "second agent drawn": (("Ann", "Bob", "Cy", "Dee"), Rules(top_secret=True, second_agent="drawn"), 11),
}


def seen(view) -> dict:
    """Everything a view shows, its log included."""
    return {**{f: getattr(view, f) for f in FIELDS}, "log": [(e.kind, e.data, e.hidden) for e in view.log]}


def record_of(variant):
    players, rules, seed = VARIANTS[variant]
    names = ["random", "greedy", "bluff", "boltzmann", "random"]
    bots = {p: (make_bot(names[i], seed=seed + i) if i % 2 else RandomBot(seed + i)) for i, p in enumerate(players)}
    return play(rules, bots, seed=seed)


def secrets_of(g: Game) -> tuple:
    return (g.owners, g.hands, g.dossier_sheets, g.free_agents)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_resampled_game_agrees_with_the_viewers_view_exactly(variant):
    rec = record_of(variant)
    stops = sorted({len(rec.log) // 4, len(rec.log) // 2, len(rec.log) - 2})
    for stop in stops:
        g = rec.replay(until=stop)
        for viewer in (*g.players, None):
            before = secrets_of(g), g.view(viewer).log[:]
            r = g.resample(viewer, seed=stop)
            assert seen(r.view(viewer)) == seen(g.view(viewer)), (variant, stop, viewer)
            assert r.chance_outcomes() == g.chance_outcomes() or not g.is_chance_node
            assert r.legal_actions() == g.legal_actions() or g.current_player != viewer
            assert (secrets_of(g), g.view(viewer).log[:]) == before        # the real game is untouched
            again = r.record.replay()                                       # its history is coherent
            assert secrets_of(again) == secrets_of(r) and again.positions == r.positions


@pytest.mark.parametrize("variant", ["top secret", "dossier"])
def test_hidden_parts_are_drawn_from_the_seed(variant):
    rec = record_of(variant)
    g = rec.replay(until=len(rec.log) // 2)
    viewer = g.players[1]
    draws = [g.resample(viewer, seed=s) for s in range(6)]
    assert [r.history for r in draws] == [g.resample(viewer, seed=s).history for s in range(6)]   # same seed
    hidden = {(tuple(map(tuple, r.owners.values())), tuple(map(tuple, r.hands.values()))) for r in draws}
    assert len(hidden) > 1                       # different seeds, different secrets
    for r in draws:
        assert r.owners[viewer] == g.owners[viewer] and r.hands[viewer] == g.hands[viewer]


def test_a_game_from_a_start_position_is_resampled_from_what_the_viewer_knows():
    rec = record_of("top secret")
    mid = rec.replay(until=40)
    while mid.phase not in ("roll", "points", "move", "safe"):
        mid.apply(mid.legal_actions()[0])
    g = Game(mid.players, mid.rules, seed=1, start=mid.position())
    g.apply(g.legal_actions()[0]) if not g.is_chance_node else None
    for viewer in (*g.players, None):
        r = g.resample(viewer, seed=2)
        assert seen(r.view(viewer)) == seen(g.view(viewer))
        assert r.start is not None and r.start != g.start or viewer is not None


def test_bad_requests_are_refused():
    rec = record_of("basic")
    with pytest.raises(PositionError, match="finished"):
        rec.replay().resample("Ann")
    g = rec.replay(until=5)
    with pytest.raises(HeimlichError, match="not a player"):
        g.resample("Zed")
    with pytest.raises(PositionError, match="seen_by"):
        g.apply_seen("roll 3", player="chance")
    made_up = Game.seen_by("Bob", g.players, g.rules, seed=0)
    with pytest.raises(RecordError, match="own agent"):
        made_up.apply_seen("deal ?", player="chance")
    with pytest.raises(PositionError, match="own_agents"):
        Game.seen_by("Bob", g.players, g.rules, own_agents=["pink"])
