"""``heimlich-lab bench``: speed figures (printed, never asserted)."""
from __future__ import annotations

import time

from ..bots.random_bot import RandomBot
from ..play import play_game
from ..rules.ruleset import Rules

#: name -> function(quick: bool) -> list of (label, value, unit). Other modules add benchmarks here.
BENCHMARKS: dict = {}


def bench_random_games(quick: bool = False) -> list[tuple[str, float, str]]:
    """Complete 5-player basic games between random bots, per second on one core."""
    n = 200 if quick else 2000
    players = ["P1", "P2", "P3", "P4", "P5"]
    t0 = time.perf_counter()
    for s in range(n):
        play_game(Rules(), {p: RandomBot(seed=s * 7 + i) for i, p in enumerate(players)}, seed=s)
    dt = time.perf_counter() - t0
    return [("5-player basic games, random bots", n / dt, "games/s")]


BENCHMARKS["engine"] = bench_random_games
BENCHMARKS["belief"] = lambda quick=False: __import__("heimlich_lab.inference.bench_belief", fromlist=["_"]).bench_belief(quick)  # noqa: E501
BENCHMARKS["model"] = lambda quick=False: __import__("heimlich_lab.inference.bench_model", fromlist=["_"]).bench_model(quick)  # noqa: E501
BENCHMARKS["target"] = lambda quick=False: __import__("heimlich_lab.analysis.bench_tournament", fromlist=["_"]).bench_target(quick)  # noqa: E501
BENCHMARKS["tournament"] = lambda quick=False: __import__("heimlich_lab.analysis.bench_tournament", fromlist=["_"]).bench_tournament(quick)  # noqa: E501


def register(sub):
    p = sub.add_parser("bench", help="print speed figures (games per second, belief updates, ...)")
    p.add_argument("--quick", action="store_true", help="fewer repetitions")
    p.add_argument("--only", default=None, help="comma-separated benchmark names (default: all)")
    p.set_defaults(func=run)


def run(args) -> int:
    import platform
    names = list(BENCHMARKS) if not args.only else [x.strip() for x in args.only.split(",")]
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    for name in names:
        if name not in BENCHMARKS:
            from ..errors import HeimlichError
            raise HeimlichError(f"unknown benchmark {name!r}; benchmarks are {', '.join(BENCHMARKS)}")
        for label, value, unit in BENCHMARKS[name](quick=args.quick):
            print(f"{name:>10}  {label:<55} {value:>12,.1f} {unit}")
    return 0
