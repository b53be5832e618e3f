"""Tests for heimlich_lab.inference.metrics against values computed by hand."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from heimlich_lab.errors import ModelError
from heimlich_lab.inference.metrics import (accuracy, binary_events, brier_score, calibration_curve,
                                            calibration_z_scores, correct_entries, expected_calibration_error,
                                            expected_correct_entries, log_loss, plot_calibration, score_belief,
                                            truth_table)

PLAYERS = ["Ann", "Bob"]
AGENTS = ["red", "blue", "green"]
#             red   blue  green
M = np.array([[0.6, 0.3, 0.1],    # Ann
              [0.3, 0.5, 0.2],    # Bob
              [0.1, 0.2, 0.7]])   # free
OWNERS = {"Ann": "red", "Bob": "green"}   # blue is free


def test_truth_table():
    t = truth_table(PLAYERS, AGENTS, OWNERS)
    np.testing.assert_array_equal(t, [[1, 0, 0], [0, 0, 1], [0, 1, 0]])
    np.testing.assert_array_equal(truth_table(PLAYERS, AGENTS, {"Ann": ["red", "blue"], "Bob": "green"}).sum(axis=1),
                                  [2, 1, 0])
    with pytest.raises(ModelError):
        truth_table(PLAYERS, AGENTS, {"Zed": "red"})
    with pytest.raises(ModelError):
        truth_table(PLAYERS, AGENTS, {"Ann": "red", "Bob": "red"})
    with pytest.raises(ModelError):
        truth_table(PLAYERS, AGENTS, {"Ann": "purple"})


def test_scores_by_hand():
    t = truth_table(PLAYERS, AGENTS, OWNERS)
    # P(true owner): red 0.6 (Ann), blue 0.2 (free), green 0.2 (Bob)
    assert log_loss(M, t) == pytest.approx(-(math.log(0.6) + math.log(0.2) + math.log(0.2)) / 3)
    # red: .4^2+.3^2+.1^2 = .26; blue: .3^2+.5^2+.8^2 = .98; green: .1^2+.8^2+.7^2 = 1.14
    assert brier_score(M, t) == pytest.approx((0.26 + 0.98 + 1.14) / 3)
    # argmax: red -> Ann (right), blue -> Bob (wrong), green -> free (wrong)
    assert accuracy(M, t) == pytest.approx(1 / 3)
    mask = [True, False, True]
    assert log_loss(M, t, mask) == pytest.approx(-(math.log(0.6) + math.log(0.2)) / 2)
    assert accuracy(M, t, mask) == pytest.approx(0.5)
    # columns are rescaled: doubling a column changes nothing
    M2 = M.copy()
    M2[:, 1] *= 2
    assert log_loss(M2, t) == pytest.approx(log_loss(M, t))
    # a probability 0 on the truth is clipped, not infinite
    Z = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert log_loss(Z, t, eps=1e-10) == pytest.approx(2 * -math.log(1e-10) / 3)
    assert brier_score(t, t) == 0 and log_loss(t, t) == pytest.approx(0, abs=1e-12) and accuracy(t, t) == 1


def test_dossier_entries_by_hand():
    sheet = {"red": "Ann", "blue": "Bob", "green": "free"}
    assert correct_entries(sheet, OWNERS) == 1
    assert expected_correct_entries(M, PLAYERS, AGENTS, sheet) == pytest.approx(0.6 + 0.5 + 0.7)
    s = score_belief(M, PLAYERS, AGENTS, OWNERS, observer="Ann", own_agents=["red"])
    # Ann's sheet names Bob or free for blue and green: blue -> Bob (0.5 > 0.2), green -> free (0.7 > 0.2)
    assert s["expected_correct"] == pytest.approx(0.5 + 0.7)
    assert s["actual_correct"] == 0
    assert s["log_loss"] == pytest.approx(-math.log(0.2))
    assert s["accuracy"] == 0


def test_calibration_by_hand():
    p = [0.05, 0.15, 0.12, 0.8, 0.9, 0.95, 0.55]
    y = [0, 0, 1, 1, 1, 0, 1]
    cur = calibration_curve(p, y, bins=4)
    assert list(cur.n) == [3, 0, 1, 3]
    assert cur.mean_predicted[0] == pytest.approx((0.05 + 0.15 + 0.12) / 3)
    assert cur.frequency[0] == pytest.approx(1 / 3)
    assert math.isnan(cur.frequency[1])
    assert cur.frequency[3] == pytest.approx(2 / 3)
    # ECE = sum_b n_b/N |mean p - freq|
    ece = (3 * abs(0.32 / 3 - 1 / 3) + 1 * abs(0.55 - 1) + 3 * abs(2.65 / 3 - 2 / 3)) / 7
    assert expected_calibration_error(p, y, bins=4) == pytest.approx(ece)
    assert expected_calibration_error([1.0, 0.0], [1, 0]) == 0
    with pytest.raises(ModelError):
        calibration_curve([0.5], [2])
    with pytest.raises(ModelError):
        calibration_curve([1.5], [1])
    with pytest.raises(ModelError):
        calibration_curve([0.5, 0.2], [1])


def test_binary_events_and_z_scores():
    t = truth_table(PLAYERS, AGENTS, OWNERS)
    p, y = binary_events(M, t, rows=[1, 2], agents_mask=[False, True, True])
    np.testing.assert_allclose(p, [0.5, 0.2, 0.2, 0.7])
    np.testing.assert_array_equal(y, [0, 1, 1, 0])
    # z-scores: two groups, one bin: D_1 = sum(y - p) of group 1, ...
    z = calibration_z_scores([0.5, 0.5, 0.5, 0.5], [1, 1, 0, 1], groups=[1, 1, 2, 2], bins=1)
    d1, d2 = 1.0, 0.0
    assert z.z[0] == pytest.approx((d1 + d2) / math.sqrt(d1 ** 2 + d2 ** 2))
    assert z.groups[0] == 2 and z.n[0] == 4


def test_z_scores_do_not_read_rounding_as_a_signal():
    # the prior's predictions: 1/6 for each of six agents, exactly one of which is the player's, in 400 games.
    # 6 * (1/6) is not exactly 1 in floating point, so every game's deviation has the same (rounding) sign.
    games = 400
    p = np.full(6 * games, 1 / 6)
    y = np.tile([1.0, 0, 0, 0, 0, 0], games)
    g = np.repeat(np.arange(games), 6)
    d = np.bincount(g, weights=y - p)
    assert np.all(d != 0) and abs(d.sum() / np.sqrt((d ** 2).sum())) > 19     # the naive ratio: sqrt(400)
    assert calibration_z_scores(p, y, g, bins=10).z.abs().max() == 0.0
    # a small but real gap is still a signal: predictions of 0.16 for events of rate 1/6
    z = calibration_z_scores(np.full(6 * games, 0.16), y, g, bins=10)
    assert z.z[1] == pytest.approx(games * 6 * (1 / 6 - 0.16) / math.sqrt(games * (6 * (1 / 6 - 0.16)) ** 2))


def test_plot_calibration():
    import matplotlib.pyplot as plt
    rng = np.random.default_rng(0)
    p = rng.random(500)
    y = (rng.random(500) < p).astype(float)
    ax = plot_calibration(p, y, bins=5, label="test")
    assert ax.get_xlabel() == "predicted probability"
    assert "ECE" in ax.get_legend().get_texts()[1].get_text()
    plot_calibration(1 - p, y, bins=5, ax=ax, label="another")           # a second belief on the same axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels.count("perfect") == 1 and len(labels) == 3
    plt.close("all")


def test_bad_tables():
    t = truth_table(PLAYERS, AGENTS, OWNERS)
    with pytest.raises(ModelError):
        log_loss(M[:2], t)
    with pytest.raises(ModelError):
        log_loss(np.full((3, 3), np.nan), t)
    with pytest.raises(ModelError):
        log_loss(M, t * 2)
    with pytest.raises(ModelError):
        accuracy(M, t, agents_mask=[False, False, False])
