"""Tournaments of the second game, Secrets: the same grid, seeds, executors, table and summaries as the first."""
from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.figure import Figure

from heimlich_lab import secrets
from heimlich_lab.analysis import game_seeds, load_results, plot_win_rates, tournament, win_rates
from heimlich_lab.analysis.storage import SECRETS_COLUMNS
from heimlich_lab.cli import main
from heimlich_lab.errors import HeimlichError

GRID = dict(player_counts=(4, 7), bots=("random", "rotate:team,bluff,random"), games=3, game="secrets",
            progress=False)


@pytest.fixture(scope="module")
def table():
    return tournament(seed=11, **GRID)


def test_one_row_per_game_and_player_with_the_secrets_columns(table):
    assert list(table.columns) == list(SECRETS_COLUMNS)
    assert len(table) == 3 * 2 * (4 + 7) and table["game_id"].nunique() == 3 * 2 * 2
    assert (table["game"] == "secrets").all() and table["game_id"].str.startswith("11/secrets/").all()
    assert set(table["team"]) <= {"CIA", "KGB", "Hippie"} and set(table["dealt_team"]) <= {"CIA", "KGB", "Hippie"}
    assert set(table.loc[table["lineup"] != "random", "bot"]) == {"team", "bluff", "random"}


def test_each_row_is_the_game_its_seeds_play(table):
    """The rows say what secrets.play_game gives with the game's and the bots' seeds from the grid."""
    row = table[(table["n_players"] == 7) & (table["lineup"] == "rotate:team,bluff,random")
                & (table["game_index"] == 2)]
    game_seed, bot_seeds = game_seeds(11, 2, 7)
    players = [f"P{i + 1}" for i in range(7)]
    bots = {p: secrets.make_bot(b, seed=s) for p, b, s in zip(players, row["bot"], bot_seeds)}
    g = secrets.play_game(bots, seed=game_seed)
    assert row["seed"].iloc[0] == game_seed and list(row["bot_seed"]) == bot_seeds
    assert list(row["team"]) == [g.identities[p] for p in players]
    assert list(row["dealt_team"]) == [dict(g.history[0][1].args)[p] for p in players]
    assert list(row["score"]) == [g.scores[p] for p in players]
    assert list(row["won"]) == [p in g.winners for p in players]
    # a team wins together (or a Hippie alone); everyone on the winning team won, nobody else did
    winning = row["winning_team"].iloc[0]
    assert list(row["won"]) == [bool(winning) and t == winning and (t != "Hippie" or len(g.winners) == 1)
                                for t in row["team"]]


def test_the_same_seed_gives_the_same_table_and_serial_equals_two_jobs(table):
    pd.testing.assert_frame_equal(tournament(seed=11, **GRID), table)
    pd.testing.assert_frame_equal(tournament(seed=11, n_jobs=2, chunk_size=2, **GRID), table)
    assert not tournament(seed=12, **GRID)["seed"].equals(table["seed"])


def test_without_a_seed_the_root_seed_is_drawn_and_recorded():
    a = tournament(4, "basic", "random", games=1, game="secrets", progress=False)
    b = tournament(4, "basic", "random", games=1, game="secrets", progress=False)
    assert a["root_seed"].nunique() == 1 and a["root_seed"].iloc[0] != b["root_seed"].iloc[0]
    again = tournament(4, "basic", "random", games=1, seed=int(a["root_seed"].iloc[0]), game="secrets",
                       progress=False)
    pd.testing.assert_frame_equal(again, a)


def test_win_rates_by_bot_and_team_with_wilson_intervals_and_a_plot(table):
    by_team = win_rates(table, by="team")
    assert set(by_team["team"]) <= {"CIA", "KGB", "Hippie"} and by_team["games"].sum() == len(table)
    for r in by_team.itertuples():
        assert r.wins == table[(table["team"] == r.team) & table["won"]].shape[0]
        assert r.ci_low <= r.win_rate <= r.ci_high
    assert by_team["fair_share"].isna().all()          # won by teams: no seat's fair share
    by_bot = win_rates(table, by="bot")
    assert list(by_bot["bot"]) == ["bluff", "random", "team"]
    ax = plot_win_rates(table, by="team", ax=Figure().subplots())
    assert len(ax.patches) == len(by_team)


