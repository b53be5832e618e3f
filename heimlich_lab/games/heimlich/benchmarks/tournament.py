"""Tournament benchmarks (``heimlich-lab bench --only tournament,target``; figures are printed, never asserted).

* complete games per second of CPU time (one core, so the figure does not depend on what else
  the machine is doing) for the random, greedy and boltzmann bots at 3, 5 and 7 players, basic
  and Top Secret (a bot that is not registered yet is skipped, with a note);
* a tournament's throughput on one and on two worker processes, and the speed-up (best of
  three interleaved runs), with the CPU time per 1000 games over all processes (needs psutil,
  which comes with Dask): on a busy machine the wall-clock speed-up says little, the CPU time
  shows what parallel running costs;
* the load average when the benchmark started, to read the figures by;
* peak memory of a tournament run in this process (tracemalloc), and the process's peak RSS.
"""
from __future__ import annotations

import os
import time

from ....analysis import BeliefEvaluator, tournament
from ....analysis.grid import game_tasks
from ....analysis.running import play_task
from ....bots.registry import make_bot
from ....errors import HeimlichError

BOT_NAMES = ("random", "greedy", "boltzmann")
PLAYER_COUNTS = (3, 5, 7)
VARIANTS = ("basic", "top_secret")


def _games_per_second(bot: str, n: int, variant: str, budget: float, min_games: int) -> float:
    tasks = game_tasks((n,), (variant,), (bot,), games=100_000, seed=0)
    played = 0
    t0 = time.process_time()
    for task in tasks:
        play_task(task, None)
        played += 1
        if played >= min_games and time.process_time() - t0 >= budget:
            break
    return played / (time.process_time() - t0)


def _registered(name: str) -> bool:
    try:
        make_bot(name, seed=0)
    except HeimlichError:
        return False
    return True


def _cpu_seconds() -> float | None:
    """CPU time of this process and its children (the worker processes), or None without psutil."""
    try:
        import psutil
    except ModuleNotFoundError as e:
        if e.name != "psutil":
            raise
        return None
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def bench_tournament(quick: bool = False) -> list[tuple[str, float, str]]:
    """The figures, as ``(label, value, unit)``."""
    import resource
    import tracemalloc

    out: list[tuple[str, float, str]] = [("load average (1 min) when the benchmark started", os.getloadavg()[0],
                                          f"on {os.cpu_count()} cores")]
    budget, min_games = (0.3, 5) if quick else (2.0, 20)
    for bot in BOT_NAMES:
        if not _registered(bot):
            print(f"{'tournament':>10}  bot {bot!r} is not registered yet: skipped")
            continue
        for variant in VARIANTS:
            for n in PLAYER_COUNTS:
                gps = _games_per_second(bot, n, variant, budget, min_games)
                out.append((f"{bot} bots, {n} players, {variant}", gps, "games/CPU-s"))

    # Throughput of one tournament grid on 1 and 2 local processes (best of a few interleaved runs,
    # since other programs on a small machine disturb single runs).
    grid = dict(player_counts=(3, 5), variants=("basic", "top_secret"), bots=("random",), progress=False)
    games, repeats = (50, 1) if quick else (250, 3)
    tournament(**grid, games=10, n_jobs=2)  # start the worker processes (not timed)
    rates = {1: 0.0, 2: 0.0}
    cpu = {1: float("inf"), 2: float("inf")}
    for _ in range(repeats):
        for jobs in (1, 2):
            c0 = _cpu_seconds()
            t0 = time.perf_counter()
            df = tournament(**grid, games=games, n_jobs=jobs)
            n = df["game_id"].nunique()
            rates[jobs] = max(rates[jobs], n / (time.perf_counter() - t0))
            if c0 is not None:
                cpu[jobs] = min(cpu[jobs], (_cpu_seconds() - c0) / n * 1000)
    for jobs in (1, 2):
        out.append((f"tournament 3+5 players x basic+top_secret, {jobs} process{'es' if jobs > 1 else ''}",
                    rates[jobs], "games/s"))
    out.append(("tournament speed-up, 2 processes vs 1", rates[2] / rates[1], "x"))
    if cpu[1] < float("inf"):  # CPU time does not depend on what else the machine is doing
        for jobs in (1, 2):
            out.append((f"CPU time per 1000 games, {jobs} process{'es' if jobs > 1 else ''} (all processes)",
                        cpu[jobs], "s"))

    # Peak memory of an in-process tournament.
    tracemalloc.start()
    tournament(**grid, games=games // 2, n_jobs=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out.append((f"tournament peak traced memory ({4 * (games // 2)} games, in process)", peak / 2**20, "MiB"))
    out.append(("peak resident memory of this process so far", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                / 1024, "MiB"))
    return out


def bench_target(quick: bool = False, games: int | None = None) -> list[tuple[str, float, str]]:
    """Issue 6's target: 10,000 complete 5-player basic games, Boltzmann bots, every player's exact
    belief (a BeliefSet over the whole game), in under 60 s on 2 cores.

    Plays through :func:`tournament` (the joblib path for 2 processes) with a
    :class:`~heimlich_lab.analysis.beliefs.BeliefEvaluator` (``until=None``: every decision of the
    game), on 1 and on 2 processes, once with the single ``BoltzmannModel()`` (the figure earlier
    releases measured) and once with the kit's default model (the robust mixture over player types);
    prints games per CPU-second (all processes), wall times and the time 10,000 games would take on 2
    processes, extrapolated from the measured wall rate. ``quick`` plays 200 games per run instead of 1000.
    """
    from ..inference.model import BoltzmannModel

    n = games or (200 if quick else 1000)
    out: list[tuple[str, float, str]] = [("load average (1 min) when the benchmark started", os.getloadavg()[0],
                                          f"on {os.cpu_count()} cores")]
    for name, model in (("BoltzmannModel()", BoltzmannModel()), ("default model", None)):
        ev = BeliefEvaluator(model=model, until=None)
        grid = dict(player_counts=5, variants="basic", bots="boltzmann", progress=False, evaluate=ev)
        tournament(**grid, games=4, seed=0, n_jobs=2)  # start the worker processes (not timed)
        wall, cpu = {}, {}
        for jobs in (1, 2):
            c0, p0 = _cpu_seconds(), time.process_time()
            t0 = time.perf_counter()
            df = tournament(**grid, games=n, seed=1, n_jobs=jobs)
            wall[jobs] = time.perf_counter() - t0
            c = _cpu_seconds()
            cpu[jobs] = (c - c0) if c0 is not None else (time.process_time() - p0 if jobs == 1 else float("nan"))
            if df["game_id"].nunique() != n:
                raise RuntimeError(f"the benchmark asked for {n} games and got {df['game_id'].nunique()}")
        tag = f"target ({name})"
        out.append((f"{tag}: 1 process, {n} games with beliefs, games per CPU-second", n / cpu[1], "games/CPU-s"))
        out.append((f"{tag}: 2 processes, {n} games with beliefs, games per CPU-second", n / cpu[2], "games/CPU-s"))
        out.append((f"{tag}: 1 process, wall time for {n} games", wall[1], "s"))
        out.append((f"{tag}: 2 processes, wall time for {n} games", wall[2], "s"))
        out.append((f"{tag}: speed-up 1 -> 2 processes (wall)", wall[1] / wall[2], "x"))
        out.append((f"{tag}: 10,000 games on 2 processes, extrapolated (goal < 60 s)", wall[2] * 10_000 / n, "s"))
        out.append((f"{tag}: 10,000 games at 1-process CPU rate x 2 cores", 10_000 / (2 * n / cpu[1]), "s"))
    return out
