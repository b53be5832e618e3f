"""Tests for heimlich_lab.analysis.tournament (local runs; the Dask run is in test_tournament_dask.py)."""
from __future__ import annotations

import importlib
import sys

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from scipy.stats import binomtest

from heimlich_lab import Rules
from heimlich_lab.analysis import (Lineup, free_agent_win_rate, game_seeds, load_results, parse_variant,
                                   plot_win_rates, tournament, wilson_interval, win_rates)
from heimlich_lab.analysis.grid import game_tasks
from heimlich_lab.analysis.running import play_task
from heimlich_lab.analysis.storage import ResultSink
from heimlich_lab.bots.registry import BOTS, make_bot
from heimlich_lab.cli import main
from heimlich_lab.errors import HeimlichError
from heimlich_lab.play import play_game

T = importlib.import_module("heimlich_lab.analysis.tournament")

GRID = dict(player_counts=(3, 5), variants=("basic", "top_secret"), bots=("random", "rotate:random"))


def run(**kw):
    args = {**GRID, "games": 3, "seed": 11, "progress": False}
    args.update(kw)
    return tournament(**args)


@pytest.fixture(scope="module")
def full():
    return run()


class FirstBot:
    """Always the first legal action (deterministic, registered only for in-process tests)."""

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, view, legal_actions):
        return legal_actions[0]


@pytest.fixture
def first_bot(monkeypatch):
    monkeypatch.setitem(BOTS, "first", FirstBot)
    return "first"


def sort_like_file(df):
    return df.sort_values(["root_seed", "n_players", "variant", "lineup", "game_index", "seat"],
                          kind="stable").reset_index(drop=True)


# ------------------------------------------------------------------------------------------ the table
def test_tidy_table_shape_and_columns(full):
    assert list(full.columns) == list(T.COLUMNS)
    # 3 players: 2 variants x 2 line-ups x 3 games x 3 rows; 5 players: ... x 5 rows
    assert len(full) == 2 * 2 * 3 * 3 + 2 * 2 * 3 * 5
    assert full["game_id"].nunique() == 2 * 2 * 2 * 3
    per_game = full.groupby("game_id")
    assert (per_game.size() == per_game["n_players"].first()).all()
    assert (per_game["seat"].apply(lambda s: sorted(s) == list(range(1, len(s) + 1)))).all()
    assert (per_game["final_agent"].nunique() == per_game.size()).all()      # one counted agent per player
    assert (per_game["won"].sum() == per_game["n_winners"].first()).all()
    assert (full["free_agent_won"] == (full["n_winners"] == 0)).all()
    assert (full["shared_win"] == (full["won"] & (full["n_winners"] > 1))).all()
    assert (full["top_secret"] == (full["variant"] == "top_secret")).all()
    assert set(full["bot"]) == {"random"} and set(full["lineup"]) == {"random", "rotate:random"}
    assert full["player"].tolist()[:3] == ["P1", "P2", "P3"]
    assert full["agents"].str.split(",").map(len).le(2).all()
    assert full.loc[~full["top_secret"], "agents"].eq(full.loc[~full["top_secret"], "agent"]).all()
    assert full.dtypes["won"] == bool and full.dtypes["score"] == np.int64


def test_rows_are_the_games_the_seeds_describe(full):
    """Replaying a row's game from its documented seeds gives the same winners and scores."""
    for gid in full["game_id"].unique()[[0, 7, 20]]:
        rows = full[full["game_id"] == gid]
        r0 = rows.iloc[0]
        seed, bot_seeds = game_seeds(int(r0.root_seed), int(r0.game_index), int(r0.n_players))
        assert seed == r0.seed and bot_seeds == rows["bot_seed"].tolist()
        rules = parse_variant(r0.variant)[1]
        g = play_game(rules, {p: make_bot(b, seed=s) for p, b, s in zip(rows["player"], rows["bot"], bot_seeds)},
                      seed=seed)
        assert sorted(g.winners) == sorted(rows.loc[rows["won"], "player"])
        assert {p: g.scores[a] for p, a in zip(rows["player"], rows["final_agent"])} == dict(
            zip(rows["player"], rows["score"]))
        assert g.turn == r0.n_turns


