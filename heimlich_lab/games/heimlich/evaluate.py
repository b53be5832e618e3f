"""``heimlich-lab evaluate`` of Heimlich & Co.: how well do beliefs find the agents? Self-play, scored at the
dossier mark.

Bots (by name, from the registry) play seeded games. At the dossier mark
(the first marker reaches 29; at the end for a game that never gets there)
every player's belief is scored against who really controls which agent,
for four methods:

* ``exact``: the exact posterior (:class:`~heimlich_lab.games.heimlich.inference.belief.Belief`);
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

import math
import time

import numpy as np
import pandas as pd

from ...bots.registry import make_bot
from ...commands.common import MAX_CLI_SEED, seed_or_drawn, split_names
from ...engine.play import SEAT_NAMES
from ...errors import HeimlichError
from ...inference.metrics import (
    binary_events,
    calibration_z_scores,
    expected_calibration_error,
    plot_calibration,
    score_belief,
    truth_table,
)
from .cli import rules_from
from .inference.belief import BeliefSet
from .play import play_game
from .rules.ruleset import Rules

NAMES = SEAT_NAMES[:7]
METHODS = ("exact", "independent", "points-share", "uniform")
METRICS = ("log_loss", "brier", "accuracy", "expected_correct", "actual_correct")


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
    from .inference.likelihoods import default_model
    _check_evaluation(games, n_players, seed)
    for b in set(bots):
        make_bot(b, seed=0)  # unknown names fail now, with the list of bots
    seed = seed_or_drawn(seed)
    rules = Rules() if rules is None else rules
    model = default_model() if model is None else model
    players = list(NAMES[:n_players])
    rows = []
    it = range(games)
    if progress:
        from tqdm import tqdm
        it = tqdm(it, desc="evaluate", unit="game")
    for gi in it:
        rows += score_game(gi, seed, rules, players, lineup(bots, n_players, gi, rotate), {"exact": model})[0]
    scores = pd.DataFrame(rows)
    table = scores.groupby("method")[list(METRICS)].mean().reindex(list(METHODS))
    return table, scores


def _check_evaluation(games: int, n_players: int, seed) -> None:
    if not 2 <= n_players <= 7:
        raise HeimlichError(f"Heimlich & Co. is for 2 to 7 players, not {n_players}")
    if games < 1:
        raise HeimlichError("--games must be at least 1")
    if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_CLI_SEED):
        raise HeimlichError(f"seed must be a whole number from 0 to 2**63 - 1, or None, not {seed!r}")


def score_game(gi: int, seed: int, rules: Rules, players: list[str], names: list[str], models: dict):
    """Play game ``gi`` of an evaluation and score every player's beliefs at the dossier mark.

    ``models``: method name -> player model (the first also gives the baselines). Returns ``(rows,
    events)``: one row per (player, method), and per method the binary events "row r controls agent a"
    of every belief, ``(predicted, outcome)`` arrays, for calibration.
    """
    from ...analysis import game_seeds
    gseed, seeds = game_seeds(seed, gi, len(players))
    game = play_game(rules, {p: make_bot(b, seed=s) for p, b, s in zip(players, names, seeds)}, seed=gseed)
    rec = game.record
    sets = {name: BeliefSet.from_record(rec, model=m, until="dossier", baselines=(i == 0), keep_updates=False)
            for i, (name, m) in enumerate(models.items())}
    first = next(iter(sets.values()))
    owners = first.truth
    agents = list(first.agents)
    truth = truth_table(players, agents, owners)
    rows, events = [], {}
    for p, bot in zip(players, names):
        own = list(first[p].own_agents)   # what the observer holds at the stop (truth is the final owners)
        tables = {name: bs[p].marginals_array() for name, bs in sets.items()}
        tables.update({"independent": first.independent[p].marginals_array(normalize=True),
                       "points-share": first.points_share[p].marginals_array(normalize=True),
                       "uniform": first[p].marginals_history()[0]})
        opponents = [i for i, q in enumerate(players) if q != p] + [len(players)]
        for method, m in tables.items():
            s = score_belief(m, players, agents, owners, observer=p, own_agents=own)
            rows.append({"game": gi, "seed": gseed, "player": p, "bot": bot, "method": method,
                         "at_mark": first.at_mark, **s, "root_seed": seed})
            pe, ye = binary_events(m, truth, opponents, np.array([a not in own for a in agents]))
            old = events.get(method, ((), (), ()))
            events[method] = (np.concatenate([old[0], pe]), np.concatenate([old[1], ye]),
                              np.concatenate([old[2], np.full(len(pe), gi)]))
    return rows, events


#: The population grid's named populations: the bots of each seat, cycled (``mixed``: one of each).
POPULATIONS = {"random": ["random"], "greedy": ["greedy"], "boltzmann": ["boltzmann"], "bluff": ["bluff"],
               "mixed": ["random", "greedy", "boltzmann", "bluff"]}


def population(text: str) -> tuple[str, list[str]]:
    """A population of the grid by name (:data:`POPULATIONS`) or as a mix of bots joined by ``+``.

    >>> population("mixed"), population("random+bluff")
    (('mixed', ['random', 'greedy', 'boltzmann', 'bluff']), ('random+bluff', ['random', 'bluff']))
    """
    if text in POPULATIONS:
        return text, list(POPULATIONS[text])
    bots = [b.strip() for b in text.split("+") if b.strip()]
    if not bots:
        raise HeimlichError(f"not a population: {text!r} (a name of {', '.join(POPULATIONS)} or bots joined by +)")
    for b in set(bots):
        make_bot(b, seed=0)  # unknown names fail now, with the list of bots
    return text, bots


def evaluate_populations(populations, games: int, n_players: int, seed: int | None = None,
                         rules: Rules | None = None, model=None, compare=None, progress: bool = True) -> dict:
    """The evaluation on each population of the grid: ``{name: (table, scores, events)}``.

    ``populations``: names or mixes (:func:`population`). ``model``: the beliefs' model (default the
    kit's :func:`~heimlich_lab.games.heimlich.inference.likelihoods.default_model`); ``compare``: a second model
    scored beside it as ``"compare"`` (say the single BoltzmannModel). ``table`` has a row per method
    (exact, compare, independent, points-share, uniform) and the metrics plus ``ece`` (expected
    calibration error of the binary events "player r controls agent a", 10 bins) and ``max_z`` (the
    largest per-bin z-score, clustered by game). Every population is played on the same seeds.
    """
    from .inference.likelihoods import default_model
    _check_evaluation(games, n_players, seed)
    grid = [population(text) for text in populations]   # every name checked before any game
    model = default_model() if model is None else model
    models = {"exact": model, **({"compare": compare} if compare is not None else {})}
    seed = seed_or_drawn(seed)
    rules = Rules() if rules is None else rules
    players = list(NAMES[:n_players])
    out = {}
    for name, bots in grid:
        rows, events = [], {}
        it = range(games)
        if progress:
            from tqdm import tqdm
            it = tqdm(it, desc=name, unit="game")
        for gi in it:
            r, e = score_game(gi, seed, rules, players, lineup(bots, n_players, gi), models)
            rows += r
            for k, (pe, ye, ge) in e.items():
                old = events.get(k, ((), (), ()))
                events[k] = tuple(np.concatenate([a, b]) for a, b in zip(old, (pe, ye, ge)))
        scores = pd.DataFrame(rows)
        methods = [m for m in ("exact", "compare", *METHODS[1:]) if m in events]
        table = scores.groupby("method")[list(METRICS)].mean().reindex(methods)
        table["ece"] = [expected_calibration_error(events[m][0], events[m][1]) for m in methods]
        table["max_z"] = [calibration_z_scores(*events[m]).z.abs().max() for m in methods]
        out[name] = (table, scores, events)
    return out


#: The quality targets :func:`check_targets` reads (the kit's targets for its default belief).
HONEST_LOG_LOSS = 0.02      # log loss at most the uniform prior's + this, on every population
HONEST_CORRECT = 0.1        # correct entries at least points-share's - this, on every population
CHEAP_RATIO = 1.05          # log loss at most this x the compared model's, where that model is right
USEFUL_RATIO = 1.1          # correct entries at least this x points-share's, on mixed tables
SHARP_RATIO = 1.15          # correct entries at least this x points-share's, on tables of careful hiders
MAX_ECE = 0.03
MAX_Z = 3.29                # two-sided 0.001 for one bin's z-score


def _difference(a, b, axis=-1):
    return a.mean(axis=axis) - b.mean(axis=axis)


def _ratio(a, b, axis=-1):
    return a.mean(axis=axis) / b.mean(axis=axis)


def _interval(stat, samples, confidence: float, resamples: int, seed: int) -> tuple[float, float]:
    """A percentile bootstrap interval of ``stat`` over games (paired samples, one value per game)."""
    from scipy.stats import bootstrap
    if len(samples[0]) < 2:
        return math.nan, math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        res = bootstrap(samples, stat, paired=True, vectorized=True, confidence_level=confidence,
                        n_resamples=resamples, method="percentile", random_state=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def check_targets(results: dict, *, cheap_on=("greedy", "boltzmann"), useful_on=("mixed",), sharp_on=("hider",),
                  confidence: float = 0.95, resamples: int = 2000, seed: int = 0) -> pd.DataFrame:
    """The quality targets of a population grid's evaluation, each with a bootstrap interval over games.

    ``results`` is :func:`evaluate_populations`'s output. Games are the independent units (a game's
    players see the same moves), so the intervals resample whole games, every method's scores of a game
    together. Targets, on each population:

    * ``log loss - uniform <= 0.02`` and ``correct - points-share >= -0.1`` (honest);
    * ``log loss / compare <= 1.05`` on ``cheap_on`` (robustness is cheap where the compared model is right;
      needs ``compare``);
    * ``correct / points-share >= 1.1`` on ``useful_on``;
    * ``correct / points-share >= 1.15`` on ``sharp_on`` (tables of careful players who hide: the ``hider`` bot);
    * ``ECE <= 0.03`` and ``max |z| <= 3.29``: points, no interval.

    ``estimate`` is the target's left-hand side over all the games. ``verdict`` is ``yes`` when the whole
    interval meets the target, ``no`` when none of it does, and ``undecided`` when the games cannot tell
    (for ECE and z: the point decides).

    >>> from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
    >>> res = evaluate_populations(["random"], games=4, n_players=3, seed=1, compare=BoltzmannModel(),
    ...                            progress=False)
    >>> t = check_targets(res, resamples=200)
    >>> list(t.target)
    ['log loss - uniform <= 0.02', 'correct - points-share >= -0.1', 'ECE <= 0.03', 'max |z| <= 3.29']
    >>> set(t.verdict) <= {"yes", "no", "undecided"}
    True
    """
    rows = []
    for name, (table, scores, _) in results.items():
        games = scores.groupby(["game", "method"])[["log_loss", "actual_correct"]].mean().unstack("method")
        ll, correct = games["log_loss"], games["actual_correct"]
        checks = [(f"log loss - uniform <= {HONEST_LOG_LOSS:g}", (ll["exact"], ll["uniform"]), _difference,
                   HONEST_LOG_LOSS, "<="),
                  (f"correct - points-share >= {-HONEST_CORRECT:g}", (correct["exact"], correct["points-share"]),
                   _difference, -HONEST_CORRECT, ">=")]
        if name in cheap_on and "compare" in ll:
            checks.append((f"log loss / compare <= {CHEAP_RATIO:g}", (ll["exact"], ll["compare"]), _ratio,
                           CHEAP_RATIO, "<="))
        if name in useful_on:
            checks.append((f"correct / points-share >= {USEFUL_RATIO:g}", (correct["exact"], correct["points-share"]),
                           _ratio, USEFUL_RATIO, ">="))
        if name in sharp_on:
            checks.append((f"correct / points-share >= {SHARP_RATIO:g}", (correct["exact"], correct["points-share"]),
                           _ratio, SHARP_RATIO, ">="))
        for target, samples, stat, bound, sense in checks:
            samples = tuple(s.to_numpy() for s in samples)
            with np.errstate(divide="ignore", invalid="ignore"):
                estimate = float(stat(*samples))
            low, high = _interval(stat, samples, confidence, resamples, seed)
            ok = (lambda v, bound=bound: v <= bound) if sense == "<=" else (lambda v, bound=bound: v >= bound)
            verdict = "undecided" if math.isnan(low) else \
                "yes" if ok(low) and ok(high) else "no" if not ok(low) and not ok(high) else "undecided"
            rows.append({"population": name, "target": target, "estimate": estimate, "low": low, "high": high,
                         "verdict": verdict})
        for target, value, bound in ((f"ECE <= {MAX_ECE:g}", table.loc["exact", "ece"], MAX_ECE),
                                     (f"max |z| <= {MAX_Z:g}", table.loc["exact", "max_z"], MAX_Z)):
            rows.append({"population": name, "target": target, "estimate": float(value), "low": math.nan,
                         "high": math.nan, "verdict": "yes" if value <= bound else "no"})
    return pd.DataFrame(rows, columns=["population", "target", "estimate", "low", "high", "verdict"])


def plot_reliability(events: dict, title: str, path) -> None:
    """A reliability diagram of each method's binary events, saved to ``path`` (matplotlib)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 5))
    for method in ("exact", "compare", "independent", "points-share"):
        if method in events:
            plot_calibration(events[method][0], events[method][1], ax=ax, label=method)
    ax.set_title(title)
    ax.legend(loc="upper left")
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)


