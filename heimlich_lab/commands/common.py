"""Arguments shared by several sub-commands."""
from __future__ import annotations

import argparse

from ..errors import HeimlichError
from ..rules.ruleset import Rules


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--top-secret", action="store_true", help="play with the Top Secret cards")
    p.add_argument("--dossier", action="store_true", help="the Secret Dossier variant")
    p.add_argument("--safe-destination", choices=["other", "unoccupied"], default="other",
                   help="where the safe may go after a scoring (default: other)")


def rules_from(args) -> Rules:
    return Rules(top_secret=args.top_secret, dossier=args.dossier, safe_destination=args.safe_destination)


def split_names(text: str, what: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise HeimlichError(f"give at least one {what}, separated by commas")
    return names
