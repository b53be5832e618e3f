"""Time two trees of heimlich-lab side by side, in alternation, on the same machine and in one run.

    python scripts/speed_side_by_side.py BEFORE_TREE AFTER_TREE [--rounds 15] [--only TEXT]

Each round runs every workload in a fresh process for each tree (the order of the two trees alternates from
round to round), with ``PYTHONPATH`` set to that tree; the workload reports the least CPU time of its own
process (``time.process_time``) over ``--rounds`` runs after a warm-up, so other load on the machine matters
less than for wall-clock time. Printed
per workload: the median of the per-round ratios after/before and their range (min-max). A ratio below 1 means
the after tree is faster. The workloads use only public entry points both trees have.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKLOADS = {
    "heimlich engine: 5-player basic games, random bots": """
from heimlich_lab import Rules
from heimlich_lab.play import play_game
from heimlich_lab.bots import RandomBot
players = ["P1", "P2", "P3", "P4", "P5"]
def work():
    for s in range(N):
        play_game(Rules(), {p: RandomBot(seed=s * 7 + i) for i, p in enumerate(players)}, seed=s)
N = 300
""",
    "heimlich beliefs: every observer of 3 records, BoltzmannModel": """
from heimlich_lab import Belief, Rules, play
from heimlich_lab.bots import BoltzmannBot
from heimlich_lab.inference.model import BoltzmannModel
recs = [play(Rules(), {p: BoltzmannBot(seed=10 * k + i) for i, p in enumerate(["A", "B", "C", "D", "E"])},
             seed=k) for k in range(3)]
def work():
    for _ in range(N):
        for rec in recs:
            for p in rec.players:
                Belief.from_record(rec, observer=p, model=BoltzmannModel()).marginals_array()
N = 3
""",
    "heimlich beliefs: exact, no model (5 players, basic)": """
from heimlich_lab import Belief, Rules, play
from heimlich_lab.bots import RandomBot
recs = [play(Rules(), {p: RandomBot(seed=10 * k + i) for i, p in enumerate("ABCDE")}, seed=k)
        for k in range(2)]
def work():
    for _ in range(N):
        for rec in recs:
            for p in rec.players:
                Belief.from_record(rec, observer=p, model=None).marginals_array()
N = 1
""",
    "secrets engine: 8-player games, random bots": """
from heimlich_lab.secrets import RandomBot, play_game
def work():
    for k in range(N):
        play_game([RandomBot(10 * k + i) for i in range(8)], seed=k)
N = 250
""",
    "secrets beliefs: 8 observers over recorded games (exact and model)": """
from heimlich_lab.secrets import Belief, RandomBot, SecretsModel, play_game
games = [play_game([RandomBot(10 * k + i) for i in range(8)], seed=k) for k in range(3)]
logs = [{p: g.view(p).log for p in g.players} for g in games]
def work():
    for _ in range(N):
        for g, lg in zip(games, logs):
            for model in (None, SecretsModel()):
                beliefs = {p: Belief(g.players, p, g.rules, model=model) for p in g.players}
                for i in range(len(lg[g.players[0]]) - 1):
                    for p, b in beliefs.items():
                        b.add(lg[p][i])
N = 2
""",
}

RUNNER = r"""
import json, sys, time

def heimlich_modules():
    return {k: v for k, v in sys.modules.items() if k == "heimlich_lab" or k.startswith("heimlich_lab.")}

def alias_finders():
    return [f for f in sys.meta_path if type(f).__name__ == "_AliasFinder"]

def activate(mods, finders):
    # only this tree's modules (and its old-path finder, if it has one) are seen by imports inside functions
    for k in list(heimlich_modules()):
        del sys.modules[k]
    sys.modules.update(mods)
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_AliasFinder"]
    sys.meta_path[0:0] = finders

def load(tree):
    activate({}, [])
    sys.path.insert(0, tree)
    ns = {}
    exec(SETUP, ns)
    sys.path.remove(tree)
    ns["work"]()                     # warm-up: caches, lazy imports
    return ns["work"], heimlich_modules(), alias_finders()

SETUP = %r
trees = json.loads(sys.argv[1])
loaded = [load(t) for t in trees]
times = [[], []]
for r in range(%d):
    for i in ((0, 1) if r %% 2 == 0 else (1, 0)):
        work, mods, finders = loaded[i]
        activate(mods, finders)
        t0 = time.process_time()
        work()
        times[i].append(time.process_time() - t0)
print(json.dumps(times))
"""


def run(before: str, after: str, code: str, rounds: int) -> tuple[list[float], list[float]]:
    """Both trees loaded in one process, timed in alternation (the order turns each round)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", RUNNER % (code, rounds), json.dumps([before, after])], env=env,
                         cwd="/", capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"workload failed:\n{out.stderr}")
    b, a = json.loads(out.stdout.strip().splitlines()[-1])
    return b, a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=15, help="timed runs of each tree, in alternation")
    ap.add_argument("--only", default=None, help="workloads whose name contains this text")
    args = ap.parse_args()
    names = [n for n in WORKLOADS if args.only is None or args.only in n]
    print(f"{'workload':<68} {'before s':>9} {'after s':>9} {'ratio':>6}  quartiles   min-ratio")
    for n in names:
        b, a = run(os.path.abspath(args.before), os.path.abspath(args.after), WORKLOADS[n], args.rounds)
        ratios = sorted(y / x for x, y in zip(b, a))
        q = statistics.quantiles(ratios, n=4)
        print(f"{n:<68} {statistics.median(b):>9.3f} {statistics.median(a):>9.3f} {statistics.median(ratios):>6.3f}"
              f"  {q[0]:.3f}-{q[2]:.3f}  {min(a) / min(b):.3f}", flush=True)


if __name__ == "__main__":
    main()
