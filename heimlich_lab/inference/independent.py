"""A teaching foil for :mod:`heimlich_lab.inference.core`: one independent belief per owner.

:class:`IndependentPosterior` updates each owner's "which slot is mine?" on its
own, ignoring that two owners cannot hold the same slot, with the same
:class:`~heimlich_lab.inference.core.Update` records and marginal-table shape
as the exact :class:`~heimlich_lab.inference.core.Posterior`. Game-agnostic,
like the core.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ModelError
from .core import (
    FREE,
    FREE_LABEL,
    HypothesisSpace,
    Update,
    check_names,
    check_vector,
    entropy_bits,
    frozen,
    logsumexp,
    marginal_frame,
    slot_list,
)

__all__ = ["IndependentPosterior"]


@dataclass(frozen=True)
class _FoilRatios:
    """Log likelihood ratios of an :class:`IndependentPosterior` update of ``actor``'s row."""

    log_prior: np.ndarray  # (n_owners, n_slots), before the update
    actor: int
    values: np.ndarray

    def __call__(self) -> np.ndarray:
        n_o, n_s = self.log_prior.shape
        r = np.full((n_o + 1, n_s), np.nan)
        possible = np.isfinite(self.log_prior)
        uncertain = possible & (possible.sum(axis=1, keepdims=True) > 1)  # 0 < p < 1
        r[:n_o][uncertain] = 0.0  # log 1: other owners' beliefs do not depend on the observation
        row = self.log_prior[self.actor]
        with np.errstate(invalid="ignore"):
            joint = row + self.values
        others = np.eye(n_s, dtype=bool)
        rest = logsumexp(np.where(others, -np.inf, joint[None, :]), 1)  # log P(obs, not s)
        rest_prior = logsumexp(np.where(others, -np.inf, row[None, :]), 1)  # log P(not s)
        with np.errstate(invalid="ignore"):
            r[self.actor] = np.where(uncertain[self.actor], self.values - (rest - rest_prior), np.nan)
        return r


