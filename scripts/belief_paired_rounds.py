"""Issue 26's first target in paired rounds: 5-player basic Boltzmann games without beliefs, then the same games
with every player's belief (default model, whole game), round by round, so that both halves of a ratio run close
together in time on a shared machine.

    PYTHONPATH=TREE HEIMLICH_NUMPY_ONLY=1 python scripts/belief_paired_rounds.py [LABEL] [--rounds 10] [--games 50]

Round ``r`` plays ``games`` games from seed ``r`` twice (utility caches cold each time). Each half is one
``tournament()`` call, which costs about 40 CPU-ms besides its games (its table, in both halves): with few games
per call that fixed cost pulls the ratio towards 1 (until 2026-11-26 this ran 5 games per call: main read about
1.47 that way, 1.64-1.68 with 50 games per call, 1.54-2.10 in real runs of 2,000 and 10,000 games), so a round plays
50 games by default. Printed: the least time of each half (CPU-ms per game) and the median and lower quartile of
the per-round ratios. Run it in alternation on two trees (fresh processes) to compare them.
"""
from __future__ import annotations

import argparse
import statistics
import time

from heimlich_lab.analysis import tournament
from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
from heimlich_lab.games.heimlich.inference.utility import Utility


def _at_least_one(text: str) -> int:
    """An argument that counts something: a whole number, 1 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("label", nargs="?", default="this tree")
    ap.add_argument("--rounds", type=_at_least_one, default=10)
    ap.add_argument("--games", type=_at_least_one, default=50)
    a = ap.parse_args(argv)
    grid = dict(player_counts=5, variants="basic", bots="boltzmann", progress=False, n_jobs=1)
    tournament(**grid, seed=1, games=2, evaluate=BeliefEvaluator(until=None))      # imports (not timed)
    without, with_b = [], []
    for r in range(a.rounds):
        for out, kw in ((without, {}), (with_b, {"evaluate": BeliefEvaluator(until=None)})):
            Utility.clear_shared()
            t0 = time.process_time()
            tournament(**grid, seed=r, games=a.games, **kw)
            out.append((time.process_time() - t0) / a.games * 1e3)
    ratios = sorted(w / b for w, b in zip(with_b, without))
    print(f"{a.label}: bots only {min(without):.1f}, with every belief {min(with_b):.1f} CPU-ms/game (least); "
          f"per-round ratio median {statistics.median(ratios):.2f}, lower quartile {ratios[len(ratios) // 4]:.2f}")


if __name__ == "__main__":
    main()
