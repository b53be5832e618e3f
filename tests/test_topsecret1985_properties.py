"""Top Secret (1985): properties of random play for 2, 3 and 4 players (hypothesis), and a differential test of
the information rule.

* conservation: every agent is in play or eliminated, never both; every suitcase is unplaced, lying in a city,
  carried by exactly the agent that holds it, or delivered; the contents never change, and a delivery shows the
  true content;
* at the end of every turn no city holds more than 2 agents of one colour;
* the duel cards cycle as the book says: a player's hand and the cards they played since they came back are
  always their 7 cards, and they come back exactly when the seventh is played;
* the first-three rule: one of the first three suitcases a player brings home is an opponent's;
* termination: every game ends (within its rounds), and its record replays to the same game.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from heimlich_lab.engine.play import play_game
from heimlich_lab.errors import HeimlichError
from heimlich_lab.games.topsecret1985 import Game, TopSecretRecord, TopSecretRules
from heimlich_lab.games.topsecret1985.actions import suitcase_owner
from heimlich_lab.games.topsecret1985.bots import RandomBot, RunnerBot
from heimlich_lab.games.topsecret1985.rules import CONTENTS, DUEL_CARDS

NAMES = ("Ann", "Bob", "Cy", "Dee")
RULES = st.builds(TopSecretRules, pickup=st.sampled_from(["along", "stop"]), bonus_may_duel=st.booleans(),
                  bomb_courier=st.sampled_from(["counts", "extra", "home"]),
                  three_player_agent=st.sampled_from(["moved", "extra", "none"]), first_three=st.just(True),
                  must_use_roll=st.booleans(), max_rounds=st.integers(8, 30))


def check_invariants(g: Game, contents: dict, last_phase: list) -> None:
    # agents: in play at a node of the map, or eliminated; each in its node's list once
    total = sum(7 + (1 if len(g.players) == 3 and g.rules.three_player_agent == "extra" and p != g.edge_player
                     else 0) for p in g.players)
    assert len(g.locations) == total
    assert all(loc is None or loc in g.map.kind for loc in g.locations.values())
    # suitcases: exactly one place each
    for s in g.suitcases:
        where = [g.suitcase_places[s] is not None, g.carriers[s] is not None,
                 any(s == d for ds in g.delivered.values() for d, _ in ds)]
        assert sum(where) <= 1, s
        if g.carriers[s] is not None:
            assert g.carrying[g.carriers[s]] == s and g.locations[g.carriers[s]] is not None
        if g.phase not in ("first", "contents", "place"):
            assert sum(where) == 1, s
    for a, s in g.carrying.items():
        assert s is None or g.carriers[s] == a
    # contents: as hidden at set-up, and deliveries show them
    assert g.contents == {p: c for p, c in contents.items() if p in g.contents} or not contents
    for ds in g.delivered.values():
        for s, c in ds:
            assert g.contents[suitcase_owner(s)][s[-1]] == c
    assert sum(g.secrets_home.values()) == sum(int(c) for ds in g.delivered.values() for _, c in ds if c != "bomb")
    # duel cards: hand + played since they came back = the 7 cards
    for p in g.players:
        assert sorted(g.hands[p] + g.played_cards[p]) == sorted(DUEL_CARDS) and len(g.played_cards[p]) < 7
    # at the end of every turn (a roll is due, or the game is over): at most 2 agents of a colour per city
    if g.phase in ("roll", "over") and last_phase[0] not in ("roll", "first", "contents", "place"):
        per_city = Counter((loc, a.rpartition("#")[0]) for a, loc in g.locations.items()
                           if loc is not None and g.map.kind[loc] == "city")
        assert max(per_city.values(), default=0) <= 2, per_city
    # the first-three rule
    if g.rules.first_three:
        for p, ds in g.delivered.items():
            if len(ds) >= 3:
                assert any(suitcase_owner(s) != p for s, _ in ds[:3]), ds
    last_phase[0] = g.phase


def play_checked(n: int, seed: int, rules: TopSecretRules, runners: int) -> Game:
    rng = random.Random(seed)
    bots = {p: (RunnerBot(rng.randrange(10**6)) if i < runners else RandomBot(rng.randrange(10**6)))
            for i, p in enumerate(NAMES[:n])}
    g = Game(list(bots), seed=seed, rules=rules)
    contents: dict = {}
    last = [g.phase]
    cards_back_seen = 0
    for _ in range(200_000):
        if g.is_over:
            break
        p = g.current_player
        before_played = dict(g.played_cards)
        g.apply(bots[p].choose(g.view(p), g.legal_actions()))
        contents.update(g.contents)
        check_invariants(g, contents, last)
        backs = [e for e in g.events if e[0] == "cards-back"]
        for _, data, _ in backs[cards_back_seen:]:       # back exactly when the seventh card was played
            assert len(before_played[data["player"]]) == 6
        cards_back_seen = len(backs)
    assert g.is_over and g.turn <= rules.max_rounds * n
    for c in g.contents.values():
        assert sorted(c.values()) == sorted(CONTENTS)
    rec = TopSecretRecord.from_json(g.record.to_json())
    assert rec.replay().history == g.history and rec.contents == g.contents
    return g


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), rules=RULES, runners=st.integers(0, 4))
def test_random_play_keeps_every_rule(n, seed, rules, runners):
    play_checked(n, seed, rules, runners)


def test_every_game_ends_and_the_duel_cards_came_back_in_some():
    ends = Counter()
    backs = 0
    for seed in range(6):
        g = play_checked(4, seed, TopSecretRules(), runners=4)
        ends[g.end_reason] += 1
        backs += sum(1 for e in g.events if e[0] == "cards-back")
    assert ends["target"] >= 1 and backs >= 1, (ends, backs)


# ----------------------------------------------------------------------------------- the information rule
def replay_changed(rec, k: int, change) -> Game:
    """The first ``k`` log entries of ``rec`` replayed from its seed, each decision passed through ``change``."""
    g = Game(rec.players, seed=rec.seed, rules=rec.rules)
    for i, (actor, text) in enumerate(rec.log[:k]):
        if actor == "chance":
            assert str(g.history[i][1]) == text
            continue
        g.apply(change(i, actor, text), player=actor)
    return g


def observed(g: Game, viewer: str) -> tuple:
    """Everything ``viewer`` is handed: the view, the legal actions (when deciding), the exported record, and the
    error texts of a few refused actions."""
    errors = []
    for bad in ("card 5", "card 0", "end", "take", "step Ann#1 nowhere", "eliminate Bob#1", "contents A=5 B=3 C=1 "
                "D=bomb"):
        h = len(g.history)
        try:
            g.apply(bad, player=viewer)
        except HeimlichError as e:
            errors.append(str(e))
        else:
            errors.append(None)
            return ("applied", bad)      # a legal action: the differential stops here (the games are the same)
        assert len(g.history) == h
    legal = [str(a) for a in g.legal_actions()] if g.current_player == viewer else None
    return (g.view(viewer), legal, g.record.as_player(viewer).to_json(), errors)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), n=st.integers(2, 4), frac=st.floats(0, 1), pick=st.integers(0, 10**6))
def test_what_a_player_may_not_know_changes_nothing_they_are_handed(seed, n, frac, pick):
    """Another player's undelivered contents and, when the game stops there, the aggressor's face-down card are
    changed; the player's view, legal actions, exported record and error texts are not. (The others' unplayed duel
    cards are not a secret: every played card is shown, so a hand is the seven less those.)"""
    rng = random.Random(pick)
    bots = {p: RunnerBot(i) if i % 2 else RandomBot(i) for i, p in enumerate(NAMES[:n])}
    g = play_game(Game, bots, seed=seed, rules=TopSecretRules(max_rounds=12))
    rec = g.record
    viewer = NAMES[rng.randrange(n)]
    k = 1 + int(frac * (len(rec.log) - 1))
    face_down = [j for j, game in rec.games() if game.phase == "defend"]
    if face_down and rng.random() < 0.6:      # often: stop while an aggressor's card lies face down
        k = rng.choice(face_down)
        viewer = rng.choice([p for p in rec.players if p != rec.log[k - 1][0]])
    # deliveries in the prefix show contents: keep those, permute the rest of the other players' contents
    prefix = replay_changed(rec, k, lambda i, a, t: t)
    shown = {s for ds in prefix.delivered.values() for s, _ in ds}
    new_contents = {}
    for p in rec.players:
        if p == viewer:
            continue
        true = rec.contents.get(p)
        if true is None:
            continue
        fixed = {L: c for L, c in true.items() if f"{p}:{L}" in shown}
        free = [L for L in "ABCD" if L not in fixed]
        options = [dict(zip(free, perm)) for perm in permutations([true[L] for L in free])]
        new_contents[p] = {**fixed, **rng.choice(options)}

    def change(i, actor, text):
        if text.startswith("contents ") and actor in new_contents:
            return "contents " + " ".join(f"{L}={c}" for L, c in sorted(new_contents[actor].items()))
        if i == k - 1 and text.startswith("card ") and actor != viewer and prefix.phase == "defend":
            return f"card {rng.choice(sorted(set(prefix.hands[actor])))}"     # the face-down card, changed
        return text

    changed = replay_changed(rec, k, change)
    assert observed(prefix, viewer) == observed(changed, viewer)
