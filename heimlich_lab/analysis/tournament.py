"""Tournaments: many bots-only games over a grid, in parallel, as a tidy table.

:func:`tournament` plays every combination of player counts, rule variants and
bot line-ups, ``games`` times each, and returns one row per game and player:

>>> df = tournament(player_counts=(3,), variants=("basic",), bots=("random",), games=4, progress=False)
>>> df.shape[0], df["game_id"].nunique()
(12, 4)
>>> list(df.columns[:8])
['game_id', 'root_seed', 'game_index', 'seed', 'n_players', 'variant', 'top_secret', 'dossier']
>>> df.loc[0, ["player", "bot", "lineup"]].tolist()
['P1', 'random', 'random']

Reproducibility. Game ``k`` of every cell of the grid has the same seeds whatever the
executor, the order in which games finish or the number of games asked for
(:mod:`heimlich_lab.analysis.grid`).

Saving and resuming. With ``out="results.parquet"`` (or ``.csv``) finished
games are written as they come in (every ``flush_every`` seconds, and always
when the run stops, also on Ctrl-C). Running the same call again skips the
games already in the file, so an interrupted run resumes where it stopped;
:func:`~heimlich_lab.analysis.storage.load_results` reads the file back.

Interrupting a run (Ctrl-C) keeps the games already played, also without ``out``: the
``KeyboardInterrupt`` carries them as ``.partial`` (see :func:`interrupted_results`).

Parallel runs. ``n_jobs=1`` plays in this process; ``n_jobs > 1`` worker processes on this
machine (joblib's loky backend), or a Dask
cluster: give ``scheduler="tcp://host:8786"`` (or set the environment variable
``HEIMLICH_DASK_SCHEDULER``). Install Dask with ``pip install heimlich-lab[dask]``.

Summaries: :func:`~heimlich_lab.analysis.statistics.win_rates` and
:func:`~heimlich_lab.analysis.statistics.free_agent_win_rate` (with Wilson confidence
intervals, :func:`~heimlich_lab.analysis.statistics.wilson_interval`) and
:func:`~heimlich_lab.analysis.plots.plot_win_rates`.

The ideas live in their own modules: :mod:`~heimlich_lab.analysis.grid` (which games),
:mod:`~heimlich_lab.analysis.running` (playing them: here, joblib, Dask),
:mod:`~heimlich_lab.analysis.storage` (the table, saving and resuming),
:mod:`~heimlich_lab.analysis.statistics` and :mod:`~heimlich_lab.analysis.plots`. This module
puts them together.
"""
from __future__ import annotations

import os
import secrets
import sys
from typing import Callable, Iterable, Iterator

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .._compat import legacy_exports
from ..engine.registry import GameSpec, resolve
from ..errors import HeimlichError
from .grid import check_game, game_tasks
from .running import SCHEDULER_ENV, run_games
from .storage import ResultSink

__all__ = ["tournament", "interrupted_results", "resolve_evaluator", "SCHEDULER_ENV"]


