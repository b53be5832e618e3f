"""Issue 26's belief figures for two trees, side by side in one run (``heimlich-lab bench --only limits``'s).

    python scripts/belief_limits_side_by_side.py BEFORE_TREE AFTER_TREE [--rounds 2] [--quick] [--only board|topsecret]

Each round runs this tree's ``heimlich_lab/games/heimlich/benchmarks/limits.py`` (public entry points only, so
it times an older tree too) in a fresh process per tree, with ``PYTHONPATH`` set to that tree, the order of the
trees alternating from round to round. Printed per figure: each tree's median over the rounds, after/before,
each tree's range over the rounds, and after/before in each round. ``--only board`` times only the board
bot-step (the other figures cost most of the CPU).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

LIMITS = Path(__file__).resolve().parents[1] / "heimlich_lab" / "games" / "heimlich" / "benchmarks" / "limits.py"


def run(tree: str, quick: bool, only: str = "limits") -> dict[str, tuple[float, str]]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, str(LIMITS), *(["--quick"] if quick else []), "--only", only], env=env,
                         cwd="/tmp", capture_output=True, text=True, check=True).stdout
    figures = {}
    for line in out.splitlines():
        parts = line.split(" | ")
        if len(parts) == 3:
            figures[parts[0].strip()] = (float(parts[1]), parts[2].strip())
    return figures


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", choices=("limits", "board", "topsecret"), default="limits",
                    help="every figure (limits), the board bot-step alone (board) or the 7-player games with Top "
                         "Secret cards (topsecret: the evaluator's path and Belief.from_record per decision)")
    a = ap.parse_args(argv)
    got: dict[str, list[dict]] = {"before": [], "after": []}
    for r in range(a.rounds):
        order = [("before", a.before), ("after", a.after)]
        for name, tree in (order if r % 2 == 0 else order[::-1]):
            got[name].append(run(tree, a.quick, a.only))
    labels = list(got["after"][0])
    print(f"{'figure':<80} {'before':>10} {'after':>10} {'after/before':>12}   unit   (range over the rounds: "
          "before; after)")
    for label in labels:
        bs = [f[label][0] for f in got["before"] if label in f]
        xs = [f[label][0] for f in got["after"]]
        if not bs:      # a figure the older tree's run does not print
            continue
        b, x = statistics.median(bs), statistics.median(xs)
        print(f"{label:<80} {b:10.3f} {x:10.3f} {x / b:12.2f}   {got['after'][0][label][1]}   "
              f"({min(bs):.3f}-{max(bs):.3f}; {min(xs):.3f}-{max(xs):.3f})")
        if len(bs) == len(xs) > 1:      # each round's pair was timed back to back
            print(f"{'  after/before in each round':<80} " + ", ".join(f"{x_ / b_:.2f}" for b_, x_ in zip(bs, xs)))


if __name__ == "__main__":
    main()
