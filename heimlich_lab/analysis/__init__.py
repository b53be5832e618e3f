"""Experiments at scale: tournaments of bots over a grid of settings, and their summaries.

>>> from heimlich_lab.analysis import tournament, win_rates
>>> df = tournament(player_counts=3, variants="basic", bots="random", games=2, progress=False)
>>> win_rates(df, by="bot")[["bot", "games"]].values.tolist()
[['random', 6]]

(``heimlich_lab.analysis.tournament`` is the function; the module is
``sys.modules["heimlich_lab.analysis.tournament"]``.) The modules, one idea each: ``grid``
(which games), ``running`` (playing them), ``storage`` (the table and its files),
``statistics`` (win rates), ``plots`` and ``tournament`` (all of them together). They know no game: each
game's table (its columns, rows, variants and belief evaluator) comes from its spec in the registry
(:mod:`heimlich_lab.engine.registry`), and ``tournament(..., game=NAME)`` plays any registered game.
``class_games`` reads the games a class played on the board (:func:`load_class_games`,
:func:`class_records`, :func:`class_games_or_simulated`; docs/class-data.md).
"""
from .._compat import EXPORTS, legacy_exports
from .class_games import ClassGames, ClassRecords, class_games_or_simulated, class_records, load_class_games
from .grid import Lineup, game_seeds
from .plots import plot_win_rates
from .statistics import free_agent_win_rate, wilson_interval, win_rates
from .storage import load_results
from .tournament import interrupted_results, tournament

__all__ = ["tournament", "load_results", "win_rates", "free_agent_win_rate", "plot_win_rates", "wilson_interval",
           "game_seeds", "Lineup", "interrupted_results",
           "ClassGames", "ClassRecords", "load_class_games", "class_records", "class_games_or_simulated",
           *sorted(EXPORTS[__name__])]

# the games' variants and evaluators, which this package exported before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