def test_seeds_come_from_spawned_seed_sequences():
    ss = np.random.SeedSequence(11).spawn(5)[4]
    seed, bots = game_seeds(11, 4, 3)
    assert seed == int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))
    assert bots == [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in ss.spawn(3)]
    assert game_seeds(11, 4, 3) != game_seeds(12, 4, 3)


def test_rotated_lineup_puts_every_bot_in_every_seat(first_bot):
    lu = Lineup.parse(f"rotate:random,{first_bot}")
    assert [lu.seats(3, k) for k in range(3)] == [("random", "first", "random"), ("random", "random", "first"),
                                                  ("first", "random", "random")]
    df = tournament(3, "basic", [f"rotate:{first_bot},random,random"], games=3, progress=False)
    firsts = df[df["bot"] == first_bot]
    assert sorted(firsts["seat"]) == [1, 2, 3] and len(firsts) == 3


def test_fixed_lineups_are_used_where_they_fit(first_bot):
    df = tournament((3, 4), "basic", ["random", f"{first_bot},random,random"], games=2, progress=False)
    assert set(df.loc[df["n_players"] == 4, "lineup"]) == {"random"}
    mixed = df[df["lineup"] == f"{first_bot},random,random"]
    assert set(mixed["n_players"]) == {3} and set(mixed.loc[mixed["seat"] == 1, "bot"]) == {first_bot}
    with pytest.raises(HeimlichError, match="no line-up seats 4 players"):
        tournament(4, "basic", ["random,random,random"], games=1, progress=False)


def test_variants_and_options():
    assert parse_variant("both")[1] == Rules(top_secret=True, dossier=True)
    assert parse_variant("basic+unoccupied")[1].safe_destination == "unoccupied"
    assert parse_variant(Rules(dossier=True))[0] == "dossier"
    df = tournament(3, {"older safe rule": {"safe_destination": "unoccupied"}}, "random", games=2, progress=False)
    assert set(df["variant"]) == {"older safe rule"} and set(df["safe_destination"]) == {"unoccupied"}
    df = tournament(3, ("dossier", "both"), "random", games=2, progress=False)
    assert df["dossier"].all() and set(df["variant"]) == {"dossier", "both"}
    with pytest.raises(HeimlichError, match="unknown variant"):
        parse_variant("advanced")
    with pytest.raises(HeimlichError, match="unknown variant option"):
        parse_variant("basic+sideways")


@pytest.mark.parametrize("kw, match", [
    (dict(player_counts=8), "2 to 7 players"),
    (dict(bots="nobody"), "unknown bot 'nobody'"),
    (dict(games=-1), "games must be"),
    (dict(seed=-3), "seed must be"),
    (dict(out="results.xlsx"), r"\.parquet or \.csv"),
    (dict(evaluate=lambda rec: 3), "must return a dict"),
    (dict(evaluate=lambda rec: {"score": 1}), "named like table columns"),
])
def test_bad_input_is_explained(kw, match):
    with pytest.raises(HeimlichError, match=match):
        tournament(**{**dict(player_counts=2, variants="basic", bots="random", games=1, progress=False), **kw})


# ------------------------------------------------------------------------------------------ reproducibility
def test_results_do_not_depend_on_jobs_or_chunks(full):
    pd.testing.assert_frame_equal(run(n_jobs=2, chunk_size=1), full)
    pd.testing.assert_frame_equal(run(n_jobs=2, chunk_size=5), full)
    pd.testing.assert_frame_equal(run(n_jobs=1), full)


def test_a_game_does_not_depend_on_how_many_games_were_asked_for(full):
    fewer = run(games=2)
    pd.testing.assert_frame_equal(fewer, full[full["game_index"] < 2].reset_index(drop=True))


def test_another_seed_gives_other_games(full):
    other = run(seed=12)
    assert not other["seed"].isin(full["seed"]).any()


# ------------------------------------------------------------------------------------------ evaluation hook
def fake_belief(record):
    """A stand-in for the belief evaluation: one game-level and one per-player metric."""
    return {"log_actions": float(np.log(len(record.log))),
            "own_agent_known": {p: float(len(c)) for p, c in record.owners.items()}}


