"""Bayesian deduction, game-agnostic: imports nothing of any game.

``core`` (hypothesis spaces, the exact posterior with its one update step, update records, explanations),
``independent`` (the naive foil), ``transition`` (permutations of slots), ``mixture`` (owners of unknown type:
the exact posterior over slots and types), ``metrics`` (scoring a belief against the truth: log loss, Brier,
calibration), ``reader`` (the protocol of every reader of a game's public decision stream, in every game:
``add(item)``) and ``plots``. Each game's beliefs and player models live in its package
(``heimlich_lab/games/<game>/``) and are built on these.

>>> from heimlich_lab.inference.core import HypothesisSpace, Posterior
>>> Posterior(HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"])).marginals_table().shape
(3, 3)
"""
from .._compat import EXPORTS, legacy_exports
from .core import Marginals
from .reader import DecisionReader, ViewFollower, read_all

# the first game's beliefs and models, which this package exported before the games moved (heimlich_lab/_compat.py)
__all__ = ["DecisionReader", "Marginals", "ViewFollower", "read_all", *sorted(EXPORTS[__name__])]
__getattr__, __dir__ = legacy_exports(__name__, globals())
