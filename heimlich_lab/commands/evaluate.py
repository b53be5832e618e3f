"""``heimlich-lab evaluate``: how well do beliefs find the agents? Self-play, scored at the dossier mark.

Bots (by name, from the registry) play seeded games. At the dossier mark
(the first marker reaches 29; at the end for a game that never gets there)
every player's belief is scored against who really controls which agent,
for four methods:

* ``exact``: the exact posterior (:class:`~heimlich_lab.inference.belief.Belief`);
* ``independent``: one belief per player, ignoring that agents are exclusive;
* ``points-share``: "a player controls the agents they push";
* ``uniform``: no observation at all (the prior given one's own card).

Scores (means over games and players, the player's own agents left out):
log loss, Brier score, accuracy of the most probable owner, expected and
actual number of correct dossier entries (of the sheet that names each
agent's most probable owner).

>>> table, _ = evaluate(games=2, n_players=3, bots=["random"], seed=1, progress=False)
>>> list(table.index)
['exact', 'independent', 'points-share', 'uniform']
>>> list(table.columns)
['log_loss', 'brier', 'accuracy', 'expected_correct', 'actual_correct']
"""
from __future__ import annotations

import time

import pandas as pd

from ..bots.registry import make_bot
from ..errors import HeimlichError
from ..inference.belief import BeliefSet
from ..inference.metrics import score_belief
from ..play import play_game
from ..rules.ruleset import Rules
from .common import (MAX_CLI_SEED, add_rules_arguments, add_seed_argument, finite_number, out_file, rules_from,
                     seed_or_drawn, split_names, whole_number)

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
METHODS = ("exact", "independent", "points-share", "uniform")
METRICS = ("log_loss", "brier", "accuracy", "expected_correct", "actual_correct")


def register(sub):
    p = sub.add_parser("evaluate",
                       help="score beliefs (exact, baselines, uniform) at the dossier mark of self-play games")
    p.add_argument("--games", type=whole_number(1), default=100, help="number of games (default 100)")
    p.add_argument("--players", type=whole_number(2), default=5, help="number of players, 2 to 7 (default 5)")
    p.add_argument("--bots", default="boltzmann",
                   help="bot names, comma-separated: cycled over the seats, the first seat rotating from game to "
                        "game (default: boltzmann)")
    p.add_argument("--no-rotate", action="store_true", help="keep the bots on the same seats in every game")
    add_seed_argument(p, "the evaluation (game k's seed and its bots' seeds are drawn from it as a "
                         "tournament's game k)")
    p.add_argument("--beta", type=finite_number, default=1.0, help="the beliefs' BoltzmannModel beta (default 1)")
    p.add_argument("--epsilon", type=finite_number, default=0.05,
                   help="the beliefs' BoltzmannModel epsilon (default 0.05)")
    add_rules_arguments(p)
    p.add_argument("--game", choices=("heimlich", "secrets"), default="heimlich",
                   help="heimlich (default) or secrets: its beliefs at the end, per method (exact, model, prior)")
    p.add_argument("--out", type=out_file(".csv"), default=None,
                   help="also save every score (one row per game, player, method) as CSV")
    p.set_defaults(func=run)


def lineup(bots: list[str], n_players: int, game: int, rotate: bool = True) -> list[str]:
    """The bot of each seat in game number ``game``.

    >>> lineup(["a", "b"], 3, 0), lineup(["a", "b"], 3, 1)
    (['a', 'b', 'a'], ['b', 'a', 'b'])
    """
    off = game % len(bots) if rotate else 0
    return [bots[(off + i) % len(bots)] for i in range(n_players)]