def test_evaluate_adds_metric_columns(full):
    df = run(player_counts=3, evaluate=fake_belief)
    assert list(df.columns) == list(T.COLUMNS) + ["log_actions", "own_agent_known"]
    assert np.allclose(df["log_actions"], np.log(df["n_actions"]))
    assert (df["own_agent_known"] == df["agents"].str.split(",").map(len)).all()
    base = full[full["n_players"] == 3].reset_index(drop=True)
    pd.testing.assert_frame_equal(df[list(T.COLUMNS)], base)


# ------------------------------------------------------------------------------------------ files and resume
@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_file_round_trip(tmp_path, ext):
    path = tmp_path / f"results.{ext}"
    df = run(player_counts=3, evaluate=fake_belief, out=path)
    assert path.exists()
    back = load_results(path)
    pd.testing.assert_frame_equal(back, sort_like_file(df))
    assert back.dtypes.to_dict() == df.dtypes.to_dict()


class Counter:
    def __init__(self, stop_after=None):
        self.calls, self.stop_after = 0, stop_after

    def __call__(self, record):
        self.calls += 1
        if self.stop_after is not None and self.calls > self.stop_after:
            raise KeyboardInterrupt
        return {"n_log": len(record.log)}


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_rerun_skips_games_already_saved(tmp_path, ext):
    path = tmp_path / f"results.{ext}"
    first = Counter()
    run(games=2, evaluate=first, out=path)
    assert first.calls == 8 * 2
    again = Counter()
    df = run(games=4, evaluate=again, out=path)
    assert again.calls == 8 * 2                       # only the new games were played
    single = run(games=4, evaluate=Counter())
    pd.testing.assert_frame_equal(df, single)
    pd.testing.assert_frame_equal(load_results(path), sort_like_file(single))
    nothing = Counter()
    pd.testing.assert_frame_equal(run(games=4, evaluate=nothing, out=path), single)
    assert nothing.calls == 0


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_interrupted_run_keeps_its_games_and_resumes(tmp_path, ext, capsys):
    path = tmp_path / f"results.{ext}"
    stop = Counter(stop_after=5)
    with pytest.raises(KeyboardInterrupt):
        run(games=3, evaluate=stop, out=path, flush_every=3600)
    saved = load_results(path)
    assert saved["game_id"].nunique() == 5
    assert "run the same call again" in capsys.readouterr().err
    rest = Counter()
    df = run(games=3, evaluate=rest, out=path)
    assert rest.calls == 24 - 5
    pd.testing.assert_frame_equal(df, run(games=3, evaluate=Counter()))


def test_interrupted_run_without_a_file_keeps_its_games(capsys):
    """Without out=, the games played before a Ctrl-C come back on the exception (and from
    interrupted_results()), exactly as an uninterrupted run has them."""
    stop = Counter(stop_after=5)  # the 6th game's evaluation raises KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt) as info:
        run(games=3, evaluate=stop)
    part = info.value.partial
    assert part["game_id"].nunique() == 5
    assert T.interrupted_results() is part
    assert "interrupted after 5 games" in capsys.readouterr().err
    whole = run(games=3, evaluate=Counter())
    expect = whole[whole["game_id"].isin(set(part["game_id"]))].reset_index(drop=True)
    assert len(expect) == len(part) > 0
    pd.testing.assert_frame_equal(part, expect)


def test_file_keeps_other_grids_and_new_metric_columns(tmp_path):
    path = tmp_path / "results.csv"
    run(player_counts=3, variants="basic", games=2, out=path)
    df = run(player_counts=3, variants="basic", games=3, out=path, evaluate=Counter())
    other = run(player_counts=5, variants="basic", games=1, out=path)
    assert set(other["n_players"]) == {5}
    saved = load_results(path)
    assert saved["game_id"].nunique() == 2 * 3 + 2 * 1
    assert saved.loc[saved["game_index"] == 2, "n_log"].notna().all()
    assert saved.loc[saved["game_index"] < 2, "n_log"].isna().all()        # played before the hook was added
    assert len(df) == 2 * 3 * 3


