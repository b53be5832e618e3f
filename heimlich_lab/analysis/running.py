"""Running a tournament's games: one game to table rows, and the executors (this process, joblib
worker processes, a Dask cluster).

Every executor yields the rows of finished games as they come in; the games, and so the rows, are
the same whichever executor played them (each game's seeds come from its place in the grid).
"""
from __future__ import annotations

import gc
import math
import os
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from ..bots.registry import make_bot
from ..engine.play import play_game
from ..engine.registry import game_spec
from ..errors import HeimlichError
from .grid import GameTask, game_seeds
from .storage import columns_of

#: Environment variable naming a Dask scheduler address (used when ``scheduler`` is not given).
SCHEDULER_ENV = "HEIMLICH_DASK_SCHEDULER"


#: Games a unit of work plays before it evaluates them, when its evaluator watches each game as it is played
#: (``evaluate.watch_game``); one with ``evaluate_games`` then reads them together. Reading a game's beliefs between
#: two games slowed the next game's play by 5-9% (what it leaves in the caches), and the array passes that read a
#: game's decisions cost about 0.2 ms a call whatever their size: a few games at a time pay both once. 2, 3 and 5
#: read alike; 8 gained little with two processes (8 games' arrays no longer fit in the caches)
#: (BENCHMARKS.md, issue 26, tenth session). Few enough that their utility tables are still in the shared cache.
READ_AFTER = 3


def play_task(task: GameTask, evaluate: Callable | None) -> list[dict]:
    """Play one game of the grid and return its table rows, one per player (columns: the game's table
    columns, its spec's ``TournamentSpec.columns``, then the metrics of ``evaluate(record)``, if given)."""
    return _evaluated(*_played(task, evaluate), evaluate)


def _played(task: GameTask, evaluate: Callable | None) -> tuple[Any, Any, list[dict]]:
    """:func:`play_task` up to the evaluation: ``(spec, the finished game, its rows without metrics)``."""
    spec = game_spec(task.game)
    n = task.n_players
    game_seed, bot_seeds = game_seeds(task.root_seed, task.game_index, n)
    players = [f"P{s + 1}" for s in range(n)]
    extra = dict(task.extra_bots)
    lineup = {p: extra[b](seed=bs) if b in extra else make_bot(b, seed=bs, game=spec.name)
              for p, b, bs in zip(players, task.seat_bots, bot_seeds)}
    before = getattr(evaluate, "before_game", None)
    if before is not None:  # e.g. BeliefEvaluator: bots share the model's utility cache (same games)
        before(lineup)
    common = {"game_id": task.game_id, "root_seed": task.root_seed, "game_index": task.game_index,
              "seed": game_seed, "n_players": n, "variant": task.variant, "lineup": task.lineup}
    # an evaluator that reads the game as it is played (instead of replaying its record) watches it
    watch_game = getattr(evaluate, "watch_game", None)
    watch = watch_game() if callable(watch_game) else None
    try:
        g = play_game(spec.load("game"), lineup, seed=game_seed, rules=task.rules, watch=watch)
        rows = spec.load("tournament").rows(g, task.rules, common)
    finally:
        for bot in lineup.values():     # a bot in its own process hands its worker back for the next game
            if callable(getattr(bot, "close", None)):
                bot.close()
    for s, row in enumerate(rows):
        row.update(seat=s + 1, player=players[s], bot=task.seat_bots[s], bot_seed=bot_seeds[s])
        if extra:   # docs/rules.md#bots-out-of-process: a bot's faults (a decision taken by the fallback)
            faults = getattr(lineup[players[s]], "faults", None) or []
            row.update(bot_faults=len(faults), bot_fault=str(faults[0]) if faults else "")
    return spec, g, rows


def _evaluated(spec, g, rows: list[dict], evaluate: Callable | None) -> list[dict]:
    """The rows of a game :func:`_played`, with ``evaluate``'s metrics."""
    if evaluate is None:
        return rows
    # an evaluator that reads the finished game itself (one that watched it: no record to make) says so
    of_game = getattr(evaluate, "evaluate_game", None)
    return _with_metrics(spec, rows, of_game(g) if callable(of_game) else evaluate(g.record))


def _with_metrics(spec, rows: list[dict], metrics) -> list[dict]:
    """``rows`` with an evaluator's ``metrics`` of their game (checked)."""
    if not isinstance(metrics, Mapping):
        raise HeimlichError(f"evaluate(record) must return a dict of metrics, not {type(metrics).__name__}")
    clash = set(metrics) & set(columns_of(spec.name))
    if clash:
        raise HeimlichError(f"evaluate returned metric(s) named like table columns: {sorted(clash)}")
    # (whether each metric is by player, asked once per metric, not once per row)
    columns = [(str(k), v, isinstance(v, Mapping)) for k, v in metrics.items()]
    for row in rows:
        player = row["player"]
        for k, v, by_player in columns:
            row[k] = v.get(player, np.nan) if by_player else v
    return rows


