"""Secrets on the command line: the hooks the commands (:mod:`heimlich_lab.commands`) read through the game's
spec: the seeds of ``heimlich-lab play --game secrets`` (:func:`seeds`) and ``evaluate --game secrets``
(:func:`run_evaluate`). Secrets has no options of its own.

:func:`evaluate` scores each observer's exact belief at the end of self-play games (before the final reveal)
against where the markers really lie, over every seat and the middle: log loss, Brier score and expected
calibration error, for the hard-information belief (``exact``), the belief that also reads choices
(``model``), the same with a per-player rationality mixture (``mixture``: team or random player, learnt) and no
observation at all (``prior``).

>>> table = evaluate(games=3, n_players=5, bots=["random"], seed=1)
>>> list(table.index), list(table.columns)
(['exact', 'model', 'mixture', 'prior'], ['log_loss', 'brier', 'ece', 'events'])
>>> bool(table.loc["exact", "log_loss"] < table.loc["prior", "log_loss"])
True
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...errors import HeimlichError

METHODS = ("exact", "model", "mixture", "prior")
#: ``evaluate``'s bots when ``--bots`` is left out.
evaluate_bots = "random"


def seeds(seed: int, n: int) -> tuple[int, list[int]]:
    """The game's seed and the bots' seeds of a game ``play --game secrets --seed SEED`` plays: the game is
    seeded with ``seed`` itself, the bots apart from it.

    >>> g, bots = seeds(4, 5)
    >>> g, len(bots), 4 in bots
    (4, 5, False)
    """
    return seed, [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n + 1)[1:]]


def lineup(players: list[str], bots: list[str], seed: int) -> dict:
    """One bot per player (one name for all, or one per player), seeded apart from the game."""
    from .bots import make_bot
    if len(bots) == 1:
        bots = bots * len(players)
    if len(bots) != len(players):
        raise HeimlichError(f"{len(players)} players but {len(bots)} bots: give one bot for all, or one per player")
    return {p: make_bot(b, seed=s) for p, b, s in zip(players, bots, seeds(seed, len(players))[1])}


def evaluate(games: int = 100, n_players: int = 5, bots=("random",), seed: int = 0, model=None):
    """Belief quality per method over ``games`` self-play games (see the module doc); ``bots`` are cycled over
    the seats, the first seat rotating from game to game."""
    import pandas as pd

    from ...inference.metrics import expected_calibration_error
    from .belief import Belief
    from .bots import make_bot
    from .model import SecretsModel
    from .play import NAMES, play_game
    from .rules import TEAMS
    if not 4 <= n_players <= 8:
        raise HeimlichError(f"Secrets is for 4 to 8 players, not {n_players}")
    if games < 1:
        raise HeimlichError(f"--games must be at least 1, not {games}")
    bots = list(bots)
    if not bots:
        raise HeimlichError("give at least one bot")
    for b in set(bots):
        make_bot(b, seed=0)    # unknown names fail now, with the list of bots
    model = SecretsModel() if model is None else model
    players = list(NAMES[:n_players])
    preds = {m: [] for m in METHODS}
    truths = []
    mixed = replace(model, p_team=0.5 if model.p_team is None else model.p_team)
    for k in range(games):
        cycled = [bots[(i + k) % len(bots)] for i in range(n_players)]     # the first seat rotates
        g = play_game(lineup(players, cycled, seed + k), seed=seed + k)
        truth = g.record.final_identities
        for obs in players:
            exact = Belief.for_game(g, obs)
            read = Belief.for_game(g, obs, model=model)
            mixture = Belief.for_game(g, obs, model=mixed)
            prior = Belief(g.players, obs, g.rules)
            for m, b in zip(METHODS, (exact, read, mixture, prior)):
                preds[m].append(b.marginals().T)          # (slots, teams)
            truths.append(np.array([[float(truth[s] == t) for t in TEAMS] for s in exact.slots]))
    y = np.stack(truths)
    rows = {}
    for m in METHODS:
        p = np.stack(preds[m])
        rows[m] = {"log_loss": float(-np.log(np.clip((p * y).sum(axis=2), 1e-15, 1)).mean()),
                   "brier": float(((p - y) ** 2).sum(axis=2).mean()),
                   "ece": expected_calibration_error(p.ravel(), y.ravel()),
                   "events": int(y.shape[0] * y.shape[1])}
    return pd.DataFrame.from_dict(rows, orient="index")


def run_evaluate(args) -> int:
    """``heimlich-lab evaluate --game secrets``."""
    from ...commands.common import seed_or_drawn, split_names
    bots = split_names(args.bots, "bot")
    if bots == ["boltzmann"]:          # the first game's default: Secrets has no such bot
        bots = ["random"]
    seed = seed_or_drawn(args.seed)    # none given: a fresh one, printed so the run can be repeated
    table = evaluate(games=args.games, n_players=args.players, bots=bots, seed=seed)
    print(f"Secrets beliefs at the end of {args.games} games of {args.players} ({', '.join(bots)}), seed {seed}"
          f"{' (drawn)' if args.seed is None else ''}, every observer, every seat and the middle:")
    print(table.round(4).to_string())
    if getattr(args, "out", None):
        table.to_csv(args.out)
    return 0