def test_beliefs_are_scored_per_observer():
    df = tournament(5, "basic", "random", games=2, seed=3, game="secrets", progress=False, evaluate="beliefs")
    rec = secrets.play_game({f"P{i + 1}": secrets.make_bot("random", seed=s)
                             for i, s in enumerate(game_seeds(3, 0, 5)[1])}, seed=game_seeds(3, 0, 5)[0]).record
    first = df[df["game_index"] == 0]
    for p, own, acc in zip(first["player"], first["belief_own"], first["belief_accuracy"]):
        b = secrets.Belief.from_record(rec, observer=p, model=None)     # the evaluator scores what was seen
        ids = b.identities()
        truth = rec.final_identities
        assert own == pytest.approx(ids[p][truth[p]])
        assert acc == pytest.approx(sum(max(ids[s], key=ids[s].get) == truth[s] for s in ids) / len(ids))
    assert (df["belief_log_loss"] >= 0).all() and df["belief_brier"].between(0, 2).all()


def test_saving_and_resuming(tmp_path):
    out = tmp_path / "s.csv"
    part = tournament(4, "basic", "random", games=2, seed=5, game="secrets", progress=False, out=out)
    full = tournament(4, "basic", "random", games=4, seed=5, game="secrets", progress=False, out=out)
    pd.testing.assert_frame_equal(full.iloc[:len(part)], part)
    assert load_results(out)["game_id"].nunique() == 4 and "team" in load_results(out)
    with pytest.raises(HeimlichError, match="holds a secrets tournament, not heimlich"):
        tournament(3, "basic", "random", games=1, seed=5, progress=False, out=out)


@pytest.mark.parametrize("kwargs, match", [
    (dict(player_counts=3), "Secrets is for 4 to 8 players, not 3"),
    (dict(player_counts=9), "Secrets is for 4 to 8 players, not 9"),
    (dict(bots="greedy"), "unknown bot 'greedy' for secrets"),
    (dict(variants="top_secret"), "a Secrets variant is"),
    (dict(variants={"double_agent_value": "x"}), "double_agent_value must be a whole number"),
    (dict(games=-1), "games must be a whole number"),
    (dict(game="chess"), "unknown game 'chess'"),
    (dict(evaluate="nonsense"), "unknown evaluator"),
])
def test_bad_input_is_a_clean_error_before_any_game(kwargs, match, monkeypatch):
    from heimlich_lab.analysis import running
    monkeypatch.setattr(running, "_played", lambda *a: pytest.fail("a game was played"))
    args = dict(player_counts=4, variants="basic", bots="random", games=1, game="secrets", progress=False)
    with pytest.raises(HeimlichError, match=match):
        tournament(**{**args, **kwargs})


def test_a_variant_is_a_rule_option():
    df = tournament(4, ["basic", "double_agent=-2"], "random", games=2, seed=1, game="secrets", progress=False)
    assert list(df["variant"].unique()) == ["basic", "double_agent=-2"]


def test_cli(tmp_path, capsys):
    out = tmp_path / "s.parquet"
    rc = main(["tournament", "--game", "secrets", "--players", "4,6", "--bots", "rotate:team,random",
               "--games", "2", "--seed", "4", "--out", str(out), "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 0 and "4 games, 20 player rows, root seed 4" in text and "Win rates by team" in text
    assert "fair_share" not in text and "free agent" not in text
    expected = tournament((4, 6), "basic", "rotate:team,random", games=2, seed=4, game="secrets", progress=False)
    pd.testing.assert_frame_equal(load_results(out), expected)


@pytest.mark.parametrize("argv, match", [
    (["--players", "3"], "Secrets is for 4 to 8 players, not 3"),
    (["--bots", "greedy"], "unknown bot 'greedy' for secrets"),
    (["--by", "agent"], "unknown column(s) ['agent']"),
    (["--variants", "both"], "a Secrets variant is"),
])
def test_cli_usage_errors_exit_2_before_any_game(argv, match, capsys, monkeypatch):
    from heimlich_lab.analysis import running
    monkeypatch.setattr(running, "_played", lambda *a: pytest.fail("a game was played"))
    rc = main(["tournament", "--game", "secrets", "--games", "1", "--no-progress", *argv])
    assert rc == 2 and match in capsys.readouterr().err


def test_cli_refuses_an_unknown_game(capsys):
    with pytest.raises(SystemExit) as e:
        main(["tournament", "--game", "chess"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err