def tournament(player_counts: "int | Iterable[int]" = (3,), variants=("basic",), bots=("random",),
               games: int = 100, seed: int | None = None, n_jobs: int = 1, scheduler=None,
               evaluate: "Callable | str | None" = None, out: "str | os.PathLike | None" = None,
               progress: bool = True, chunk_size: int | None = None, flush_every: float = 10.0,
               game: str | None = None, bot_files=None) -> pd.DataFrame:
    """Play a grid of bots-only games and return one row per game and player.

    Parameters
    ----------
    player_counts:
        Table sizes, e.g. ``(3, 5, 7)``.
    variants:
        Variant names (``basic``, ``top_secret``, ``dossier``, ``both``; ``+unoccupied`` for the
        older safe rule), :class:`~heimlich_lab.Rules` objects, dicts of Rules options, or a dict
        ``{label: any of these}``.
    bots:
        Bot line-ups; each is a string (``"random"``, ``"random,greedy,random"``,
        ``"rotate:random,greedy"``), a list of bot names, or a
        :class:`~heimlich_lab.analysis.grid.Lineup`. A single string is one line-up. Bots are made by name from the
        registry (:func:`heimlich_lab.bots.make_bot`).
    games:
        Games per cell of the grid.
    seed:
        Root seed of the tournament. ``None`` (the default): a fresh one from the OS, recorded in
        ``root_seed`` (or, when ``out`` holds one run's games, that run's: rerunning resumes); a known or
        small root seed lets a bot guess its games' chance (docs/rules.md#seeds). Game ``k`` of
        every cell of the grid uses ``numpy.random.SeedSequence(seed).spawn(games)[k]``: the cells share
        their seeds on purpose (common random numbers, so bots and variants are compared on the
        same deals and dice as far as the games agree).
    n_jobs:
        ``1`` (default) plays in this process, one game at a time (with ``evaluate="beliefs"``, a few: their
        beliefs are read together, see :data:`~heimlich_lab.analysis.running.READ_AFTER`); ``n_jobs > 1`` uses that many
        joblib worker processes (the loky backend), ``-1`` one per core. Results are the same
        either way. Ignored on a Dask cluster.
    scheduler:
        A Dask scheduler address (``"tcp://127.0.0.1:8786"``) or a ``distributed.Client``; by
        default the environment variable ``HEIMLICH_DASK_SCHEDULER``, if set. ``False`` forces
        local processes.
    evaluate:
        ``"beliefs"``: every player's exact belief scored at the dossier mark (log loss, Brier score,
        accuracy, expected and actual correct dossier entries; see
        :class:`~heimlich_lab.analysis.beliefs.BeliefEvaluator`). Or a hook ``evaluate(record) -> dict`` called with
        each finished game's full :class:`~heimlich_lab.GameRecord` (e.g. how well a belief guessed the identities). A
        scalar value is copied to every player's row; a dict ``{player: value}`` goes to that player's row. It runs in
        the worker processes, so it must be picklable (cloudpickle: lambdas are fine). An evaluator with a method
        ``evaluate_game(game) -> dict`` is given the finished game instead (one that watched it needs no record), and
        one with ``evaluate_games(games) -> list[dict]`` a few finished games at a time.
    out:
        ``.parquet`` or ``.csv`` file to save to. Games already in it are skipped (resume).
    progress:
        Show a progress bar (tqdm; a widget in Jupyter).
    chunk_size:
        Games per unit of work (default: chosen from the number of games and workers).
    flush_every:
        Seconds between writes to ``out``.
    game:
        The name of a registered game (:func:`heimlich_lab.engine.registry.game_names`); ``None`` (the
        default): the first, Heimlich & Co. Its spec gives its player counts, bots, variants, the table's
        columns and the named evaluators. The second game, Secrets: 4 to 8 players, its bots (``random``,
        ``team``, ``bluff``), variants ``basic``, ``double_agent=N``, a
        :class:`~heimlich_lab.games.secrets.SecretsRules` or a dict of its options; the columns are
        :data:`~heimlich_lab.games.secrets.analysis.COLUMNS` (``team`` the identity that counted at the end),
        and ``evaluate="beliefs"`` scores each observer's exact filter at the end of the game
        (:class:`~heimlich_lab.games.secrets.analysis.SecretsBeliefEvaluator`).
    bot_files:
        Bots in Python files, named in ``bots`` like any bot: a list of paths (each named by its file name,
        ``student.py`` is ``student``), a dict ``{name: path}``, or :class:`~heimlich_lab.sandbox.BotFile`
        objects. Each runs **in its own process** (docs/rules.md#bots-out-of-process: a time limit per
        decision, a memory limit, and a fault rule) unless its ``BotFile`` says ``sandbox=False``. Every file
        is loaded once before any game; one that breaks the contract is an error then. The table gains the
        columns ``bot_faults`` (decisions the fallback took) and ``bot_fault`` (the first, in words).

    Interrupting (Ctrl-C, or interrupting the Jupyter kernel) keeps the games already played: the
    ``KeyboardInterrupt`` carries them as a table in ``.partial`` (also returned by
    :func:`interrupted_results`), and with ``out=`` they are saved too.

    Returns the table of the requested grid (including games loaded from ``out``), in grid order.
    Columns: the game's (for Heimlich & Co. :data:`~heimlich_lab.games.heimlich.analysis.COLUMNS`); ``seat`` counts from
    1 (``P1`` begins); ``agent`` is the dealt agent, ``agents`` every agent controlled (a second agent from the Top
    Secret card), ``final_agent`` the one that counted at the end; ``won`` includes shared wins; ``free_agent_won``
    means no player won.
    """
    game = check_game(game).name
    if not isinstance(games, (int, np.integer)) or isinstance(games, bool) or games < 0:
        raise HeimlichError(f"games must be a whole number >= 0, not {games!r}")
    sink = ResultSink(out, flush_every, game)
    if seed is None:
        roots = set(sink.saved["root_seed"]) if len(sink.saved) else set()
        seed = int(roots.pop()) if len(roots) == 1 else secrets.randbits(63)
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise HeimlichError(f"seed must be a whole number >= 0, not {seed!r}")
    seed = int(seed)
    evaluate = resolve_evaluator(evaluate, game)
    if evaluate is not None and not callable(evaluate):
        raise HeimlichError("evaluate must be a function evaluate(record) -> dict of metrics, or \"beliefs\"")
    extra = _bot_files(bot_files, game)
    tasks = game_tasks(player_counts, variants, bots, int(games), seed, game, extra_bots=extra)
    game_ids = [t.game_id for t in tasks]

    done_ids = set(sink.saved["game_id"]) if len(sink.saved) else set()
    todo = [t for t in tasks if t.game_id not in done_ids]
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), unit="game", desc="tournament",
               disable=not progress, file=sys.stderr, dynamic_ncols=True)
    results: Iterator[list[dict]] = run_games(todo, evaluate, n_jobs, scheduler, chunk_size)
    global _LAST_PARTIAL
    try:
        for rows in results:
            sink.add(rows)
            bar.update(len({r["game_id"] for r in rows}))
    except KeyboardInterrupt as exc:
        sink.flush()
        partial = sink.table(game_ids)
        exc.partial = _LAST_PARTIAL = partial  # type: ignore[attr-defined]  # the table rides on the interrupt
        where = f"; they are saved in {sink.path}: run the same call again to play the rest" if sink.path else ""
        print(f"\ninterrupted after {partial['game_id'].nunique() if len(partial) else 0} games{where}. "
              f"The games played are kept: `except KeyboardInterrupt as e: df = e.partial`, or "
              f"heimlich_lab.analysis.tournament.interrupted_results()", file=sys.stderr)
        raise
    finally:
        if hasattr(results, "close"):
            results.close()
        sink.flush()
        bar.close()
    return sink.table(game_ids)


