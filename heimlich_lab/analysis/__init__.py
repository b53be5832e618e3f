"""Experiments at scale: tournaments of bots over a grid of settings, and their summaries.

>>> from heimlich_lab.analysis import tournament, win_rates
>>> df = tournament(player_counts=3, variants="basic", bots="random", games=2, progress=False)
>>> win_rates(df, by="bot")[["bot", "games"]].values.tolist()
[['random', 6]]

(``heimlich_lab.analysis.tournament`` is the function; the module is
``sys.modules["heimlich_lab.analysis.tournament"]``.)
"""
from .beliefs import BeliefEvaluator
from .tournament import (Lineup, free_agent_win_rate, game_seeds, interrupted_results, load_results, parse_variant,
                         plot_win_rates,
                         tournament, wilson_interval, win_rates)

__all__ = ["tournament", "load_results", "win_rates", "free_agent_win_rate", "plot_win_rates", "wilson_interval",
           "game_seeds", "parse_variant", "Lineup", "BeliefEvaluator", "interrupted_results"]
