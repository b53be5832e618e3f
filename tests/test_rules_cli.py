"""The command line: ``heimlich-lab play`` and ``heimlich-lab replay``."""
from __future__ import annotations

import json
import os
import re

import pytest

from heimlich_lab import GameRecord
from heimlich_lab.cli import main

ARGS = ["play", "--players", "Ann,Bob,Cy", "--seed", "1", "--top-secret", "--dossier"]


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


@pytest.fixture
def played(tmp_path, capsys):
    path = tmp_path / "game.json"
    code, lines, err = run(capsys, ARGS + ["--out", str(path)])
    assert code == 0 and err == ""
    return path, lines


def test_play_prints_the_whole_game(played):
    path, lines = played
    assert lines[0] == "Transcript: Spectator (public information only)"
    assert lines[-1] == f"Record saved to {path}"
    text = "\n".join(lines)
    assert re.search(r"^Turn 1: Ann rolls (1-3|[2-6])\.$", text, re.M)
    assert re.search(r"^Turn 2: Bob rolls", text, re.M) and re.search(r"^Turn 3: Cy rolls", text, re.M)
    assert re.search(r"^\w+ moves (\w+ [\w-]+→[\w-]+(, )?)+\.", text, re.M)             # allocations
    assert re.search(r"^Scoring \(\w+(, \w+)* at the safe\): .*\+\d+", text, re.M)        # gains
    assert re.search(r"^\w+ moves the safe to (church|ruins|\d+)\.$", text, re.M)
    assert re.search(r"^\w+ plays \w+ \(", text, re.M)                                    # cards
    assert "Ann draws a Top Secret card." in text                                        # draws, hidden
    assert "A marker reached 29: every player secretly fills in the Secret Dossier." in text
    over = [line for line in lines if line.startswith("Game over.")]
    assert len(over) == 1
    assert "Identities: " in over[0] and "Winner: " in over[0] and "Dossier points: " in over[0]
    for agent in ("grey", "yellow", "orange", "red", "green", "blue"):
        assert re.search(rf"\b{agent}=(Ann|Bob|Cy|free)\b", over[0])


def test_the_transcript_agrees_with_the_record(played):
    path, lines = played
    rec = GameRecord.load(path)
    game = rec.replay()
    over = [line for line in lines if line.startswith("Game over.")][0]
    winner = ", ".join(game.winners) if game.winners else "nobody (a free agent went farthest)"
    assert f"Winner: {winner}" in over
    for c, s in game.scores.items():
        assert f"{c} {s}" in over
    rolls = [a for who, a in game.history if a.kind == "roll"]
    assert len([line for line in lines if re.match(r"Turn \d+: \w+ rolls", line)]) == len(rolls)
    assert json.loads(path.read_text())["view"] == "full"


def test_same_seed_same_output(played, capsys, tmp_path):
    _, first = played
    code, again, _ = run(capsys, ARGS + ["--out", str(tmp_path / "again.json")])
    assert code == 0 and again[:-1] == first[:-1]
    assert (tmp_path / "again.json").read_text() == (tmp_path / "game.json").read_text()
    code, other, _ = run(capsys, ["play", "--players", "Ann,Bob,Cy", "--seed", "2", "--top-secret", "--dossier"])
    assert code == 0 and other != first[:-1]


def test_replay_prints_the_same_transcript(played, capsys):
    path, lines = played
    code, again, err = run(capsys, ["replay", str(path)])
    assert code == 0 and err == "" and again == lines[:-1]


def test_replay_as_a_player_shows_only_their_secrets(played, capsys):
    path, _ = played
    code, lines, _ = run(capsys, ["replay", str(path), "--as", "Bob"])
    assert code == 0 and lines[0] == "Transcript: Bob's view"
    text = "\n".join(lines)
    game = GameRecord.load(path).replay()
    bob_agent = game.owners["Bob"][0]
    assert re.search(rf"^Bob's secret agent card: {bob_agent} \(\w+\)\.$", text, re.M)
    assert "Ann is dealt a secret agent card." in text and "Cy is dealt a secret agent card." in text
    assert re.search(r"^Bob draws \w+ \(.*\)\.$", text, re.M)                         # his own draws
    assert not re.search(r"^(Ann|Cy) draws \w+ \(", text, re.M)                       # nobody else's
    assert "Ann draws a Top Secret card." in text
    assert not re.search(r"^(Ann|Cy)'s dossier:", text, re.M) and re.search(r"^Bob's dossier:", text, re.M)
    # the omniscient transcript shows every draw
    code, omni, _ = run(capsys, ["replay", str(path), "--as", "omniscient"])
    assert omni[0] == "Transcript: Omniscient (all secrets shown)"
    assert re.search(r"^Ann draws \w+ \(", "\n".join(omni), re.M)


def test_play_as_a_player(capsys):
    code, lines, _ = run(capsys, ["play", "--players", "Ann,Bob", "--seed", "3", "--as", "Ann"])
    assert code == 0 and lines[0] == "Transcript: Ann's view"
    assert re.search(r"^Ann's secret agent card: \w+", "\n".join(lines), re.M)
    assert "Bob is dealt a secret agent card." in lines


