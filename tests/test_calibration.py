"""Simulation-based calibration: when the bots really are the model, beliefs are calibrated.

Every player is a :class:`~heimlich_lab.bots.BoltzmannBot` with the belief
model's own parameters (basic game, 4 players), so the exact posterior is the
true conditional probability. At the dossier mark (first marker at 29) every
player's belief gives each event "opponent r controls agent a" (and "a is
free"), for the agents the player does not hold, a probability p. Pooled over
many seeded games, events given probability p must happen with frequency p.

The test and why its tolerance is right
---------------------------------------
If p = P(E | the observer's data), then E[(1_E - p) * 1{p in bin}] = 0 for
every bin, whatever the other events. Events of one game are dependent (one
deal, one history), but games are independent. So per game g and bin b,
D_gb = sum over the game's events in b of (y - p) are independent with mean
0, and z_b = sum_g D_gb / sqrt(sum_g D_gb**2) is approximately standard normal
(a self-normalized sum: no variance formula, valid under any dependence within
a game). Ten bins, family-wise level 1 %: Bonferroni gives 0.1 % per bin,
two-sided, i.e. |z_b| < 3.29 for every bin.

The same data scored with a deliberately wrong model (beta x 5: an observer
who thinks the players are far more rational than they are, hence
overconfident) must fail the same test; with 200 games its worst |z| is far
above 3.29 (about 6: its extreme bins are off by 1.5 % and 5 %).

Top Secret (``test_top_secret_beliefs_are_calibrated``): 150 four-player games
with the cards, same test. Here the belief is *not* the exact posterior: the
model scores announcements and card choices by averaging over the hands the
actor could hold with a hypergeometric prior that ignores what the actor's
earlier choices say about its hand. The test checks that this approximation
keeps the beliefs calibrated at the test's resolution (measured: 250 games,
23,472 events, max |z| 1.78, ECE 0.0045). The size keeps the power to reject
the beta x 5 model, whose worst |z| grows like sqrt(games): measured on these
seeds, 3.67 at 100 games (too near 3.29), 4.15 at 150, 5.69 at 250; at 150 the
right model's max |z| is 2.29 and its thinnest bin has 31 games (>= 30 asked).
150 games instead of 250 saves 40 % of the test's time (scoring the games twice
is most of it).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from heimlich_lab import Rules, play_game
from heimlich_lab.bots import BoltzmannBot
from heimlich_lab.inference.belief import BeliefSet
from heimlich_lab.inference.metrics import (binary_events, calibration_z_scores, expected_calibration_error,
                                            truth_table)
from heimlich_lab.inference.model import BoltzmannModel

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
N_GAMES = 200
BINS = 10
ALPHA = 0.01
Z_MAX = norm.ppf(1 - ALPHA / (2 * BINS))     # 3.29


@pytest.fixture(scope="module")
def records():
    beta, eps = 1.0, 0.05
    return [play_game(Rules(), {p: BoltzmannBot(beta=beta, epsilon=eps, seed=1000 * s + i)
                                for i, p in enumerate(PLAYERS)}, seed=s).record for s in range(N_GAMES)]


def pooled_events(records, model):
    ps, ys, gs = [], [], []
    for gi, rec in enumerate(records):
        bs = BeliefSet.from_record(rec, model=model, until="dossier", keep_updates=False)
        assert bs.at_mark
        for o, b in bs.beliefs.items():
            # the belief is about who holds what at the stop, so score it against that (not the final owners)
            t = truth_table(PLAYERS, b.agents, bs.truth_at_stop)
            rows = [i for i, p in enumerate(PLAYERS) if p != o] + [len(PLAYERS)]
            mask = [a not in b.own_agents for a in b.agents]
            p, y = binary_events(b.marginals_array(), t, rows=rows, agents_mask=mask)
            ps.append(p)
            ys.append(y)
            gs.append(np.full(p.size, gi))
    return np.concatenate(ps), np.concatenate(ys), np.concatenate(gs)


def test_beliefs_are_calibrated_and_a_wrong_model_is_not(records):
    assert Z_MAX == pytest.approx(3.29, abs=0.01)
    p, y, g = pooled_events(records, BoltzmannModel(beta=1.0, epsilon=0.05))
    z = calibration_z_scores(p, y, g, bins=BINS)
    ece = expected_calibration_error(p, y, bins=BINS)
    print(f"\nright model: {p.size} events, ECE {ece:.4f}, max |z| {np.abs(z.z).max():.2f}\n"
          + z.round(3).to_string())
    assert (z.groups >= 30).all()                       # enough games in every bin for the normal approximation
    assert np.abs(z.z).max() < Z_MAX

    p5, y5, g5 = pooled_events(records, BoltzmannModel(beta=5.0, epsilon=0.05))
    z5 = calibration_z_scores(p5, y5, g5, bins=BINS)
    ece5 = expected_calibration_error(p5, y5, bins=BINS)
    print(f"beta x 5: ECE {ece5:.4f}, max |z| {np.abs(z5.z).max():.2f}")
    assert np.abs(z5.z).max() > Z_MAX
    assert ece5 > 3 * ece


TS_GAMES = 150


def test_top_secret_beliefs_are_calibrated():
    """As above, in Top Secret games (announcements, card choices and targets all scored by the model)."""
    recs = [play_game(Rules(top_secret=True), {p: BoltzmannBot(beta=1.0, epsilon=0.05, seed=1000 * s + i)
                                               for i, p in enumerate(PLAYERS)}, seed=s).record
            for s in range(TS_GAMES)]
    p, y, g = pooled_events(recs, BoltzmannModel(beta=1.0, epsilon=0.05))
    z = calibration_z_scores(p, y, g, bins=BINS)
    print(f"\nTop Secret: {p.size} events, ECE {expected_calibration_error(p, y, bins=BINS):.4f}, "
          f"max |z| {np.abs(z.z).max():.2f}\n" + z.round(3).to_string())
    assert (z.groups >= 30).all()
    assert np.abs(z.z).max() < Z_MAX
    p5, y5, g5 = pooled_events(recs, BoltzmannModel(beta=5.0, epsilon=0.05))
    z5 = calibration_z_scores(p5, y5, g5, bins=BINS)
    assert np.abs(z5.z).max() > Z_MAX                 # the test has the power to reject a wrong model