def evaluate(games: int, n_players: int, bots: list[str], seed: int | None = None, rules: Rules | None = None,
             model=None, rotate: bool = True, progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play and score; returns ``(table, scores)``: the mean per method, and every score.

    ``scores`` has one row per (game, player, method) with the metrics, the
    bot of the player, and whether the game reached the dossier mark. Game ``k``'s seed and its bots'
    seeds are :func:`~heimlich_lab.analysis.game_seeds` ``(seed, k, n_players)``; ``seed=None`` draws one
    from the OS (kept in the ``root_seed`` column).
    """
    from ..inference.model import BoltzmannModel
    from ..analysis import game_seeds
    if not 2 <= n_players <= 7:
        raise HeimlichError(f"Heimlich & Co. is for 2 to 7 players, not {n_players}")
    if games < 1:
        raise HeimlichError("--games must be at least 1")
    for b in set(bots):
        make_bot(b, seed=0)  # unknown names fail now, with the list of bots
    if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_CLI_SEED):
        raise HeimlichError(f"seed must be a whole number from 0 to 2**63 - 1, or None, not {seed!r}")
    seed = seed_or_drawn(seed)
    rules = Rules() if rules is None else rules
    model = BoltzmannModel() if model is None else model
    players = list(NAMES[:n_players])
    rows = []
    it = range(games)
    if progress:
        from tqdm import tqdm
        it = tqdm(it, desc="evaluate", unit="game")
    for gi in it:
        names = lineup(bots, n_players, gi, rotate)
        gseed, seeds = game_seeds(seed, gi, n_players)
        game = play_game(rules, {p: make_bot(b, seed=s) for p, b, s in zip(players, names, seeds)}, seed=gseed)
        rec = game.record
        bs = BeliefSet.from_record(rec, model=model, until="dossier", baselines=True, keep_updates=False)
        owners = bs.truth
        agents = list(bs.agents)
        for p, bot in zip(players, names):
            exact = bs[p]
            own = list(exact.own_agents)   # what the observer holds at the stop (truth is the final owners)
            tables = {
                "exact": exact.marginals_array(),
                "independent": bs.independent[p].marginals_array(normalize=True),
                "points-share": bs.points_share[p].marginals_array(normalize=True),
                "uniform": exact.marginals_history()[0],
            }
            for method, m in tables.items():
                s = score_belief(m, players, agents, owners, observer=p, own_agents=own)
                rows.append({"game": gi, "seed": gseed, "player": p, "bot": bot, "method": method,
                             "at_mark": bs.at_mark, **s, "root_seed": seed})
    scores = pd.DataFrame(rows)
    table = scores.groupby("method")[list(METRICS)].mean().reindex(list(METHODS))
    return table, scores


def run(args) -> int:
    if args.game == "secrets":
        from ..secrets.cli import run_evaluate
        return run_evaluate(args)
    from ..inference.model import BoltzmannModel
    bots = split_names(args.bots, "bot")
    rules = rules_from(args)
    model = BoltzmannModel(beta=args.beta, epsilon=args.epsilon)
    t0 = time.perf_counter()
    seed = seed_or_drawn(args.seed)
    table, scores = evaluate(args.games, args.players, bots, seed=seed, rules=rules, model=model,
                             rotate=not args.no_rotate)
    dt = time.perf_counter() - t0
    n_games = scores.game.nunique()
    reached = scores.groupby("game").at_mark.first().mean()
    variant = ("Top Secret" if rules.top_secret else "basic") + (" + Secret Dossier" if rules.dossier else "")
    print(f"{n_games} games, {args.players} players ({variant}), bots {', '.join(bots)}, seed {seed}"
          f"{' (drawn)' if args.seed is None else ''}; "
          f"beliefs: BoltzmannModel(beta={model.beta:g}, epsilon={model.epsilon:g})")
    print(f"scored at the dossier mark ({reached:.0%} of games reached it; the others at their end), "
          f"per player, own agents left out; {dt:.1f} s")
    n_entries = len(scores[scores.method == "exact"])
    sem = scores.groupby("method")[list(METRICS)].sem().reindex(list(METHODS))
    with pd.option_context("display.float_format", "{:.3f}".format, "display.width", 120):
        print(table.rename(columns={"log_loss": "log loss", "expected_correct": "expected correct",
                                    "actual_correct": "actual correct"}).to_string())
        print(f"(standard errors over {n_entries} player-games, not independent within a game: "
              f"log loss {sem.log_loss.max():.3f}, accuracy {sem.accuracy.max():.3f} at most)")
    if args.out:
        scores.to_csv(args.out, index=False)
        print(f"Scores saved to {args.out}")
    return 0
