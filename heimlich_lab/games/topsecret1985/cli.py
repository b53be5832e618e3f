"""Top Secret's hooks for the command line (:mod:`heimlich_lab.commands`): ``heimlich-lab evaluate --game
topsecret1985`` scores the belief about the suitcases (:mod:`heimlich_lab.games.topsecret1985.evaluate`).

>>> from heimlich_lab.cli import main
>>> main(["evaluate", "--game", "topsecret1985", "--games", "2", "--players", "2", "--seed", "3"])  # doctest: +ELLIPSIS
Top Secret beliefs at a quarter, half and three quarters of 2 games of 2 (bots drawn from the population), seed 3:
...
0
"""
from __future__ import annotations

from typing import Any

from ...errors import HeimlichError

__all__ = ["evaluate_bots", "evaluate_players", "run_evaluate"]

#: ``evaluate``'s default: each seat's bot drawn from the belief's population (its prior over player types).
evaluate_bots = "population"
evaluate_players = 4


def run_evaluate(args: Any) -> int:
    """``heimlich-lab evaluate --game topsecret1985``."""
    from ...commands.common import seed_or_drawn, split_names
    from .evaluate import calibration_bins, evaluate

    if not 2 <= args.players <= 4:
        raise HeimlichError(f"Top Secret is for 2 to 4 players, not {args.players}")
    names = split_names(args.bots, "bot")
    bots = None if names == ["population"] else names
    seed = seed_or_drawn(args.seed)
    scores, table = evaluate(games=args.games, n_players=args.players, seed=seed, bots=bots, frame=True,
                             progress=not getattr(args, "no_progress", False) and args.games > 1)
    who = "bots drawn from the population" if bots is None else ", ".join(bots)
    print(f"Top Secret beliefs at a quarter, half and three quarters of {args.games} games of {args.players} "
          f"({who}), seed {seed}{' (drawn)' if args.seed is None else ''}:")
    print(scores.round(4).to_string())
    print("Calibration of the belief (z: the gap over its standard error, clustered by game):")
    print(calibration_bins(table, "belief").round(3).to_string())
    if getattr(args, "out", None):
        table.to_csv(args.out)
    return 0
