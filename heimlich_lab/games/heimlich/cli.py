"""Heimlich & Co. on the command line: its options (the rules and variants for ``play`` and ``evaluate``, the
beliefs' model and the population grid for ``evaluate``), its rules from them, and its ``evaluate``
(:mod:`heimlich_lab.games.heimlich.evaluate`). The commands (:mod:`heimlich_lab.commands`) read these hooks
through the game's spec.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_arguments("play", p)
>>> rules_from_args(p.parse_args(["--top-secret", "--draws", "may"])).draws
'may'
"""
from __future__ import annotations

from ...commands.common import finite_number
from .rules.ruleset import READING_OPTIONS, Rules

#: ``evaluate``'s bots when ``--bots`` is left out.
evaluate_bots = "boltzmann"

_READING_HELP = {
    "draws": "a card one may draw (0 points, the Ruins): 'always' drawn, or 'may' (the player says collect yes|no)",
    "second_agent": "the second-agent card acts when 'played' (2002) or when 'drawn' (2018)",
    "lone_announcer": "a lone announcer: 'round' (2002, the others may still play) or 'one_card' (2018)",
    "safe_mover": "who moves the safe after a scoring: 'active' player (2002) or its 'creator' (2018)",
}


def add_rules_arguments(p) -> None:
    """The rules' options: ``--top-secret``, ``--dossier``, ``--safe-destination`` and the readings of
    docs/rules.md#editions and #drawing-cards."""
    p.add_argument("--top-secret", action="store_true", help="play with the Top Secret cards")
    p.add_argument("--dossier", action="store_true", help="the Secret Dossier variant")
    p.add_argument("--safe-destination", choices=["other", "unoccupied"], default="other",
                   help="where the safe may go after a scoring (default: other)")
    for name, values in READING_OPTIONS.items():
        p.add_argument(f"--{name.replace('_', '-')}", choices=values, default=values[0],
                       help=f"{_READING_HELP[name]} (default: {values[0]})")


def rules_from(args) -> Rules:
    """The :class:`Rules` the options of :func:`add_rules_arguments` give."""
    return Rules(top_secret=args.top_secret, dossier=args.dossier, safe_destination=args.safe_destination,
                 **{name: getattr(args, name) for name in READING_OPTIONS})


rules_from_args = rules_from


def add_arguments(command: str, p) -> None:
    """This game's options of ``command`` (``play`` and ``evaluate``)."""
    if command not in ("play", "evaluate"):
        return
    add_rules_arguments(p)
    if command != "evaluate":
        return
    p.add_argument("--no-rotate", action="store_true", help="keep the bots on the same seats in every game")
    p.add_argument("--beta", type=finite_number, default=1.0, help="the beliefs' BoltzmannModel beta (default 1)")
    p.add_argument("--epsilon", type=finite_number, default=0.05,
                   help="the beliefs' BoltzmannModel epsilon (default 0.05)")
    p.add_argument("--model", choices=("robust", "hiders", "boltzmann"), default="robust",
                   help="the beliefs' player model: robust (default: learns each player's type; with "
                        "--populations the single BoltzmannModel is scored beside it), hiders (robust with its hider "
                        "who covers of secrecy 2 instead of 0: sharper on careful hiders, slower) or boltzmann (the "
                        "single BoltzmannModel of --beta/--epsilon)")
    p.add_argument("--populations", default=None,
                   help="a population grid instead of --bots, comma-separated: random, greedy, boltzmann, bluff, "
                        "mixed, or bots joined by + (e.g. random,mixed,random+bluff); one table per population")
    p.add_argument("--plots", default=None,
                   help="with --populations: a folder for one reliability diagram (PNG) per population")
    p.add_argument("--targets", action="store_true",
                   help="with --populations: also check the kit's quality targets, each with a 95%% bootstrap "
                        "interval over games (honest on every population, cheap on greedy and boltzmann, useful "
                        "on mixed, calibrated)")


def run_evaluate(args) -> int:
    """``heimlich-lab evaluate --game heimlich``: beliefs (exact, baselines, uniform) at the dossier mark."""
    from .evaluate import run
    return run(args)
