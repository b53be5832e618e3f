"""The exact Secrets belief: equal to brute-force enumeration, calibrated over many games, and its updates."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from heimlich_lab.errors import ModelError
from heimlich_lab.inference.metrics import calibration_z_scores, expected_calibration_error
from heimlich_lab.secrets import MIDDLE, TEAMS, Belief, Game, RandomBot, play_game
from heimlich_lab.secrets.game import arrangements

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
DEAL = "deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB"
#: A 4-player opening with every kind of marker move and look: two hidden Diplomat swaps (Cy left, Dee right),
#: Bob's Detective look, a Psychiatrist swap, a Journalist and a Double Agent.
SCRIPT = [
    "reveal detective", "reveal diplomat", "offer diplomat Cy", "accept", "side left",
    "reveal detective", "reveal psychiatrist", "offer detective Ann", "refuse", "look Cy",
    "reveal journalist", "reveal psychiatrist", "offer psychiatrist Dee", "accept", "swap Ann Bob",
    "reveal double-agent", "reveal journalist", "offer journalist Ann", "accept",
    "reveal double-agent", "reveal diplomat", "offer double-agent Bob", "refuse",
    "reveal diplomat", "reveal scientist", "offer diplomat Dee", "accept", "side right",
]


def run(deal: str, script: list[str]) -> Game:
    g = Game(PLAYERS, chance="manual", seed=0)
    g.apply(deal)
    for a in script:
        g.apply(a)
    return g


def consistent_worlds(observer: str | None):
    """Every (deal, script, game, prior) over all deals and Diplomat sides that gives the observer the view the
    actual game gave them."""
    actual = run(DEAL, SCRIPT).view(observer).log
    sides = [i for i, a in enumerate(SCRIPT) if a.startswith("side")]
    for row in arrangements([2, 2, 1]):
        deal = "deal " + " ".join(f"{s}={TEAMS[t]}" for s, t in zip(PLAYERS + [MIDDLE], row))
        for choice in product(["left", "right"], repeat=len(sides)):
            script = list(SCRIPT)
            for i, side in zip(sides, choice):
                script[i] = f"side {side}"
            g = run(deal, script)
            if g.view(observer).log == actual:
                yield deal, script, g, Fraction(1, 30 * 2 ** len(sides))


def brute_force(observer: str | None) -> dict[str, dict[str, float]]:
    """P(slot is team | the observer's view), by enumerating every deal and every Diplomat side."""
    total: dict[tuple, Fraction] = {}
    for _, _, g, prior in consistent_worlds(observer):
        key = tuple(g.identities.items())
        total[key] = total.get(key, 0) + prior
    z = sum(total.values())
    out = {s: {t: 0.0 for t in TEAMS} for s in PLAYERS + [MIDDLE]}
    for key, w in total.items():
        for s, t in key:
            out[s][t] += float(w / z)
    return out


@pytest.mark.parametrize("observer", PLAYERS + [None])
def test_the_belief_equals_brute_force_enumeration_of_deals_and_hidden_swaps(observer):
    g = run(DEAL, SCRIPT)
    got = Belief.for_game(g, observer, model=None).identities()
    want = brute_force(observer)
    for s in want:
        for t in TEAMS:
            assert got[s][t] == pytest.approx(want[s][t], abs=1e-12), (observer, s, t)


def test_a_player_can_lose_track_of_their_own_marker():
    # Cy's hidden Diplomat swap may have taken Dee's marker into the middle: Dee is no longer sure of her own
    g = run(DEAL, SCRIPT[:5])
    b = Belief.for_game(g, "Dee", model=None)
    assert 0 < b.identities()["Dee"]["CIA"] < 1
    assert Belief.for_game(g, "Cy", model=None).identities()["Dee"]["KGB"] == 1.0     # Cy knows she swapped with Dee


def test_the_record_form_equals_the_live_form_and_stops_before_the_reveal():
    g = play_game([RandomBot(i) for i in range(6)], seed=11)
    for p in g.players:
        live = Belief.for_game(g, p, model=None).identities()
        rec = Belief.from_record(g.record, observer=p, model=None).identities()
        assert live == rec
        assert min(max(d.values()) for d in rec.values()) < 1      # the final reveal is not taken in


def test_a_belief_refuses_a_view_of_someone_else():
    g = Game(PLAYERS, seed=1)
    b = Belief.for_game(g, "Ann", model=None)
    before = b.identities()
    with pytest.raises(ModelError, match="Ann's"):
        b.sync(g.view("Bob"))
    assert b.identities() == before
    with pytest.raises(ModelError, match="not a player"):
        Belief(PLAYERS, "Zed")


def test_explain_last_says_what_moved():
    g = run(DEAL, SCRIPT[:15])
    b = Belief.for_game(g, "Ann", model=None)
    assert b.explain_last().startswith("Psychiatrist: the Ann and Bob markers swapped")


def _calibration_events(games: int, seed: int):
    preds, outcomes, groups = [], [], []
    for k in range(games):
        n = 4 + k % 5
        g = play_game([RandomBot(seed + 100 * k + i) for i in range(n)], seed=seed + k)
        truth = g.record.final_identities
        for obs in g.players:
            ident = Belief.from_record(g.record, observer=obs, model=None).identities()
            for s, dist in ident.items():
                for t, p in dist.items():
                    preds.append(p)
                    outcomes.append(float(truth[s] == t))
                    groups.append(k)
    return np.array(preds), np.array(outcomes), np.array(groups)


@pytest.mark.slow
def test_beliefs_are_calibrated_over_many_random_games():
    p, y, groups = _calibration_events(games=240, seed=500)
    # the observer's certain facts are calibrated trivially; the test is about the uncertain ones
    unsure = (p > 1e-9) & (p < 1 - 1e-9)
    assert unsure.sum() > 10_000
    assert expected_calibration_error(p, y) <= 0.02
    assert expected_calibration_error(p[unsure], y[unsure]) <= 0.02
    z = calibration_z_scores(p, y, groups)
    assert (z["z"].abs()[z["n"] >= 50] < 4).all(), z
