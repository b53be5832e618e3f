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


#: The longest error message printed: a message that quotes a huge input is cut (its start and its end).
MAX_MESSAGE = 600
#: The exit status after Ctrl-C (128 + SIGINT, as a shell reports it).
INTERRUPTED = 130


def short_message(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` if short, else its start and its end with how much was cut between.

    >>> short_message("x" * 10, limit=8)
    'xxxxxx [... 3 characters cut ...] x'
    """
    text = str(text)
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 4, limit // 8
    return f"{text[:head]} [... {len(text) - head - tail} characters cut ...] {text[len(text) - tail:]}"


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors quote at most an excerpt of the offending argument."""

    def error(self, message):
        super().error(short_message(message, 300))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="heimlich-lab", description="Heimlich & Co. for teaching Bayesian deduction: play, replay, "
        "benchmark, evaluate beliefs, run tournaments.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the exit status: 0, 2 for bad input (a short message, no traceback), 130 after
    Ctrl-C (a one-line message: what was saved is kept, e.g. a tournament's ``--out``)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        return args.func(args) or 0
    except HeimlichError as e:
        print(f"heimlich-lab: error: {short_message(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("heimlich-lab: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
