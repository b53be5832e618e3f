"""Top Secret's replay table, states built up front against states made on demand, side by side in one run
(BENCHMARKS.md, Top Secret section).

    python scripts/topsecret_replay_side_by_side.py [--seed 4] [--rounds 3]

A four-player game of random bots (seed 4: 1484 log entries), replayed as Ann's view with her belief panel:

* **up front**: every step's synced state made at opening (what ``TopSecretReplay`` did before it used
  ``ReplaySteps``; the same code as the reference in tests/test_topsecret1985_widget.py);
* **on demand**: ``TopSecretReplay`` as it is (positions kept every ``CHECKPOINT_EVERY`` steps, the last
  ``KEEP_STATES`` states made).

Printed, never asserted: the time to open (CPU seconds of this process, the least of ``rounds`` alternated runs),
the memory the open table holds (tracemalloc: the bytes still allocated once it is open, and the peak while
opening, in a separate run as tracemalloc slows the code) and, on demand, the time of a slider's moves (one step
forward, a jump to a random step, one step back across a kept position).
"""
from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc
from typing import Any, Callable

from heimlich_lab.games.topsecret1985 import Belief, Game, RandomBot, play
from heimlich_lab.games.topsecret1985.belief import Reader
from heimlich_lab.games.topsecret1985.widget import TopSecretReplay
from heimlich_lab.games.topsecret1985.widget_state import LogWords, table_state


def up_front(rec: Any, viewer: str = "Ann") -> list[dict[str, Any]]:
    """Every step's state, made at opening (the replay before ``ReplaySteps``)."""
    belief = Belief(rec.players, None)
    reader = Reader(belief, rec.players)
    game = Game(rec.players, seed=rec.seed, chance="manual", rules=rec.rules, map=rec.map)
    words = LogWords()
    states = [table_state(game.view(viewer), belief, label="Replay, Ann's view", words=words)]
    for actor, text in rec.log:
        reader.apply(game, text, actor)
        states.append(table_state(game.view(viewer), belief, label="Replay, Ann's view", words=words))
    for i, s in enumerate(states):
        s["replay"] = {"index": i, "length": len(states)}
    return states


def cpu(f: Callable[[], Any]) -> tuple[float, Any]:
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def held(f: Callable[[], Any]) -> tuple[int, int]:
    """The bytes ``f()``'s result holds and the peak while making it (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    out = f()
    gc.collect()
    now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del out
    return now - base, peak - base


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rec = play([RandomBot(i + 1) for i in range(4)], seed=args.seed)
    print(f"record: 4 players, seed {args.seed}, {len(rec.log)} log entries; "
          f"CHECKPOINT_EVERY={TopSecretReplay.CHECKPOINT_EVERY}, KEEP_STATES={TopSecretReplay.KEEP_STATES}")
    best = {"up front": float("inf"), "on demand": float("inf")}
    for _ in range(args.rounds):
        best["up front"] = min(best["up front"], cpu(lambda: up_front(rec))[0])
        best["on demand"] = min(best["on demand"], cpu(lambda: TopSecretReplay(rec, viewer="Ann"))[0])
    for name, f in (("up front", lambda: up_front(rec)), ("on demand", lambda: TopSecretReplay(rec, viewer="Ann"))):
        now, peak = held(f)
        print(f"{name:>9}: open {best[name]:.2f} s CPU, holds {now / 1e6:.1f} MB once open (peak {peak / 1e6:.1f} MB)")
    ctl = TopSecretReplay(rec, viewer="Ann")
    rng = random.Random(0)
    n, k = len(ctl), TopSecretReplay.CHECKPOINT_EVERY
    forward = [cpu(lambda: ctl.seek(ctl.index + 1))[0] for _ in range(200)]
    jumps = []
    for _ in range(50):
        i = rng.randrange(n)
        jumps.append(cpu(lambda i=i: ctl.seek(i))[0])
    back = []
    for j in range(k, n, k * 4):
        ctl.seek(j)
        back.append(cpu(lambda j=j: ctl.seek(j - 1))[0])
    print(f"on demand, a slider's moves: one step forward {1e3 * sum(forward) / len(forward):.1f} ms on average, "
          f"a jump to a random step {1e3 * sum(jumps) / len(jumps):.1f} ms on average ({1e3 * max(jumps):.1f} max), "
          f"one step back across a kept position {1e3 * sum(back) / len(back):.1f} ms on average")


if __name__ == "__main__":
    main()