def run(args) -> int:
    """``heimlich-lab evaluate --game heimlich``, with the options of
    :func:`heimlich_lab.games.heimlich.cli.add_arguments`."""
    from .inference.model import BoltzmannModel
    if args.populations:
        return run_populations(args)
    for flag, value in (("--plots", args.plots), ("--targets", args.targets)):
        if value:
            raise HeimlichError(f"{flag} goes with --populations (one reliability diagram and one set of targets "
                                f"per population)")
    bots = split_names(args.bots, "bot")
    rules = rules_from(args)
    single = BoltzmannModel(beta=args.beta, epsilon=args.epsilon)
    model = single if args.model == "boltzmann" else _robust(args.model)
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
          f"beliefs: {_model_words(model)}")
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


def _model_words(model) -> str:
    """A model as the command line names it."""
    if hasattr(model, "type_names"):
        kinds = len(getattr(model, "table_names", ())) or 1
        return f"the robust population ({len(model.type_names)} player types, {kinds} kinds of table)"
    return f"BoltzmannModel(beta={model.beta:g}, epsilon={model.epsilon:g})"


def _robust(name: str):
    """The population of ``--model robust`` (the default) or ``--model hiders`` (its hider who covers of secrecy 2)."""
    from .inference.player_types import careful_hiders_population, default_population
    return careful_hiders_population() if name == "hiders" else default_population()


