"""Tests for ``heimlich-lab evaluate`` (heimlich_lab.commands.evaluate)."""
from __future__ import annotations

import pytest

from heimlich_lab.cli import COMMAND_MODULES, main
from heimlich_lab.commands.evaluate import METHODS, METRICS, evaluate, lineup
from heimlich_lab.errors import HeimlichError
from heimlich_lab.inference.model import BoltzmannModel
from heimlich_lab.rules.ruleset import Rules


def test_registered():
    assert "heimlich_lab.commands.evaluate" in COMMAND_MODULES


def test_lineup_rotates_seats():
    assert lineup(["a", "b", "c"], 3, 0) == ["a", "b", "c"]
    assert lineup(["a", "b", "c"], 3, 1) == ["b", "c", "a"]
    assert lineup(["a", "b", "c"], 3, 1, rotate=False) == ["a", "b", "c"]
    assert lineup(["x"], 4, 7) == ["x"] * 4


def test_exact_beats_baselines_when_the_model_is_right():
    table, scores = evaluate(games=6, n_players=4, bots=["boltzmann"], seed=3, model=BoltzmannModel(),
                             progress=False)
    assert list(table.index) == list(METHODS) and list(table.columns) == list(METRICS)
    assert len(scores) == 6 * 4 * 4
    ex, un = table.loc["exact"], table.loc["uniform"]
    assert ex.log_loss < table.loc["points-share"].log_loss < un.log_loss
    assert ex.brier < un.brier and ex.accuracy > un.accuracy
    assert ex.expected_correct > un.expected_correct
    assert scores.at_mark.all()
    # uniform guessing for 4 players, 7 agents: 6 unknown agents, P(free) = 3/6 > P(an opponent) = 1/6
    assert un.expected_correct == pytest.approx(3.0)


def test_mixed_bots_and_top_secret():
    table, scores = evaluate(games=3, n_players=3, bots=["boltzmann", "greedy", "bluff"], seed=1,
                             rules=Rules(top_secret=True), progress=False)
    assert set(scores.bot) == {"boltzmann", "greedy", "bluff"}
    assert table.notna().all().all()


def test_command_line(capsys, tmp_path):
    out = tmp_path / "scores.csv"
    assert main(["evaluate", "--games", "2", "--players", "3", "--bots", "random,boltzmann", "--seed", "4",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    for word in ("exact", "independent", "points-share", "uniform", "log loss", "brier", "accuracy",
                 "expected correct", "actual correct"):
        assert word in text
    assert out.read_text().startswith("game,seed,player,bot,method")


def test_bad_arguments(capsys):
    assert main(["evaluate", "--games", "1", "--players", "3", "--bots", "nobody"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["evaluate", "--games", "1", "--players", "9"]) == 2
    with pytest.raises(HeimlichError):
        evaluate(games=0, n_players=3, bots=["random"], progress=False)