class IndependentPosterior:
    """Teaching foil: one independent categorical belief per owner, "which slot is mine?".

    Every owner holds exactly one slot, and each owner's belief is updated on
    its own, ignoring that two owners cannot hold the same slot. Known facts
    (``known``, ``known_owned``, ``excluded``) are applied once, at the start,
    to every row they concern (an owner known to hold ``red`` is certain of
    it, and everyone else is certain not to hold ``red``); after that, no
    exclusivity is propagated.

    :meth:`marginals` has the same shape as :meth:`Posterior.marginals`:
    owner row ``o`` is that owner's categorical ``p_o`` (sums to 1); the free
    row is ``prod_o (1 - p_o(s))``, the chance that nobody holds ``s`` *if*
    owners were independent. Columns therefore need not sum to 1 -- exactly
    the incoherence the foil is meant to show (two owners each 90 % sure of
    the same slot). ``marginals(normalize=True)`` rescales each column to sum to 1.

    >>> foil = IndependentPosterior(["Ann", "Bob"], ["red", "blue", "green"])
    >>> upd = foil.update("Bob", np.log([0.8, 0.1, 0.1]), label="Bob moved red")
    >>> foil.marginals_table().round(3)
            red   blue  green
    Ann   0.333  0.333  0.333
    Bob   0.800  0.100  0.100
    free  0.133  0.600  0.600
    """

    def __init__(
        self,
        owners: Iterable[str],
        slots: Iterable[str],
        *,
        known: Mapping[str, str | None] | None = None,
        known_owned: Mapping[str, Any] | None = None,
        excluded: Mapping[str, Any] | None = None,
    ):
        owners, slots = check_names(owners, "owners"), check_names(slots, "slots")
        if FREE_LABEL in owners:
            raise ModelError(f"{FREE_LABEL!r} is reserved for slots nobody holds; rename that owner")
        proto = HypothesisSpace.unchecked(owners, slots, np.full((1, len(slots)), FREE, dtype=np.int8))
        self.owners, self.slots = proto.owners, proto.slots
        self._proto = proto
        if len(self.owners) > len(self.slots):
            raise ModelError(f"{len(self.owners)} owners cannot each hold one of only {len(self.slots)} slots")
        allowed = np.ones((len(self.owners), len(self.slots)), dtype=bool)
        facts = dict(known or {})
        for who, held in (known_owned or {}).items():
            for s in slot_list(held):
                facts[s] = who
        self._apply_facts(allowed, facts)
        for who, out in (excluded or {}).items():
            o = proto.owner_index(who)
            allowed[o, [proto.slot_index(s) for s in slot_list(out)]] = False
        self._check_rows(allowed)
        with np.errstate(divide="ignore"):
            self._logp = frozen(np.log(allowed / allowed.sum(axis=1, keepdims=True)))
        self._marg = frozen(self._compute_marginals(self._logp))
        self._entropy = self._compute_entropy(self._logp)
        self._initial_marg, self._initial_entropy = self._marg, self._entropy
        self._log_evidence = 0.0
        self.history: list[Update] = []

    def _apply_facts(self, allowed: np.ndarray, facts: Mapping[Any, Any]) -> None:
        proto = self._proto
        pinned: dict[int, int] = {}
        for slot, who in facts.items():
            s, o = proto.slot_index(slot), proto.owner_index(who, allow_free=True)
            if o != FREE:
                if pinned.get(o, s) != s:
                    raise ModelError(f"{self.owners[o]} holds one slot, but is said to hold "
                                     f"{self.slots[pinned[o]]} and {self.slots[s]}")
                pinned[o] = s
                allowed[o, :s] = False
                allowed[o, s + 1:] = False
            others = np.arange(len(self.owners)) != o
            allowed[others, s] = False

    def _check_rows(self, allowed: np.ndarray) -> None:
        empty = np.flatnonzero(~allowed.any(axis=1))
        if empty.size:
            raise ModelError(f"no slot is possible for {self.owners[empty[0]]} (contradictory constraints)")

    @staticmethod
    def _compute_marginals(logp: np.ndarray) -> np.ndarray:
        p = np.exp(logp)
        return np.vstack([p, np.prod(1.0 - p, axis=0)])

    @staticmethod
    def _compute_entropy(logp: np.ndarray) -> float:
        return entropy_bits(np.exp(logp), logp)

    def __repr__(self) -> str:
        return f"IndependentPosterior({len(self.owners)} owners x {len(self.slots)} slots, {len(self.history)} updates)"

    @property
    def log_evidence(self) -> float:
        return self._log_evidence

    def copy(self) -> IndependentPosterior:
        new = object.__new__(IndependentPosterior)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        return new

    def update(self, actor: Any, values: Any, label: str | None = None, info: Any = None) -> Update:
        """Update only ``actor``'s categorical: ``p(s) *= exp(values[s])``, renormalized.

        ``values`` are the same per-slot log-likelihoods as for
        :func:`likelihood_from_owner_values`. Likelihood ratios of the record
        are exact for the actor's row, 1 for other owners (their beliefs do
        not move) and nan for the free row.
        """
        o = self._proto.owner_index(actor)
        v = check_vector(values, len(self.slots), "values", "one log-likelihood per slot")
        row = self._logp[o]
        with np.errstate(invalid="ignore"):
            joint = row + v
        log_ev = float(logsumexp(joint))
        if not np.isfinite(log_ev):
            raise ModelError(f"observation ({label!r}) is impossible for every slot {self.owners[o]} may still hold")
        logp = self._logp.copy()
        logp[o] = joint - log_ev
        logp = frozen(logp)
        marg = frozen(self._compute_marginals(logp))
        ent = self._compute_entropy(logp)
        rec = Update(
            label=label, actor=actor, log_evidence=log_ev,
            marginals_before=self._marg, marginals_after=marg,
            entropy_before=self._entropy, entropy_after=ent,
            owners=self.owners, slots=self.slots, info=info, kind="observation",
            _ratios=_FoilRatios(self._logp, o, frozen(v)),
        )
        self._logp, self._marg, self._entropy = logp, marg, ent
        self._log_evidence += log_ev
        self.history.append(rec)
        return rec

    def condition(self, facts: Mapping[Any, Any], label: str | None = "condition", info: Any = None) -> Update:
        """Apply known facts (slot -> owner/None/"free"), like the constructor's ``known``."""
        allowed = np.isfinite(self._logp)
        self._apply_facts(allowed, facts)
        self._check_rows(allowed)
        with np.errstate(divide="ignore"):
            logp = np.where(allowed, self._logp, -np.inf)
            z = logsumexp(logp, 1, keepdims=True)
        logp = frozen(logp - z)
        marg = frozen(self._compute_marginals(logp))
        ent = self._compute_entropy(logp)
        rec = Update(
            label=label, actor=None, log_evidence=float(z.sum()),
            marginals_before=self._marg, marginals_after=marg,
            entropy_before=self._entropy, entropy_after=ent,
            owners=self.owners, slots=self.slots, info=info, kind="condition",
        )
        self._logp, self._marg, self._entropy = logp, marg, ent
        self._log_evidence += rec.log_evidence
        self.history.append(rec)
        return rec

    def owner_distributions(self) -> np.ndarray:
        """Array (n_owners, n_slots): each owner's categorical over slots."""
        out: np.ndarray = np.exp(self._logp)
        return out

    def marginals(self, normalize: bool = False) -> np.ndarray:
        """Array (n_owners+1, n_slots), see the class docstring for the free row."""
        m = self._marg.copy()
        if normalize:
            m /= m.sum(axis=0, keepdims=True)
        return m

    def marginals_table(self, normalize: bool = False) -> pd.DataFrame:
        return marginal_frame(self.marginals(normalize), self.owners, self.slots)

    def entropy(self) -> float:
        """Sum of the owners' entropies in bits (entropy of the product distribution)."""
        return self._entropy

    def marginals_history(self) -> np.ndarray:
        return np.stack([self._initial_marg, *(u.marginals_after for u in self.history)])

    def entropy_history(self) -> np.ndarray:
        return np.array([self._initial_entropy, *(u.entropy_after for u in self.history)])