@pytest.mark.parametrize("argv, words", [
    (["play", "--players", "Ann"], "for 2 to 7 players, not 1"),
    (["play", "--players", "Ann,Ann"], "repeated: Ann"),
    (["play", "--players", "Ann,free"], "player name 'free' is not allowed"),
    (["play", "--players", ","], "give at least one player"),
    (["play", "--players", "Ann,Bob", "--bots", "nope"], "unknown bot 'nope'"),
    (["play", "--players", "Ann,Bob,Cy", "--bots", "random,random"], "3 players but 2 bots"),
    (["play", "--players", "Ann,Bob", "--as", "Zed"], "--as Zed: not a player"),
    (["replay", "/no/such/file.json"], "cannot read record"),
])
def test_bad_arguments_exit_with_a_clear_message(capsys, argv, words):
    code, out, err = run(capsys, argv)
    assert code == 2 and out == []
    assert err.startswith("heimlich-lab: error: ") and words in err


def test_replay_of_bad_records(capsys, tmp_path, played):
    path, _ = played
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    code, _, err = run(capsys, ["replay", str(bad)])
    assert code == 2 and "not valid JSON" in err and str(bad) in err
    d = json.loads(path.read_text())
    d["log"][5][1] = "move red+9"
    bad.write_text(json.dumps(d))
    code, _, err = run(capsys, ["replay", str(bad)])
    assert code == 2 and "log entry 5" in err
    pub = tmp_path / "public.json"
    GameRecord.load(path).public().save(pub)
    code, _, err = run(capsys, ["replay", str(pub)])
    assert code == 2 and "use the full record" in err
    code, _, err = run(capsys, ["replay", str(path), "--as", "Zed"])
    assert code == 2 and "--as Zed" in err


@pytest.mark.parametrize("argv, words", [
    (["play", "--players", "Ann,Bob", "--out", "/no/such/folder/game.json"], "the folder /no/such/folder does not"),
    (["play", "--players", "Ann,Bob", "--out", ""], "give a file name"),
    (["play", "--players", "Ann,Bob", "--out", "."], ". is a folder"),
    (["play", "--players", "Ann,Bob", "--seed", "-1"], "'-1' is not a seed"),
    (["play", "--players", "Ann,Bob", "--seed", "٣"], "is not a seed"),
    (["play", "--players", "Ann,Bob", "--seed", str(2**63)], "is not a seed"),
    (["evaluate", "--seed", "-5"], "'-5' is not a seed"),
    (["evaluate", "--games", "0"], "'0' is not a whole number >= 1"),
    (["evaluate", "--beta", "inf"], "'inf' is not a finite number"),
    (["evaluate", "--out", "/no/such/folder/s.csv"], "does not exist"),
    (["evaluate", "--out", "scores.txt"], "must end in .csv"),
    (["tournament", "--out", "/nonexistent/x.parquet"], "the folder /nonexistent does not exist"),
    (["tournament", "--out", "x.json"], "must end in .parquet or .csv"),
    (["tournament", "--seed", "-3"], "is not a seed"),
    (["tournament", "--games", "-1"], "is not a whole number >= 0"),
    (["tournament", "--jobs", "x"], "is not a whole number >= -1"),
])
def test_bad_arguments_are_usage_errors_before_any_work(capsys, monkeypatch, argv, words):
    """Refused by argparse (exit 2, the usage and the argument named) before a game is played or a folder made."""
    from heimlich_lab import Game
    monkeypatch.setattr(Game, "__init__", lambda *a, **k: pytest.fail("a game was set up"))
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.startswith("usage: heimlich-lab") and words in err
    assert not os.path.exists("/nonexistent")


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["play", "--players", "Ann,Bob", "--seed", "x"])
    assert e.value.code == 2
    assert "'x' is not a seed" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["play"])
    assert e.value.code == 2 and "--players" in capsys.readouterr().err


def test_the_rules_options_reach_the_game(capsys, tmp_path):
    path = tmp_path / "g.json"
    assert main(["play", "--players", "Ann,Bob,Cy", "--top-secret", "--draws", "may", "--safe-mover", "creator",
                 "--lone-announcer", "one_card", "--seed", "4", "--out", str(path)]) == 0
    rec = GameRecord.load(path)
    assert (rec.rules.draws, rec.rules.safe_mover, rec.rules.lone_announcer) == ("may", "creator", "one_card")
    assert any(a.kind == "collect" for a in rec.actions) and "chooses to draw a Top Secret card" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["play", "--players", "Ann,Bob", "--draws", "sometimes"])


def test_tournament_refuses_an_unknown_summary_column_before_playing(capsys, monkeypatch):
    from heimlich_lab import Game
    monkeypatch.setattr(Game, "__init__", lambda *a, **k: pytest.fail("a game was set up"))
    assert main(["tournament", "--games", "1", "--by", "bot,colour", "--no-progress"]) == 2
    assert "--by: unknown column(s) ['colour']" in capsys.readouterr().err
