"""Bayesian deduction: who controls which agent, given what one observer has seen.

``core`` is game-agnostic (hypotheses, log weights, updates, marginals, explanations); the rest is the
Heimlich & Co. part beside it: the model of play (likelihoods), beliefs built from games and records,
the Secret Dossier notes and sheets, fitting and metrics.

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
}

__all__ = ["Belief", "BeliefSet", "BoltzmannModel", "IndependentBelief", "PlayerModel", "PointsShareBelief",
           "best_matching_sheet", "dossier_notes", "expected_correct", "fit_boltzmann", "secret_dossier"]

__getattr__, __dir__ = lazy_exports(globals(), _LAZY)