def run_populations(args) -> int:
    """``evaluate --populations ...``: one table (and reliability diagram) per population."""
    from pathlib import Path

    from .inference.model import BoltzmannModel
    grid = split_names(args.populations, "population")
    single = BoltzmannModel(beta=args.beta, epsilon=args.epsilon)
    model, compare = (single, None) if args.model == "boltzmann" else (_robust(args.model), single)
    rules = rules_from(args)
    seed = seed_or_drawn(args.seed)
    t0 = time.perf_counter()
    results = evaluate_populations(grid, args.games, args.players, seed, rules, model, compare)
    variant = ("Top Secret" if rules.top_secret else "basic") + (" + Secret Dossier" if rules.dossier else "")
    print(f"{args.games} games per population, {args.players} players ({variant}), seed {seed}"
          f"{' (drawn)' if args.seed is None else ''}; exact: {_model_words(model)}"
          f"{f'; compare: {_model_words(compare)}' if compare else ''}; scored at the dossier mark, per player, "
          f"own agents left out; {time.perf_counter() - t0:.1f} s")
    if args.plots:
        Path(args.plots).mkdir(parents=True, exist_ok=True)
    frames = []
    for name, (table, scores, events) in results.items():
        print(f"\n== {name} ==")
        with pd.option_context("display.float_format", "{:.3f}".format, "display.width", 120):
            print(table.rename(columns={"log_loss": "log loss", "expected_correct": "expected correct",
                                        "actual_correct": "actual correct", "max_z": "max |z|"}).to_string())
        if args.plots:
            path = Path(args.plots) / f"reliability-{name.replace('+', '-')}.png"
            plot_reliability(events, f"{name}: {args.games} games, {args.players} players", path)
            print(f"reliability diagram: {path}")
        frames.append(scores.assign(population=name))
    if args.targets:
        checks = check_targets(results, seed=seed)
        print(f"\n== targets: estimate and 95% interval over games (bootstrap, {args.games} games per population) ==")
        with pd.option_context("display.float_format", "{:.3f}".format, "display.width", 120):
            print(checks.to_string(index=False))
        print("yes: the whole interval meets the target; no: none of it does; undecided: these games cannot tell")
    if args.out:
        pd.concat(frames).to_csv(args.out, index=False)
        print(f"Scores saved to {args.out}")
    return 0