def _bot_files(bot_files, game: str) -> dict:
    """name -> BotFile, checked (each file loaded once, out of process unless trusted)."""
    if not bot_files:
        return {}
    from ..bots.registry import available_bots
    from ..sandbox import BotFile
    items: "Iterable[tuple[str | None, object]]"
    if isinstance(bot_files, dict):
        items = bot_files.items()
    else:
        one = isinstance(bot_files, (str, os.PathLike, BotFile))
        items = [(None, b) for b in ([bot_files] if one else bot_files)]
    out = {}
    for name, spec in items:
        if not isinstance(spec, BotFile):
            spec = BotFile(str(spec), name=name or "", game=game)
        elif name and name != spec.name:
            spec = BotFile(**{**spec.__dict__, "name": name})
        if spec.name in available_bots(game) or spec.name in out or "," in spec.name or "|" in spec.name \
                or spec.name.startswith("rotate:"):
            raise HeimlichError(f"bot file {spec.path}: the name {spec.name!r} is taken or cannot be used in a "
                                "line-up; give another (NAME=PATH on the command line)")
        spec.check()
        out[spec.name] = spec
    return out


def resolve_evaluator(evaluate, game: str | GameSpec | None = None):
    """A named evaluator (``"beliefs"``) of ``game`` (its spec's ``TournamentSpec.evaluators``), or the
    callable itself."""
    if isinstance(evaluate, str):
        named = check_game(game).load("tournament").evaluators
        try:
            return resolve(named[evaluate.strip().lower()])()
        except KeyError:
            raise HeimlichError(f"unknown evaluator {evaluate!r}; named evaluators are "
                                f"{', '.join(sorted(named))} (or give a function evaluate(record) -> dict)") from None
    return evaluate


#: The table of the last interrupted run in this process (see :func:`interrupted_results`).
_LAST_PARTIAL: pd.DataFrame | None = None


def interrupted_results() -> pd.DataFrame | None:
    """The games played by the last :func:`tournament` call of this process that was interrupted
    (Ctrl-C, or "interrupt the kernel" in Jupyter), as a table; ``None`` if none was interrupted.

    The same table is attached to the ``KeyboardInterrupt`` as ``.partial``.
    """
    return _LAST_PARTIAL


# the first game's columns, which this module exported before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
