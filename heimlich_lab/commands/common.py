"""Arguments shared by several sub-commands.

Every argument is checked by argparse before any work is done: a bad one ends the command with a usage error
(exit status 2) that names it.
"""
from __future__ import annotations

import argparse
import math
import re
import secrets
from pathlib import Path

from ..errors import HeimlichError
from ..games.heimlich.rules.ruleset import READING_OPTIONS, Rules

#: Seeds given on the command line, and those drawn for you, are below this.
MAX_CLI_SEED = 2**63


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--top-secret", action="store_true", help="play with the Top Secret cards")
    p.add_argument("--dossier", action="store_true", help="the Secret Dossier variant")
    p.add_argument("--safe-destination", choices=["other", "unoccupied"], default="other",
                   help="where the safe may go after a scoring (default: other)")
    for name, values in READING_OPTIONS.items():    # the readings of docs/rules.md#editions and #drawing-cards
        p.add_argument(f"--{name.replace('_', '-')}", choices=values, default=values[0],
                       help=f"{_READING_HELP[name]} (default: {values[0]})")


_READING_HELP = {
    "draws": "a card one may draw (0 points, the Ruins): 'always' drawn, or 'may' (the player says collect yes|no)",
    "second_agent": "the second-agent card acts when 'played' (2002) or when 'drawn' (2018)",
    "lone_announcer": "a lone announcer: 'round' (2002, the others may still play) or 'one_card' (2018)",
    "safe_mover": "who moves the safe after a scoring: 'active' player (2002) or its 'creator' (2018)",
}


def rules_from(args) -> Rules:
    return Rules(top_secret=args.top_secret, dossier=args.dossier, safe_destination=args.safe_destination,
                 **{name: getattr(args, name) for name in READING_OPTIONS})


def seed_argument(text: str) -> int:
    """An argparse type: a seed, a whole number 0 <= seed < 2**63 in ASCII digits.

    >>> seed_argument("7")
    7
    >>> seed_argument("-1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-1' is not a seed: give a whole number from 0 to 2**63 - 1
    """
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) < MAX_CLI_SEED):
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed: give a whole number from 0 to 2**63 - 1")
    return int(text)


def add_seed_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--seed", type=seed_argument, default=None,
                   help=f"seed of {what}, 0 to 2**63-1 (default: one drawn from the OS, printed). A known, "
                        "small seed lets a bot recompute every secret: leave it out for a fair game")


def seed_or_drawn(seed: int | None) -> int:
    """``seed``, or a fresh one from the OS (63 bits: no bot can guess it)."""
    return secrets.randbits(63) if seed is None else seed


def whole_number(least: int):
    """An argparse type: a whole number >= ``least``."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"-?[0-9]{1,9}", text) or int(text) < least:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= {least}")
        return int(text)
    parse.__name__ = f"whole number >= {least}"
    return parse


def finite_number(text: str) -> float:
    """An argparse type: a finite number (not ``nan`` or ``inf``)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return x


def out_file(*suffixes: str):
    """An argparse type: a file to write, in a folder that exists, not a folder itself (and, if ``suffixes``
    are given, ending in one of them)."""
    def parse(text: str) -> str:
        path = Path(text)
        if not text.strip():
            raise argparse.ArgumentTypeError("give a file name (it is empty)")
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{text} is a folder; give a file name")
        if not path.parent.is_dir():
            raise argparse.ArgumentTypeError(f"{text}: the folder {path.parent} does not exist")
        if suffixes and path.suffix.lower() not in suffixes:
            raise argparse.ArgumentTypeError(f"{text}: the file name must end in {' or '.join(suffixes)}")
        return text
    parse.__name__ = "file name"
    return parse


def split_names(text: str, what: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise HeimlichError(f"give at least one {what}, separated by commas")
    return names


def report_seed_and_save(game, args, seed: int) -> None:
    """After ``play`` (either game): say the drawn seed (when none was given) and save the record to ``--out``."""
    if args.seed is None:
        print(f"Seed {seed} (drawn; --seed {seed} plays this game again)")
    if args.out:
        try:
            game.record.save(args.out)
        except OSError as e:
            raise HeimlichError(f"--out {args.out}: cannot save the record: {e.strerror or e}") from None
        print(f"Record saved to {args.out}")
