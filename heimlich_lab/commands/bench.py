"""``heimlich-lab bench``: speed figures (printed, never asserted)."""
from __future__ import annotations

from importlib import import_module

from ..errors import HeimlichError


#: Where the benchmarks live.
BENCHMARK_PACKAGE = "heimlich_lab.games.heimlich.benchmarks"


def _lazy(module: str, function: str):
    """``<module>.<function>`` (a module of ``BENCHMARK_PACKAGE`` or a full name), imported only when that
    benchmark runs."""
    def run_benchmark(quick: bool = False):
        name = module if module.startswith("heimlich_lab.") else f"{BENCHMARK_PACKAGE}.{module}"
        return getattr(import_module(name), function)(quick)
    return run_benchmark


#: name -> function(quick: bool) -> list of (label, value, unit). The code is in heimlich_lab/games/heimlich/benchmarks/.
BENCHMARKS: dict = {
    "engine": _lazy("engine", "bench_random_games"),
    "belief": _lazy("belief", "bench_belief"),
    "model": _lazy("model", "bench_model"),
    "target": _lazy("tournament", "bench_target"),
    "tournament": _lazy("tournament", "bench_tournament"),
    "board": _lazy("board", "bench_board"),
    "secrets": _lazy("heimlich_lab.games.secrets.bench", "bench_secrets"),
    "types": _lazy("player_types", "bench_player_types"),
}


def register(sub):
    p = sub.add_parser("bench", help="print speed figures (games per second, belief updates, ...)")
    p.add_argument("--quick", action="store_true", help="fewer repetitions")
    p.add_argument("--only", default=None, help="comma-separated benchmark names (default: all)")
    p.set_defaults(func=run)


def run(args) -> int:
    import platform
    names = list(BENCHMARKS) if not args.only else [x.strip() for x in args.only.split(",")]
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:  # before any benchmark runs
        raise HeimlichError(f"unknown benchmark {unknown[0]!r}; benchmarks are {', '.join(BENCHMARKS)}")
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    for name in names:
        for label, value, unit in BENCHMARKS[name](quick=args.quick):
            print(f"{name:>10}  {label:<55} {value:>12,.1f} {unit}")
    return 0