@contextmanager
def _old_objects_left_out():
    """While a unit of work runs, the objects that were there before it (modules, caches: a hundred thousand and
    more) are left out of the cyclic garbage collector's passes (``gc.freeze``), and put back after it
    (``gc.unfreeze``): each full pass then reads the unit's own objects only, where it read every object of the
    process (about 30 ms a pass, one every few hundred games) (BENCHMARKS.md, issue 26, eleventh session).
    Nothing is left frozen; a process that froze objects itself is left as it is (so is one whose other thread runs a
    unit: a Dask worker's, which then runs unfrozen once the first unit puts the objects back)."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _play_chunk(tasks: Sequence[GameTask], evaluate: Callable | None) -> list[dict]:
    """Play a few games (one unit of work for a worker process or a Dask worker): with an evaluator that watches
    games as they are played, :data:`READ_AFTER` games at a time, then their evaluations."""
    with _old_objects_left_out():
        return _play_games(tasks, evaluate)


def _play_games(tasks: Sequence[GameTask], evaluate: Callable | None) -> list[dict]:
    """:func:`_play_chunk`'s games."""
    rows = []
    step = READ_AFTER if callable(getattr(evaluate, "watch_game", None)) else 1
    together = getattr(evaluate, "evaluate_games", None)
    for i in range(0, len(tasks), step):
        played = [_played(t, evaluate) for t in tasks[i:i + step]]
        if callable(together) and len(played) > 1:
            every = list(together([g for _, g, _ in played]))
            if len(every) != len(played):
                raise HeimlichError(f"evaluate_games(games) must return one dict of metrics per game: {len(every)} "
                                    f"for {len(played)} games")
            for (spec, _, game_rows), metrics in zip(played, every):
                rows.extend(_with_metrics(spec, game_rows, metrics))
        else:
            for p in played:
                rows.extend(_evaluated(*p, evaluate))
    return rows


def _dask_client(scheduler):
    """(client, created_here) for a scheduler address or an existing ``distributed.Client``."""
    if not isinstance(scheduler, str):
        return scheduler, False
    try:
        from dask.distributed import Client
    except ModuleNotFoundError as e:
        if e.name not in ("dask", "distributed", "dask.distributed"):  # Dask is there, but broken: show why
            raise
        raise HeimlichError("running on a Dask cluster needs Dask: pip install 'heimlich-lab[dask]' "
                            "(or leave out scheduler= and HEIMLICH_DASK_SCHEDULER to use local processes)") from None
    try:
        return Client(scheduler, timeout="20s"), True
    except OSError as e:
        raise HeimlichError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None


def _run_dask(chunks, evaluate, scheduler) -> Iterator[list[dict]]:
    client, created = _dask_client(scheduler)
    from dask.distributed import as_completed
    futures = [client.submit(_play_chunk, c, evaluate, pure=False) for c in chunks]
    try:
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.cancel([f for f in futures if not f.done()])
        if created:
            client.close()


def _run_joblib(chunks, evaluate, n_jobs) -> Iterator[list[dict]]:
    from joblib import Parallel, delayed
    jobs = (delayed(_play_chunk)(c, evaluate) for c in chunks)
    try:
        gen = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(jobs)
    except ValueError:  # joblib < 1.4
        gen = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    try:
        yield from gen
    finally:
        gen.close()


def _n_workers(n_jobs: int) -> int:
    if n_jobs is None:
        return 1
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return max(1, n_jobs)


def run_games(tasks: Sequence[GameTask], evaluate: Callable | None, n_jobs: int = 1, scheduler=None,
              chunk_size: int | None = None) -> Iterator[list[dict]]:
    """The rows of the games ``tasks``, one list per finished unit of work, in the order they finish.

    ``scheduler`` (a Dask address or client; ``None``: ``$HEIMLICH_DASK_SCHEDULER`` if set; ``False``:
    local) runs them on a Dask cluster; otherwise ``n_jobs == 1`` plays them here one game at a time
    (an interruption loses at most one game; with an evaluator that watches games as they are played,
    :data:`READ_AFTER` games at a time) and ``n_jobs > 1`` in joblib worker processes. Close the iterator
    to stop early.
    """
    if scheduler is None:
        scheduler = os.environ.get(SCHEDULER_ENV) or None
    if scheduler is False or scheduler == "":
        scheduler = None
    workers = _n_workers(n_jobs) if scheduler is None else 8
    if chunk_size is None:
        chunk_size = max(1, min(50, math.ceil(len(tasks) / (workers * 8)))) if workers > 1 else 10
    chunks = [tasks[i:i + chunk_size] for i in range(0, len(tasks), chunk_size)]
    if not chunks:
        return iter(())
    if scheduler is not None:
        return _run_dask(chunks, evaluate, scheduler)
    if workers == 1:
        if callable(getattr(evaluate, "watch_game", None)):
            return (_play_chunk(tasks[i:i + READ_AFTER], evaluate) for i in range(0, len(tasks), READ_AFTER))
        return (play_task(t, evaluate) for t in tasks)
    return _run_joblib(chunks, evaluate, n_jobs)
