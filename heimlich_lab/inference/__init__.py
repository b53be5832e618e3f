"""Bayesian deduction: who controls which agent, given what one observer has seen.

The game-agnostic part imports nothing of Heimlich: ``core`` (hypothesis spaces, the exact posterior
with its one update step, update records, explanations), ``independent`` (the naive foil),
``transition`` (permutations of slots), ``mixture`` (actors of unknown type: the exact posterior over
slots and types) and ``reader`` (the protocol of every reader of a game's public decision stream, in every
game: ``add(item)``). The Heimlich & Co. part, one idea per module: ``belief`` (one
observer's exact belief, fed by the public stream of :mod:`heimlich_lab.rules.replay`), ``belief_set``
(several observers of one game), ``baselines``, ``likelihoods`` (asking a player model), ``model`` and
``utility`` (the kit's player model), ``player_types`` (a population of kinds of player, learned per
player), ``population`` (fitting the population to a class's games), ``wording`` (decisions in words), ``plots``, ``dossier`` (the
Secret Dossier notes and sheets), ``fit`` and ``metrics``.

>>> from heimlich_lab import Belief, BoltzmannModel, Rules, play, secret_dossier
>>> from heimlich_lab.bots import BoltzmannBot
>>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=2)
>>> b = Belief.from_record(rec, observer="Ann", model=BoltzmannModel(beta=1.0, epsilon=0.1), until="dossier")
>>> round(sum(b.marginals()["Bob"].values()), 6)
1.0
>>> sorted(secret_dossier(b)) == sorted(c for c in b.agents if c not in rec.owners["Ann"])
True
"""
from .._lazy import lazy_exports

#: public name -> the module of this package that defines it (imported on first use, PEP 562, so that
#: ``heimlich_lab.inference.core`` can be imported without the Heimlich part)
_LAZY = {
    "Belief": "belief",
    "BeliefSet": "belief_set",
    **dict.fromkeys(["IndependentBelief", "PointsShareBelief"], "baselines"),
    **dict.fromkeys(["best_matching_sheet", "dossier_notes", "expected_correct", "secret_dossier"], "dossier"),
    "fit_boltzmann": "fit",
    **dict.fromkeys(["BoltzmannModel", "PlayerModel"], "model"),
    **dict.fromkeys(["PlayerPopulation", "PlayerType", "default_population"], "player_types"),
    "fit_population": "population",
    **dict.fromkeys(["DecisionReader", "ViewFollower", "read_all"], "reader"),
    "Marginals": "core",
}

__all__ = ["Belief", "BeliefSet", "BoltzmannModel", "DecisionReader", "IndependentBelief", "Marginals", "PlayerModel",
           "PlayerPopulation", "PlayerType", "PointsShareBelief", "ViewFollower", "default_population",
           "fit_population", "read_all",
           "best_matching_sheet", "dossier_notes", "expected_correct", "fit_boltzmann", "secret_dossier"]

__getattr__, __dir__ = lazy_exports(globals(), _LAZY)
