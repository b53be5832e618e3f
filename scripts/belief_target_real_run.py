"""Issue 26's first target as the issue states it: the 10,000-game run (5-player basic games, five BoltzmannBots,
2 processes) without beliefs, then with every player's belief under the default model (whole game), and the
ratio of their costs.

    PYTHONPATH=TREE HEIMLICH_NUMPY_ONLY=1 python scripts/belief_target_real_run.py [--games 10000] [--jobs 2] \\
        [--pairs 1] [--blocks 1]

With numba installed (the ``fast`` extra) and without ``HEIMLICH_NUMPY_ONLY=1``, the beliefs run the compiled
kernels (``heimlich_lab/games/heimlich/inference/kernels.py``); with the flag, the array code.

Each pair runs the bots-only games, then the same games with beliefs, in fresh worker processes (joblib's loky,
as ``tournament(n_jobs=2)`` runs them). The workers are started first (a few games, not timed).
Printed per pair: wall-clock seconds of each half and their ratio, CPU seconds of this process and its
worker processes together and their ratio, and the workers' alone.
Both halves play the same games (the same seed), so the bots' share is the same work.

``--blocks K`` plays each pair's games in K blocks (seeds ``seed``, ``seed + 1``, ...), each block bots only and
with beliefs side by side, the order swapped from one block to the next (BE EB BE ...): a shared machine's speed
drifts by 10-15% over minutes, and one half after the other puts that drift into the ratio. The ratio is then of
the halves' sums.
"""
from __future__ import annotations

import argparse
import time

import psutil  # (installed with Jupyter)
from belief_paired_rounds import _at_least_one  # (this folder: scripts/ is on the path of a script run)

from heimlich_lab.analysis import tournament
from heimlich_lab.games.heimlich.analysis import BeliefEvaluator


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its live worker processes (joblib's loky workers stay up between runs)."""
    me = psutil.Process()
    total = 0.0
    for child in me.children(recursive=True):
        try:
            t = child.cpu_times()
        except psutil.Error:        # a worker that ended meanwhile
            continue
        total += t.user + t.system
    return time.process_time(), total


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=_at_least_one, default=10_000)
    ap.add_argument("--jobs", type=_at_least_one, default=2)
    ap.add_argument("--pairs", type=_at_least_one, default=1)
    ap.add_argument("--blocks", type=_at_least_one, default=1)
    ap.add_argument("--seed", type=int, default=2)
    a = ap.parse_args(argv)
    if a.games % a.blocks:
        ap.error(f"--games ({a.games}) must be a multiple of --blocks ({a.blocks})")
    grid = dict(player_counts=5, variants="basic", bots="boltzmann", progress=False, n_jobs=a.jobs,
                games=a.games // a.blocks)
    from heimlich_lab.games.heimlich.inference import kernels
    print("the likelihoods: " + ("the compiled kernels (numba)" if kernels.in_use() else "the array code (numpy)"))
    tournament(**{**grid, "games": 2 * a.jobs}, seed=a.seed, evaluate=BeliefEvaluator(until=None))  # the workers
    for pair in range(a.pairs):
        sums = [[0.0, 0.0, 0.0, 0], [0.0, 0.0, 0.0, 0]]     # bots only, with beliefs: wall, CPU here, workers', rows
        for block in range(a.blocks):
            halves = [0, 1] if block % 2 == 0 else [1, 0]
            for half in halves:
                kw = {"evaluate": BeliefEvaluator(until=None)} if half else {}
                c0, t0 = _cpu(), time.perf_counter()
                df = tournament(**grid, seed=a.seed + block, **kw)
                c1 = _cpu()
                for i, v in enumerate((time.perf_counter() - t0, c1[0] - c0[0], c1[1] - c0[1], len(df))):
                    sums[half][i] += v
        (wb, pb, cb, n), (we, pe, ce, _) = sums
        cpu_b, cpu_e = pb + cb, pe + ce
        workers = f", of which the workers' {cb:.1f} s and {ce:.1f} s (ratio {ce / cb:.2f})" if cb > 0 else \
            " (in this process)"
        blocks = f" in {a.blocks} alternated blocks" if a.blocks > 1 else ""
        print(f"pair {pair + 1}: {a.games} games{blocks} ({n} rows), bots only {wb:.1f} s, with every belief "
              f"{we:.1f} s wall (ratio {we / wb:.2f}); CPU {cpu_b:.1f} s and {cpu_e:.1f} s "
              f"(ratio {cpu_e / cpu_b:.2f}){workers}",
              flush=True)


if __name__ == "__main__":
    main()
