"""Experiments at scale: tournaments of bots over a grid of settings, and their summaries.

>>> from heimlich_lab.analysis import tournament, win_rates
>>> df = tournament(player_counts=3, variants="basic", bots="random", games=2, progress=False)
>>> win_rates(df, by="bot")[["bot", "games"]].values.tolist()
[['random', 6]]

(``heimlich_lab.analysis.tournament`` is the function; the module is
``sys.modules["heimlich_lab.analysis.tournament"]``.) The modules, one idea each: ``grid``
(which games), ``running`` (playing them), ``storage`` (the table and its files),
``statistics`` (win rates), ``plots``, ``tournament`` (all of them together) and ``beliefs``
(scoring every player's belief per game). ``tournament(..., game="secrets")`` plays the second game.
``class_games`` reads the games a class played on the board (:func:`load_class_games`,
:func:`class_records`, :func:`class_games_or_simulated`; docs/class-data.md).
"""
from .beliefs import BeliefEvaluator, SecretsBeliefEvaluator
from .class_games import ClassGames, ClassRecords, class_games_or_simulated, class_records, load_class_games
from .grid import Lineup, game_seeds, parse_variant
from .plots import plot_win_rates
from .statistics import free_agent_win_rate, wilson_interval, win_rates
from .storage import load_results
from .tournament import interrupted_results, tournament

__all__ = ["tournament", "load_results", "win_rates", "free_agent_win_rate", "plot_win_rates", "wilson_interval",
           "game_seeds", "parse_variant", "Lineup", "BeliefEvaluator", "SecretsBeliefEvaluator", "interrupted_results",
           "ClassGames", "ClassRecords", "load_class_games", "class_records", "class_games_or_simulated"]
