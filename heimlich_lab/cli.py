"""The ``heimlich-lab`` command line program.

Sub-commands live in their own modules; each has ``register(subparsers)``
that adds its parser and sets ``func``. ``heimlich-lab --help`` lists them.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from .errors import HeimlichError

#: Modules that register sub-commands.
COMMAND_MODULES = [
    "heimlich_lab.commands.play",
    "heimlich_lab.commands.bench",
    "heimlich_lab.commands.evaluate",
    "heimlich_lab.commands.tournament",
    "heimlich_lab.course.grading",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="heimlich-lab", description="Heimlich & Co. for teaching Bayesian deduction: play, replay, "
        "benchmark, evaluate beliefs, run tournaments.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except HeimlichError as e:
        print(f"heimlich-lab: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