# ------------------------------------------------------------------------------------------ summaries
def test_wilson_interval_known_values():
    # Reference values (e.g. statsmodels' proportion_confint(method="wilson")).
    assert wilson_interval(8, 10) == pytest.approx((0.4901625, 0.9433178), abs=1e-6)
    assert wilson_interval(5, 10) == pytest.approx((0.2365931, 0.7634069), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775328), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.7224672, 1.0), abs=1e-6)
    for k, n, conf in [(1, 3, 0.95), (37, 120, 0.9), (250, 1000, 0.99), (0, 1, 0.95)]:
        ci = binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
        assert wilson_interval(k, n, conf) == pytest.approx((ci.low, ci.high), abs=1e-9)
    low, high = wilson_interval(np.array([0, 2]), np.array([0, 4]))
    assert np.isnan(low[0]) and np.isnan(high[0]) and low[1] < 0.5 < high[1]
    with pytest.raises(HeimlichError):
        wilson_interval(5, 4)
    with pytest.raises(HeimlichError):
        wilson_interval(1, 4, confidence=95)


def test_win_rates_and_free_agent_rate_count_correctly():
    df = pd.DataFrame({
        "game_id": ["a"] * 3 + ["b"] * 3 + ["c"] * 3,
        "bot": ["x", "y", "y"] * 3, "seat": [1, 2, 3] * 3, "n_players": [3] * 9,
        "won": [True, False, False, False, True, True, False, False, False],
        "shared_win": [False, False, False, False, True, True, False, False, False],
        "free_agent_won": [False] * 6 + [True] * 3,
    })
    r = win_rates(df).set_index("bot")
    assert r.loc["x", ["games", "wins", "shared_wins"]].tolist() == [3, 1, 0]
    assert r.loc["y", ["games", "wins", "shared_wins"]].tolist() == [6, 2, 2]
    assert r.loc["y", "win_rate"] == pytest.approx(2 / 6) and r.loc["y", "fair_share"] == pytest.approx(1 / 3)
    assert (r.loc["y", "ci_low"], r.loc["y", "ci_high"]) == pytest.approx(wilson_interval(2, 6))
    by_seat = win_rates(df, by=("bot", "seat"))
    assert len(by_seat) == 3 and by_seat["games"].tolist() == [3, 3, 3]
    fa = free_agent_win_rate(df, by="n_players")
    assert fa[["games", "free_agent_wins"]].values.tolist() == [[3, 1]]
    assert fa.loc[0, "rate"] == pytest.approx(1 / 3)
    with pytest.raises(HeimlichError, match="no column"):
        win_rates(df, by="colour")


def test_win_rates_of_a_real_table(full):
    r = win_rates(full, by=("n_players", "seat"))
    assert r["games"].sum() == len(full) and r["wins"].sum() == full["won"].sum()
    assert ((r["ci_low"] <= r["win_rate"]) & (r["win_rate"] <= r["ci_high"])).all()
    fa = free_agent_win_rate(full, by=["n_players", "variant"])
    assert fa["games"].sum() == full["game_id"].nunique()
    assert fa["free_agent_wins"].sum() == full.drop_duplicates("game_id")["free_agent_won"].sum()


def test_plot_win_rates(full):
    ax = plot_win_rates(full, by=("n_players", "seat"), ax=Figure().subplots())
    rates = win_rates(full, by=("n_players", "seat"))
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx(rates["win_rate"].tolist())
    assert len(ax.get_xticklabels()) == len(rates) and ax.get_xticklabels()[0].get_text() == "3 / 1"
    # error bars: one line per bar, from ci_low to ci_high
    ebar = [c for c in ax.containers if hasattr(c, "lines") and c.lines[2]]
    assert ebar, "no error bars"
    segs = ebar[0].lines[2][0].get_segments()
    assert [s[0][1] for s in segs] == pytest.approx(rates["ci_low"].tolist())
    assert [s[1][1] for s in segs] == pytest.approx(rates["ci_high"].tolist())
    # fair-share ticks
    fair = [c for c in ax.collections if c.get_label() == "fair share"]
    assert fair and fair[0].get_offsets()[:, 1].tolist() == pytest.approx(rates["fair_share"].tolist())
    ax2 = plot_win_rates(rates, by=("n_players", "seat"), ax=Figure().subplots(), title="x")
    assert ax2.get_title() == "x" and len(ax2.patches) == len(rates)


