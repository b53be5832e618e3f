"""``heimlich-lab bench``: speed figures (printed, never asserted).

The benchmarks come from the games' specs (:attr:`~heimlich_lab.engine.registry.GameSpec.benchmarks`: name ->
``"module:function"``, ``function(quick) -> [(label, value, unit), ...]``); each lives in its game's package,
above every layer it measures, and is imported only when it runs.
"""
from __future__ import annotations

from ..engine.registry import games, resolve
from ..errors import HeimlichError


def benchmarks() -> dict[str, str]:
    """Every registered game's benchmarks, name -> ``"module:function"``, in the games' order."""
    out: dict[str, str] = {}
    for spec in games():
        for name, ref in spec.benchmarks.items():
            if name in out:
                raise HeimlichError(f"two games register a benchmark named {name!r}")
            out[name] = ref
    return out


def register(sub):
    p = sub.add_parser("bench", help="print speed figures (games per second, belief updates, ...)")
    p.add_argument("--quick", action="store_true", help="fewer repetitions")
    p.add_argument("--only", default=None, help="comma-separated benchmark names (default: all)")
    p.set_defaults(func=run)


def run(args) -> int:
    import platform
    known = benchmarks()
    names = list(known) if not args.only else [x.strip() for x in args.only.split(",")]
    unknown = [name for name in names if name not in known]
    if unknown:  # before any benchmark runs
        raise HeimlichError(f"unknown benchmark {unknown[0]!r}; benchmarks are {', '.join(known)}")
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    for name in names:
        for label, value, unit in resolve(known[name])(quick=args.quick):
            print(f"{name:>10}  {label:<55} {value:>12,.1f} {unit}")
    return 0


def __getattr__(name: str):
    if name == "BENCHMARKS":    # name -> "module:function", as this module once kept them
        return benchmarks()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
