"""``heimlich-lab evaluate``: how well do beliefs find the hidden identities? Self-play games of the chosen game,
every player's belief scored against the truth.

Each game says how (its spec's ``cli.run_evaluate``, with its own options): Heimlich & Co. scores the exact
posterior and its baselines at the dossier mark (:mod:`heimlich_lab.games.heimlich.evaluate`), Secrets the
exact filter with and without a player model at the end (:mod:`heimlich_lab.games.secrets.cli`). A game that
says nothing is scored by its named ``beliefs`` evaluator (:func:`evaluate_with_evaluator`).
"""
from __future__ import annotations

from .._compat import legacy_exports
from ..errors import HeimlichError
from .common import (
    add_game_argument,
    add_seed_argument,
    chosen_game,
    game_hooks,
    out_file,
    rules_from_args,
    seed_or_drawn,
    split_names,
    whole_number,
)


def register(sub):
    p = sub.add_parser("evaluate", help="score the beliefs of self-play games against the truth (per game: "
                                        "methods, when, metrics)")
    p.add_argument("--games", type=whole_number(1), default=100, help="number of games (default 100)")
    p.add_argument("--players", type=whole_number(2), default=None,
                   help="number of players (default: the game's, 5 for Heimlich & Co. and Secrets)")
    p.add_argument("--bots", default=None,
                   help="bot names, comma-separated: cycled over the seats, the first seat rotating from game to "
                        "game (default: the game's, boltzmann for Heimlich & Co., random otherwise)")
    add_seed_argument(p, "the evaluation (game k's seed and its bots' seeds are drawn from it)")
    add_game_argument(p, "evaluate")
    p.add_argument("--out", type=out_file(".csv"), default=None,
                   help="also save every score (one row per game, player, method) as CSV")
    p.set_defaults(func=run)


def run(args) -> int:
    spec = chosen_game(args)
    hooks = game_hooks(spec)
    if args.bots is None:
        args.bots = getattr(hooks, "evaluate_bots", "random")
    if args.players is None:
        args.players = getattr(hooks, "evaluate_players", 5)
    run_game = getattr(hooks, "run_evaluate", None) or evaluate_with_evaluator
    return run_game(args)


def evaluate_with_evaluator(args) -> int:
    """``evaluate`` of a game with no ``run_evaluate`` of its own: ``--games`` self-play games (a tournament of
    one cell, the bots rotated over the seats), every player's belief scored by the game's ``beliefs``
    evaluator; prints the mean of each metric."""
    from ..analysis import tournament
    spec = chosen_game(args)
    if "beliefs" not in spec.load("tournament").evaluators:
        raise HeimlichError(f"{spec.title} has no belief evaluator: nothing to evaluate")
    bots = split_names(args.bots, "bot")
    seed = seed_or_drawn(args.seed)
    df = tournament(player_counts=args.players, variants=[rules_from_args(spec, args)],
                    bots=[f"rotate:{','.join(bots)}"], games=args.games, seed=seed, evaluate="beliefs",
                    game=spec.name, progress=False)
    metrics = [c for c in df.columns if c.startswith("belief_")]
    print(f"{spec.title} beliefs {spec.load('tournament').belief_when}, {args.games} games of {args.players} "
          f"({', '.join(bots)}), seed {seed}{' (drawn)' if args.seed is None else ''}, every player:")
    table = df[metrics].mean().rename("mean").to_frame()
    print(table.round(4).to_string())
    if args.out:
        df.to_csv(args.out, index=False)
    return 0


# the first game's evaluation, which this module defined before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
