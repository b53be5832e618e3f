"""The belief evaluator's own CPU per game on two trees, in alternating rounds (issue 26 item 3's bookkeeping).

    HEIMLICH_NUMPY_ONLY=1 python scripts/evaluator_ab_rounds.py TREE_A TREE_B [--rounds 8] [--games 15] [--bookkeeping]

One worker process per tree (its ``PYTHONPATH``); round ``r`` has each worker play the same ``games`` 5-player basic
Boltzmann games from seed ``r`` with the evaluator watching (not timed), then time the evaluator's reading of each
(``evaluate_game(game)`` where the tree has it, else ``evaluator(game.record)``, the record made in the timing, as the
tournament does). The workers take turns, so both halves of a round's ratio run within a second or two of each other
on a shared machine. ``--bookkeeping``: every game's batched likelihood is computed first (not timed) and handed back
(a copy) when the evaluator asks, so what is timed is everything else. Printed: each tree's CPU-ms per game by round
and the median of the per-round ratios B / A.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def _worker(games: int, bookkeeping: bool) -> None:
    from heimlich_lab import Game, Rules
    from heimlich_lab.bots import BoltzmannBot
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    ev = BeliefEvaluator(until=None)
    real = type(ev.model).batch_type_log_likelihoods
    players = ["P1", "P2", "P3", "P4", "P5"]

    def one_round(seed: int, n: int) -> float:
        total = 0.0
        for k in range(n):
            bots = {p: BoltzmannBot(seed=1000 * seed + 10 * k + i) for i, p in enumerate(players)}
            ev.before_game(bots)
            g = play_game(Game, bots, seed=1000 * seed + k, rules=Rules(), watch=ev.watch_game())
            if bookkeeping:
                items = ev._watch.decisions_of(g.record)
                raw = real(ev.model, [(it.view, it.actor, it.action) for it in items])
                type(ev.model).batch_type_log_likelihoods = \
                    lambda self, decisions, raw=raw, **kw: [None if r is None else r.copy() for r in raw]
            t0 = time.process_time()
            if hasattr(ev, "evaluate_game"):
                ev.evaluate_game(g)
            else:
                ev(g.record)
            total += time.process_time() - t0
            type(ev.model).batch_type_log_likelihoods = real
        return total / n * 1e3

    one_round(99, 5)                # imports, first starts (not reported)
    print("ready", flush=True)
    for line in sys.stdin:
        print(f"{one_round(int(line), games):.4f}", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=15)
    ap.add_argument("--bookkeeping", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        return _worker(a.games, a.bookkeeping)
    if len(a.trees) != 2:
        ap.error("name two trees")
    procs = []
    for t in a.trees:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(t))
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--games", str(a.games)] + \
            (["--bookkeeping"] if a.bookkeeping else [])
        p = subprocess.Popen(cmd, cwd=t, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker for {t} did not start")
        procs.append(p)
    res: list[list[float]] = [[], []]
    for r in range(a.rounds):
        for i in ((0, 1) if r % 2 == 0 else (1, 0)):
            procs[i].stdin.write(f"{r}\n")
            procs[i].stdin.flush()
            res[i].append(float(procs[i].stdout.readline()))
    for p in procs:
        p.stdin.close()
        p.wait()
    what = "everything but the batched likelihood" if a.bookkeeping else "the evaluator"
    print(f"{what}, CPU-ms/game ({a.games} games a round, the same games on both trees):")
    for t, v in zip(a.trees, res):
        print(f"  {t}: {', '.join(f'{x:.2f}' for x in v)}; median {statistics.median(v):.2f}")
    ratios = [b / x for x, b in zip(*res)]
    print(f"  per-round B/A: median {statistics.median(ratios):.3f} ({', '.join(f'{x:.2f}' for x in ratios)})")


if __name__ == "__main__":
    main()