# ------------------------------------------------------------------------------------------ progress and CLI
def test_progress_bar_is_shown(capsys, monkeypatch):
    made = []
    real = T.tqdm

    def spy(*a, **kw):
        bar = real(*a, **kw)
        made.append((bar, kw))
        return bar

    monkeypatch.setattr(T, "tqdm", spy)
    tournament(3, "basic", "random", games=4, seed=1)
    err = capsys.readouterr().err
    (bar, kw), = made
    assert bar.n == 4 and bar.total == 4 and kw["disable"] is False
    assert "tournament" in err and "4/4" in err
    tournament(3, "basic", "random", games=4, seed=1, progress=False)
    assert made[1][1]["disable"] is True and capsys.readouterr().err == ""


def test_progress_bar_is_tqdm_auto():
    """tqdm.auto picks the notebook widget in Jupyter and the text bar elsewhere."""
    import tqdm.auto
    assert T.tqdm is tqdm.auto.tqdm


def test_cli_tournament(tmp_path, capsys):
    out = tmp_path / "r.csv"
    rc = main(["tournament", "--players", "3,4", "--variants", "basic,top_secret", "--bots", "random|rotate:random",
               "--games", "2", "--seed", "3", "--out", str(out), "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "16 games, 56 player rows" in text and "Win rates" in text and "No player won" in text
    assert "rotate:random" in text and "fair_share" in text
    saved = load_results(out)
    expected = tournament((3, 4), ("basic", "top_secret"), ("random", "rotate:random"), games=2, seed=3,
                          progress=False)
    pd.testing.assert_frame_equal(saved, sort_like_file(expected))


@pytest.mark.parametrize("argv, match", [
    (["--bots", "random|nobody"], "unknown bot 'nobody'"),
    (["--variants", "advanced"], "unknown variant"),
    (["--players", "three"], "not a number of players"),
])
def test_cli_errors(capsys, argv, match):
    rc = main(["tournament", "--games", "1", "--no-progress", *argv])
    assert rc == 2 and match in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ Dask is optional
def test_missing_dask_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(HeimlichError, match=r"heimlich-lab\[dask\]"):
        tournament(2, "basic", "random", games=1, progress=False, scheduler="tcp://127.0.0.1:1")
    monkeypatch.setenv(T.SCHEDULER_ENV, "tcp://127.0.0.1:1")
    with pytest.raises(HeimlichError, match="Dask"):
        tournament(2, "basic", "random", games=1, progress=False)
    assert len(tournament(2, "basic", "random", games=1, progress=False, scheduler=False)) == 2


@pytest.mark.parametrize("error, expected", [
    (ImportError("Unable to find a usable engine; tried using: 'pyarrow', 'fastparquet'."), HeimlichError),
    (ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow"), HeimlichError),
    (ModuleNotFoundError("No module named 'pyarrow.lib'", name="pyarrow.lib"), ModuleNotFoundError),
])
def test_a_missing_parquet_engine_is_explained_and_a_broken_one_shown(monkeypatch, tmp_path, error, expected):
    def to_parquet(self, *args, **kwargs):
        raise error

    monkeypatch.setattr(pd.DataFrame, "to_parquet", to_parquet)
    with pytest.raises(expected) as info:
        tournament(2, "basic", "random", games=1, progress=False, out=tmp_path / "r.parquet")
    if expected is HeimlichError:
        assert "pip install pyarrow" in str(info.value) and ".csv" in str(info.value)
    # no half-written file left behind (the empty lock file that two runs writing one file share may stay)
    assert [p.name for p in tmp_path.iterdir() if p.name != ".r.parquet.lock"] == []


def test_a_broken_dask_is_not_reported_as_missing(monkeypatch):
    """Only Dask's own absence means "install the extra"; a module Dask needs that fails is shown as it is."""
    class BrokenDask:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "dask.distributed":
                raise ModuleNotFoundError("No module named 'tornado'", name="tornado")
            return None

    monkeypatch.delitem(sys.modules, "dask.distributed", raising=False)
    # Into the real list, not a copy: a module first imported meanwhile may add a finder of its own to
    # sys.meta_path (the importlib_metadata backport adds one and removes the standard library's), which a copy
    # would lose at the end, leaving every later metadata lookup (anywidget's version) empty.
    sys.meta_path.insert(0, BrokenDask)
    try:
        with pytest.raises(ModuleNotFoundError, match="tornado"):
            tournament(2, "basic", "random", games=1, progress=False, scheduler="tcp://127.0.0.1:1")
    finally:
        sys.meta_path.remove(BrokenDask)


# ------------------------------------------------------------------------------------------ benchmark (smoke)
def test_bench_tournament_runs_and_skips_missing_bots(monkeypatch, capsys):
    bench = importlib.import_module("heimlich_lab.benchmarks.tournament")
    monkeypatch.setattr(bench, "BOT_NAMES", ("random", "no-such-bot"))
    monkeypatch.setattr(bench, "PLAYER_COUNTS", (3,))
    figures = bench.bench_tournament(quick=True)
    assert "'no-such-bot' is not registered yet: skipped" in capsys.readouterr().out
    labels = [label for label, _, _ in figures]
    assert "random bots, 3 players, basic" in labels and "random bots, 3 players, top_secret" in labels
    assert not any("no-such-bot" in x for x in labels)
    assert "tournament speed-up, 2 processes vs 1" in labels
    assert all(value > 0 for _, value, _ in figures[1:])
    from heimlich_lab.commands.bench import BENCHMARKS
    assert "tournament" in BENCHMARKS


def test_ctrl_c_during_a_write_waits_for_the_write(tmp_path):
    import os
    import signal
    path = tmp_path / "r.csv"
    sink = ResultSink(path, flush_every=3600)
    sink.add(play_task(game_tasks(3, "basic", "random", 1, 0)[0], None))
    real_write = sink._write

    def write_with_interrupt():
        os.kill(os.getpid(), signal.SIGINT)      # Ctrl-C arrives in the middle of the write
        real_write()

    sink._write = write_with_interrupt
    # Python's own Ctrl-C handler, as in a terminal (a shell's background job starts with SIGINT ignored)
    outside = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            sink.flush()
        assert load_results(path)["game_id"].nunique() == 1     # the write finished first
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler     # the handler is put back
    finally:
        signal.signal(signal.SIGINT, outside)


# ------------------------------------------------------------------------------------------ built-in belief evaluation
BELIEF_COLUMNS = ["belief_accuracy", "belief_actual_correct", "belief_at_mark", "belief_brier",
                  "belief_expected_correct", "belief_log_loss"]


@pytest.fixture(scope="module")
def with_beliefs():
    return tournament(4, "basic", "boltzmann", games=3, seed=5, progress=False, evaluate="beliefs")


def test_belief_evaluation_columns_and_same_games(with_beliefs):
    df = with_beliefs
    assert list(df.columns) == list(T.COLUMNS) + BELIEF_COLUMNS
    plain = tournament(4, "basic", "boltzmann", games=3, seed=5, progress=False)
    pd.testing.assert_frame_equal(df[list(T.COLUMNS)], plain)   # sharing the utility cache changes no game
    assert df["belief_log_loss"].notna().all() and (df["belief_log_loss"] >= 0).all()
    assert df["belief_brier"].between(0, 2).all() and df["belief_accuracy"].between(0, 1).all()


def test_belief_evaluation_matches_a_direct_computation(with_beliefs):
    from heimlich_lab.inference.belief import BeliefSet
    from heimlich_lab.inference.metrics import accuracy, brier_score, log_loss, truth_table
    from heimlich_lab.inference.likelihoods import default_model   # the evaluator's default model

    row = with_beliefs.iloc[5]                        # game 1, P2
    s, bot_seeds = game_seeds(5, 1, 4)
    players = ["P1", "P2", "P3", "P4"]
    g = play_game(Rules(), {p: make_bot("boltzmann", seed=b) for p, b in zip(players, bot_seeds)}, seed=s)
    assert (row["game_index"], row["player"]) == (1, "P2") and row["seed"] == s
    bs = BeliefSet.from_record(g.record, model=default_model(), until="dossier")
    m = bs["P2"].marginals_array()
    agents = list(bs.agents)
    owners = bs.truth
    t = truth_table(players, agents, owners)
    mask = np.array([a not in owners["P2"] for a in agents])
    assert row["belief_log_loss"] == pytest.approx(log_loss(m, t, mask))
    assert row["belief_brier"] == pytest.approx(brier_score(m, t, mask))
    assert row["belief_accuracy"] == pytest.approx(accuracy(m, t, mask))
    rows = [i for i, p in enumerate(players) if p != "P2"] + [len(players)]
    names = [*players, "free"]
    mm = m / m.sum(axis=0, keepdims=True)
    sheet = {a: names[rows[int(np.argmax(mm[rows, j]))]] for j, a in enumerate(agents) if mask[j]}
    owner_of = {c: p for p, cs in owners.items() for c in cs}
    assert row["belief_actual_correct"] == sum(owner_of.get(a, "free") == w for a, w in sheet.items())
    assert row["belief_expected_correct"] == pytest.approx(
        sum(mm[names.index(w), agents.index(a)] for a, w in sheet.items()))
    assert bool(row["belief_at_mark"]) == bs.at_mark


def test_unknown_named_evaluator_is_explained():
    with pytest.raises(HeimlichError, match="named evaluators are"):
        tournament(2, "basic", "random", games=1, progress=False, evaluate="belifs")


def test_cli_tournament_evaluate_beliefs(capsys):
    assert main(["tournament", "--players", "3", "--bots", "boltzmann", "--games", "2", "--no-progress",
                 "--evaluate", "beliefs"]) == 0
    out = capsys.readouterr().out
    assert "Exact beliefs at the dossier mark" in out and "belief_log_loss" in out


def test_bench_target_prints_its_figures():
    bt = importlib.import_module("heimlich_lab.benchmarks.tournament")
    figures = {label: value for label, value, _ in bt.bench_target(games=6)}
    for model in ("BoltzmannModel()", "default model"):     # the earlier releases' model, and today's default
        tag = f"target ({model})"
        wall2 = figures[f"{tag}: 2 processes, wall time for 6 games"]
        assert figures[f"{tag}: 10,000 games on 2 processes, extrapolated (goal < 60 s)"] == \
            pytest.approx(wall2 * 10_000 / 6)
        assert figures[f"{tag}: 1 process, 6 games with beliefs, games per CPU-second"] > 0
        assert figures[f"{tag}: speed-up 1 -> 2 processes (wall)"] == pytest.approx(
            figures[f"{tag}: 1 process, wall time for 6 games"] / wall2)


def test_belief_scores_equal_score_belief(with_beliefs):
    """The evaluator's fast scoring is score_belief's arithmetic (every game, every player)."""
    from heimlich_lab.inference.belief import BeliefSet
    from heimlich_lab.inference.likelihoods import default_model   # the evaluator's default model
    from heimlich_lab.inference.metrics import score_belief

    players = ["P1", "P2", "P3", "P4"]
    for k in range(3):
        s, bot_seeds = game_seeds(5, k, 4)
        g = play_game(Rules(), {p: make_bot("boltzmann", seed=b) for p, b in zip(players, bot_seeds)}, seed=s)
        bs = BeliefSet.from_record(g.record, model=default_model(), until="dossier")
        for p in players:
            ref = score_belief(bs[p].marginals_array(), players, list(bs.agents), bs.truth, observer=p,
                               own_agents=list(bs.truth[p]))
            row = with_beliefs[(with_beliefs["game_index"] == k) & (with_beliefs["player"] == p)].iloc[0]
            for name, v in ref.items():
                assert row[f"belief_{name}"] == pytest.approx(v, rel=1e-12, abs=1e-12), (k, p, name)


def test_a_seats_fair_share_follows_the_games_registry_entry():
    # Secrets is won by teams (no seat's share); Top Secret (1985) by one player, like Heimlich & Co.
    df = pd.DataFrame({"bot": ["a", "b", "a", "b"], "won": [True, False, True, True],
                       "n_players": [2, 2, 4, 4], "game": ["topsecret1985", "topsecret1985", "secrets", "secrets"]})
    rates = win_rates(df, by=("game", "bot")).set_index(["game", "bot"])["fair_share"]
    assert rates.loc[("topsecret1985", "a")] == 0.5 and rates.loc[("topsecret1985", "b")] == 0.5
    assert rates.loc[("secrets", "a")] != rates.loc[("secrets", "a")]      # NaN
