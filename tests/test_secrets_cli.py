"""The command line for Secrets: play, replay and evaluate with --game secrets, and the transcript."""
from __future__ import annotations

import re

import pytest

from heimlich_lab.cli import main
from heimlich_lab.commands.play import record_game
from heimlich_lab.commands.secrets import evaluate
from heimlich_lab.errors import HeimlichError
from heimlich_lab.games.secrets.cli import TABLES, evaluate_tables
from heimlich_lab.secrets import SecretsRecord


def test_play_replay_and_the_same_seed(tmp_path, capsys):
    out = tmp_path / "s.json"
    args = ["play", "--game", "secrets", "--players", "Ann,Bob,Cy,Dee,Eve", "--bots", "team,random,bluff",
            "--seed", "4"]
    assert main(args + ["--bots", "team,random,bluff,team,random", "--out", str(out)]) == 0
    first = capsys.readouterr().out
    assert "Turn 1: Ann is the active player." in first and "The end. Markers:" in first
    assert record_game(out.read_bytes()).name == "secrets" and SecretsRecord.load(out).replay().is_over
    assert main(args + ["--bots", "team,random,bluff,team,random"]) == 0
    assert capsys.readouterr().out.splitlines()[:-1] == first.splitlines()[:-2]    # same game, no "saved" line
    assert main(["replay", str(out), "--as", "Ann"]) == 0
    mine = capsys.readouterr().out
    assert "Ann looks at their own marker: " in mine and "Bob looks at their own marker." in mine


def test_bad_secrets_input_is_an_error_message(capsys):
    assert main(["play", "--game", "secrets", "--players", "Ann,Bob,Cy", "--seed", "1"]) == 2
    assert "4 to 8 players" in capsys.readouterr().err
    assert main(["play", "--game", "secrets", "--players", "Ann,Bob,Cy,Dee", "--bots", "greedy"]) == 2
    assert "unknown bot 'greedy' for secrets" in capsys.readouterr().err
    assert main(["play", "--game", "secrets", "--players", "Ann,Bob,Cy,Dee", "--top-secret"]) == 2
    assert "Secrets has none" in capsys.readouterr().err


def test_evaluate_scores_the_beliefs(capsys):
    assert main(["evaluate", "--game", "secrets", "--games", "3", "--players", "4", "--bots", "random"]) == 0
    text = capsys.readouterr().out
    assert "log_loss" in text and "exact" in text and "prior" in text
    for bots, words in ((",", "give at least one bot"), ("nobody", "unknown bot 'nobody'")):
        assert main(["evaluate", "--game", "secrets", "--games", "1", "--players", "4", "--bots", bots]) == 2
        assert words in capsys.readouterr().err
    # no seed: a fresh one, printed; given back, it scores the same games
    assert main(["evaluate", "--game", "secrets", "--games", "2", "--players", "4"]) == 0
    first = capsys.readouterr().out
    seed = int(re.search(r"seed (\d+) \(drawn\)", first).group(1))
    assert main(["evaluate", "--game", "secrets", "--games", "2", "--players", "4", "--seed", str(seed)]) == 0
    again = capsys.readouterr().out
    assert again.replace(f"seed {seed}", "") == first.replace(f"seed {seed} (drawn)", "")
    for flag in (["--populations", "random"], ["--targets"]):      # the first game's population grid only
        assert main(["evaluate", "--game", "secrets", "--games", "1", "--players", "4", *flag]) == 2
        assert "Secrets has none" in capsys.readouterr().err
    table = evaluate(games=4, n_players=6, bots=["team"], seed=2)
    assert table.loc["exact", "log_loss"] < table.loc["prior", "log_loss"]
    assert table.loc["model", "log_loss"] < table.loc["exact", "log_loss"]      # team players' choices tell
    assert table.loc["types", "log_loss"] < table.loc["exact", "log_loss"]
    assert table.loc["exact", "vs_exact"] == 0 and table.loc["types", "vs_exact"] == pytest.approx(
        table.loc["types", "log_loss"] - table.loc["exact", "log_loss"], abs=0.05)


def test_evaluate_reports_every_kind_of_table_with_the_seen_only_belief_beside(capsys):
    assert main(["evaluate", "--game", "secrets", "--games", "2", "--players", "4", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert "per kind of table" in lines[0] and "seed 3" in lines[0]
    header = lines[1].split()
    assert header == ["log_loss", "brier", "ece", "vs_exact", "ci95", "events"]
    rows = [line.split() for line in lines[3:]]
    kinds = [r[0] for r in rows if r[0] in TABLES]
    assert kinds == list(TABLES)                      # every kind of table, in order, each with its methods
    methods = [r[1] if r[0] in TABLES else r[0] for r in rows]
    assert methods == ["exact", "types", "prior"] * len(TABLES)
    assert all(len(r) == 7 + (r[0] in TABLES) for r in rows)
    t = evaluate_tables(games=2, n_players=[4, 5], seed=3)
    assert list(t.index.names) == ["table", "method"] and len(t) == 3 * len(TABLES)
    assert (t.xs("exact", level="method")["vs_exact"] == 0).all()
    assert (t["events"] == 5 * 4 + 6 * 5).all()         # 4 players x 5 slots, then 5 x 6: counts cycled
    # the same seed gives the same games and figures
    assert evaluate_tables(games=2, n_players=[4, 5], seed=3).equals(t)
    with pytest.raises(HeimlichError, match="4 to 8 players"):
        evaluate_tables(games=1, n_players=[4, 9])
