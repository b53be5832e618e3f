"""A tournament on a real Dask cluster (a scheduler and two worker processes on 127.0.0.1)
gives exactly the table of a local run with the same seed."""
from __future__ import annotations

import importlib

import pandas as pd
import pytest

import distributed  # noqa: F401  (the [dask] extra is installed by `make test`: missing must fail, not skip)

from heimlich_lab.analysis import load_results, tournament  # noqa: E402

T = importlib.import_module("heimlich_lab.analysis.tournament")

GRID = dict(player_counts=(3, 4), variants=("basic", "both"), bots=("random", "rotate:random"), games=5, seed=21,
            progress=False)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as c:
        assert c.scheduler_address.startswith("tcp://127.0.0.1:")
        yield c


@pytest.fixture(scope="module")
def local():
    return tournament(**GRID)


def per_game_lengths(record):
    return {"n_log": len(record.log), "deal_seen": {p: 1.0 for p in record.players}}


def test_dask_run_equals_local_run(cluster, local):
    df = tournament(**GRID, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(df, local)
    with distributed.Client(cluster.scheduler_address) as client:
        workers = client.scheduler_info()["workers"]
        assert len(workers) == 2 and all(addr.startswith("tcp://127.0.0.1:") for addr in workers)


def test_dask_from_environment_variable_with_evaluate_and_resume(cluster, local, monkeypatch, tmp_path):
    monkeypatch.setenv(T.SCHEDULER_ENV, cluster.scheduler_address)
    out = tmp_path / "dask.parquet"
    tournament(**{**GRID, "games": 2}, out=out, evaluate=per_game_lengths)
    df = tournament(**GRID, out=out, evaluate=per_game_lengths)      # resumes: games 2..4 only
    pd.testing.assert_frame_equal(df.drop(columns=["deal_seen", "n_log"]), local)
    assert (df["n_log"] == df["n_actions"]).all() and (df["deal_seen"] == 1.0).all()
    assert load_results(out)["game_id"].nunique() == local["game_id"].nunique()


def test_existing_client_is_accepted_and_left_open(cluster, local):
    with distributed.Client(cluster.scheduler_address) as client:
        df = tournament(**GRID, scheduler=client)
        assert client.status == "running"
    pd.testing.assert_frame_equal(df, local)


def test_dask_plays_secrets_like_a_local_run(cluster):
    grid = dict(player_counts=(4, 8), bots="rotate:team,bluff,random", games=3, seed=5, game="secrets",
                progress=False, evaluate="beliefs")
    pd.testing.assert_frame_equal(tournament(**grid, scheduler=cluster.scheduler_address), tournament(**grid))
