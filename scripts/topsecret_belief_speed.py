"""Top Secret's belief against the first game's, per decision, side by side in one run (BENCHMARKS.md).

    python scripts/topsecret_belief_speed.py [--records 4] [--rounds 3]

* **Top Secret**: every observer's belief about the suitcases (``Belief.for_all``: one pass serves all of
  them) over whole 4-player games of the kit's bots (each seat's type drawn from the belief's population);
* **Heimlich & Co.**: every observer's exact belief under the default model (``BeliefSet.from_record``, the
  evaluator's path) over whole 5-player basic games of Boltzmann bots.

Both in CPU seconds of this process per decision of the record (a player's action), the least of ``rounds``
alternated runs each; printed, never asserted. The issue's target: Top Secret / Heimlich <= 1.
"""
from __future__ import annotations

import argparse
import random
import time

from heimlich_lab.engine.contract import CHANCE
from heimlich_lab.games.heimlich.bots.model_bots import BoltzmannBot
from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
from heimlich_lab.games.heimlich.play import play as play_heimlich
from heimlich_lab.games.heimlich.rules import Rules
from heimlich_lab.games.topsecret1985.belief import Belief
from heimlich_lab.games.topsecret1985.bots import TypeBot
from heimlich_lab.games.topsecret1985.model import Population
from heimlich_lab.games.topsecret1985.play import play as play_topsecret


def _decisions(record) -> int:
    return sum(1 for actor, *_ in record.entries() if actor != CHANCE)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    rng = random.Random(1)
    names = Population.default().names()
    ts = [play_topsecret([TypeBot(rng.choice(names), seed=rng.randrange(2**31)) for _ in range(4)],
                         seed=rng.randrange(2**31)) for _ in range(a.records)]
    hl = [play_heimlich(Rules(), {p: BoltzmannBot(seed=10 * k + i) for i, p in enumerate("ABCDE")}, seed=100 + k)
          for k in range(a.records)]
    n_ts, n_hl = sum(map(_decisions, ts)), sum(map(_decisions, hl))

    def top_secret() -> None:
        for rec in ts:
            Belief.for_all(rec)

    def heimlich() -> None:
        for rec in hl:
            BeliefSet.from_record(rec, until=None)

    top_secret(), heimlich()        # imports and caches (not timed)
    t_ts, t_hl = [], []
    for r in range(a.rounds):
        for name, work, out in ((("ts", top_secret, t_ts), ("hl", heimlich, t_hl))[::1 if r % 2 == 0 else -1]):
            t0 = time.process_time()
            work()
            out.append(time.process_time() - t0)
    per_ts, per_hl = min(t_ts) / n_ts * 1e6, min(t_hl) / n_hl * 1e6
    print(f"Top Secret, every observer, 4 players: {per_ts:8.1f} CPU us per decision ({n_ts} decisions)")
    print(f"Heimlich & Co., BeliefSet, 5 players:  {per_hl:8.1f} CPU us per decision ({n_hl} decisions)")
    print(f"Top Secret / Heimlich & Co.: {per_ts / per_hl:.2f} (target <= 1)")


if __name__ == "__main__":
    main()
