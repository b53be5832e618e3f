"""Secrets on the command line: the hooks the commands (:mod:`heimlich_lab.commands`) read through the game's
spec: the seeds of ``heimlich-lab play --game secrets`` (:func:`seeds`) and ``evaluate --game secrets``
(:func:`run_evaluate`). Secrets has no options of its own.

:func:`evaluate` scores each observer's belief at the end of self-play games (before the final reveal)
against where the markers really lie, over every seat and the middle: log loss, Brier score and expected
calibration error, for the seen-only belief (``exact``: looks, shows, swaps), the belief that reads choices
through the default population of player types learnt per player (``types``,
:mod:`heimlich_lab.games.secrets.population`), through one team-player model (``model``), through a team/random
mixture (``mixture``) and no observation at all (``prior``); :func:`evaluate_tables` does so on every kind of
table (random, team, bluff and mixed bots), which is what ``evaluate --game secrets`` prints by default.

>>> table = evaluate(games=3, n_players=5, bots=["random"], seed=1)
>>> list(table.index), list(table.columns)
(['exact', 'types', 'model', 'mixture', 'prior'], ['log_loss', 'brier', 'ece', 'vs_exact', 'ci95', 'events'])
>>> bool(table.loc["exact", "log_loss"] < table.loc["prior", "log_loss"])
True
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...errors import HeimlichError
from .rules import MIDDLE

METHODS = ("exact", "types", "model", "mixture", "prior")
#: ``evaluate``'s bots when ``--bots`` is left out: every kind of table (:data:`TABLES`).
evaluate_bots = "tables"
#: The kinds of table ``evaluate --game secrets`` reports by default: name -> bots cycled over the seats.
TABLES = {"random": ("random",), "team": ("team",), "bluff": ("bluff",), "mixed": ("random", "team", "bluff")}


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


def evaluate(games: int = 100, n_players=5, bots=("random",), seed: int = 0, model=None, methods=METHODS):
    """Belief quality per method over ``games`` self-play games (see the module doc); ``bots`` are cycled over
    the seats, the first seat rotating from game to game; ``n_players`` a number, or several cycled from game to
    game (game ``k`` is seeded ``seed + k``). ``model``: the ``model`` method's (default ``SecretsModel()``).
    Columns: ``log_loss``, ``brier``, ``ece`` over every observer, seat and middle; ``vs_exact``, the mean
    difference of log loss from the seen-only belief's (``exact``), with ``ci95``, its 95% interval's half width
    clustered by game (games are independent; an observer's events in one game are not); ``events``."""
    import pandas as pd

    from ...inference.metrics import expected_calibration_error
    from .belief import Belief
    from .bots import make_bot
    from .model import SecretsModel
    from .play import NAMES, play_game
    from .population import default_population
    from .rules import TEAMS
    counts = [n_players] if isinstance(n_players, int) else list(n_players)
    if not counts or any(not isinstance(n, int) or not 4 <= n <= 8 for n in counts):
        raise HeimlichError(f"Secrets is for 4 to 8 players, not {n_players}")
    if games < 1:
        raise HeimlichError(f"--games must be at least 1, not {games}")
    bots = list(bots)
    if not bots:
        raise HeimlichError("give at least one bot")
    for b in set(bots):
        make_bot(b, seed=0)    # unknown names fail now, with the list of bots
    methods = tuple(methods)
    if "exact" not in methods or not set(methods) <= set(METHODS):
        raise HeimlichError(f"methods are among {', '.join(METHODS)}, with exact; not {methods!r}")
    model = SecretsModel() if model is None else model
    readers = {"exact": None, "types": default_population(), "model": model,
               "mixture": replace(model, p_team=0.5 if model.p_team is None else model.p_team)}
    preds: dict[str, list] = {m: [] for m in methods}
    truths, game_of = [], []
    for k in range(games):
        n = counts[k % len(counts)]
        players = list(NAMES[:n])
        cycled = [bots[(i + k) % len(bots)] for i in range(n)]     # the first seat rotates
        g = play_game(lineup(players, cycled, seed + k), seed=seed + k)
        truth = g.record.final_identities
        for obs in players:
            for m in methods:
                b = Belief(g.players, obs, g.rules) if m == "prior" else Belief.for_game(g, obs, model=readers[m])
                preds[m].append(b.marginals().T)          # (slots, teams)
            slots = players + [MIDDLE]
            truths.append(np.array([[float(truth[s] == t) for t in TEAMS] for s in slots]))
            game_of += [k] * len(slots)
    y, games_of = np.concatenate(truths), np.array(game_of)
    per_game = {}
    rows = {}
    for m in methods:
        p = np.concatenate(preds[m])
        loss = -np.log(np.clip((p * y).sum(axis=1), 1e-15, 1))
        per_game[m] = np.bincount(games_of, weights=loss) / np.bincount(games_of)
        rows[m] = {"log_loss": float(loss.mean()), "brier": float(((p - y) ** 2).sum(axis=1).mean()),
                   "ece": expected_calibration_error(p.ravel(), y.ravel())}
    for m in methods:
        d = per_game[m] - per_game["exact"]
        rows[m]["vs_exact"] = float(d.mean())
        rows[m]["ci95"] = float(1.96 * d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float("nan")
        rows[m]["events"] = int(y.shape[0])
    return pd.DataFrame.from_dict(rows, orient="index")


def evaluate_tables(games: int = 60, n_players=(4, 5, 6, 7, 8), seed: int = 0, tables=None,
                    methods=("exact", "types", "prior")):
    """:func:`evaluate` on every kind of table (:data:`TABLES`, or ``tables``: name -> bots), the same seeds for
    each: one table, rows (kind of table, method).

    >>> t = evaluate_tables(games=2, n_players=4, seed=3, tables={"team": ("team",)})
    >>> list(t.index)
    [('team', 'exact'), ('team', 'types'), ('team', 'prior')]
    """
    import pandas as pd
    tables = TABLES if tables is None else tables
    parts = {name: evaluate(games, n_players, bots, seed, methods=methods) for name, bots in tables.items()}
    return pd.concat(parts, names=["table", "method"])


def run_evaluate(args) -> int:
    """``heimlich-lab evaluate --game secrets``: by default every kind of table (:data:`TABLES`), the seen-only
    belief (``exact``) beside the default one (``types``, players read through a population of types) and the
    prior; ``--bots`` one kind of table, with every method."""
    from ...commands.common import seed_or_drawn, split_names
    seed = seed_or_drawn(args.seed)    # none given: a fresh one, printed so the run can be repeated
    drawn = " (drawn)" if args.seed is None else ""
    if args.bots in ("tables", "boltzmann"):       # the first game's default: Secrets has no such bot
        table = evaluate_tables(games=args.games, n_players=args.players, seed=seed)
        print(f"Secrets beliefs at the end of {args.games} games of {args.players} per kind of table "
              f"({'; '.join(f'{k}: {chr(44).join(v)}' for k, v in TABLES.items())}), seed {seed}{drawn}, every "
              "observer, every seat and the middle (exact: seen only; types: the default, reading choices "
              "through a population of player types; vs_exact: log loss minus exact's, ci95 clustered by game):")
    else:
        bots = split_names(args.bots, "bot")
        table = evaluate(games=args.games, n_players=args.players, bots=bots, seed=seed)
        print(f"Secrets beliefs at the end of {args.games} games of {args.players} ({', '.join(bots)}), seed {seed}"
              f"{drawn}, every observer, every seat and the middle:")
    print(table.round(4).to_string())
    if getattr(args, "out", None):
        table.to_csv(args.out)
    return 0
