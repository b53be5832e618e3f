"""Transitions of a posterior: the hidden state *moves* (the predict step of a hidden Markov model's forward
algorithm), beside the update step of :class:`~heimlich_lab.inference.core.Posterior`.

Game-agnostic, like the core. A *permutation* of slots moves the content of slot ``s`` to slot ``perm[s]``
(two owners' holdings are swapped, a marker changes places); a *mixture* of permutations with weights models a
move the observer did not see (one of several, with known probabilities). Weights move with the rows: each
hypothesis goes to the hypothesis it becomes, found by hashing rows once per space and permutation (cached).

>>> from heimlich_lab.inference.core import HypothesisSpace, Posterior
>>> space = HypothesisSpace(["A", "B"], ["x", "y", "z"], [[0, 1, 1], [1, 0, 1], [1, 1, 0]])
>>> post = Posterior(space)
>>> _ = post.condition({"x": "A"}, label="x is A")
>>> upd = transition(post, swap(space, "x", "y"), label="x and y swap")
>>> post.probability({"y": "A"}), upd.kind
(1.0, 'transition')
>>> _ = transition(post, [swap(space, "y", "z"), identity(space)], weights=[0.25, 0.75], label="maybe y-z")
>>> round(post.probability({"z": "A"}), 2), round(post.probability({"y": "A"}), 2)
(0.25, 0.75)
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterable, Sequence, cast

import numpy as np

from ..errors import ModelError
from .core import HypothesisSpace, Posterior, Update, group_logsumexp

__all__ = ["identity", "permutation_index", "swap", "transition"]

_CACHE: "OrderedDict[int, tuple[HypothesisSpace, dict[tuple[int, ...], np.ndarray | None]]]" = OrderedDict()
_CACHE_SPACES = 64


def identity(space: HypothesisSpace) -> tuple[int, ...]:
    """The permutation that moves nothing."""
    return tuple(range(space.n_slots))


def swap(space: HypothesisSpace, a: Any, b: Any) -> tuple[int, ...]:
    """The permutation exchanging the contents of slots ``a`` and ``b`` (names or indices)."""
    i, j = space.slot_index(a), space.slot_index(b)
    perm = list(range(space.n_slots))
    perm[i], perm[j] = j, i
    return tuple(perm)


def _check_perm(space: HypothesisSpace, perm: Any) -> tuple[int, ...]:
    try:
        p = tuple(int(x) for x in perm)
    except (TypeError, ValueError):
        raise ModelError(f"a permutation is a sequence of slot indices, not {perm!r}") from None
    if sorted(p) != list(range(space.n_slots)):
        raise ModelError(f"{p} is not a permutation of the {space.n_slots} slots 0..{space.n_slots - 1}")
    return p


def _moved(table: np.ndarray, perm: Sequence[int]) -> np.ndarray:
    """The table with slot ``s``'s column moved to ``perm[s]``."""
    moved = np.empty_like(table)
    moved[:, list(perm)] = table
    return moved


def _moved_space(space: HypothesisSpace, perms: Iterable[Sequence[int]]) -> HypothesisSpace:
    """The moved tables one after the other (rows not merged)."""
    return HypothesisSpace.unchecked(space.owners, space.slots, np.concatenate([_moved(space.table, p) for p in perms]))


def permutation_index(space: HypothesisSpace, perm: Sequence[int]) -> np.ndarray | None:
    """``out[h]``: the row of ``space`` that hypothesis ``h`` becomes when slot ``s``'s content moves to
    ``perm[s]``; ``None`` if some moved row is not in the space. Cached per space and permutation.

    >>> space = HypothesisSpace.assignments(["A"], ["x", "y", "z"])
    >>> permutation_index(space, swap(space, "x", "z"))
    array([2, 1, 0])
    """
    p = _check_perm(space, perm)
    entry = _CACHE.get(id(space))
    if entry is None or entry[0] is not space:
        entry = (space, {})
        _CACHE[id(space)] = entry
        while len(_CACHE) > _CACHE_SPACES:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end(id(space))
    cache = entry[1]
    if p not in cache:
        table = space.table
        moved = _moved(table, p)
        # one id per distinct row over both tables: row ids, then where each moved row sits in the space
        _, ids = np.unique(np.concatenate([table, moved]), axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        h = len(table)
        where = np.full(ids.max() + 1, -1)
        where[ids[:h][::-1]] = np.arange(h)[::-1]        # the first row of each id
        target = where[ids[h:]]
        target.setflags(write=False)
        cache[p] = None if (target < 0).any() else target
    return cache[p]


def transition(post: Posterior, moves: Any, weights: Sequence[float] | None = None, *, merge: bool = True,
               label: str | None = "transition", actor: Any = None, info: Any = None) -> Update | None:
    """Move ``post`` through one permutation of slots, or a mixture of them with ``weights`` (probabilities
    summing to 1). Recorded as an :class:`Update` of kind ``"transition"`` (no observation: log evidence 0,
    no likelihood ratios). A moved row outside the space extends the space. Bad input raises
    :class:`ModelError` and leaves ``post`` unchanged.

    ``merge=False`` keeps every hypothesis apart with its history: the new space is the moved tables one after
    the other (move ``k``'s block holds hypothesis ``i`` at row ``k * H + i``), rows may repeat, and data a caller
    keeps per hypothesis (e.g. likelihoods that must not be mixed) follows with ``np.tile``.

    >>> from heimlich_lab.inference.core import HypothesisSpace, Posterior
    >>> post = Posterior(HypothesisSpace.assignments(["A"], ["x", "y"]))
    >>> _ = transition(post, [(0, 1), (1, 0)], [0.5, 0.5], merge=False)
    >>> len(post.space), post.space.table.ravel().tolist()
    (4, [0, -1, -1, 0, -1, 0, 0, -1])
    """
    space = post.space
    perms = [_check_perm(space, moves)] if weights is None else [_check_perm(space, m) for m in moves]
    if weights is None:
        w = np.ones(1)
    else:
        w = np.asarray(weights, dtype=float)
        if w.shape != (len(perms),) or not np.isfinite(w).all() or (w < 0).any() or abs(w.sum() - 1) > 1e-9:
            raise ModelError(f"weights must be {len(perms)} probabilities summing to 1, not {list(weights)!r}")
    logw = post.log_weights
    if merge:
        keep = w > 0
        perms, w = [p for p, k in zip(perms, keep) if k], w[keep]
    targets = [permutation_index(space, p) for p in perms] if merge else []
    h = len(space)
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
    rows = post.keeps_rows   # the row of the old space each new row comes from, for a posterior that needs it
    parents = None
    if not merge:
        new_space = _moved_space(space, perms)
        lw = np.concatenate([logw + x for x in log_w])
        if rows:
            parents = np.tile(np.arange(h), len(perms))
    elif all(t is not None for t in targets):
        closed = cast(list[np.ndarray], targets)
        new_space = space
        if len(perms) == 1:
            lw = np.empty(h)
            lw[closed[0]] = logw
            if rows:
                parents = np.empty(h, dtype=np.intp)
                parents[closed[0]] = np.arange(h)
        else:
            lw = group_logsumexp(np.concatenate(closed), np.concatenate([logw + x for x in log_w]), h)
    else:   # the space is not closed under these moves: the new space holds every moved row
        new_space, inverse = _moved_space(space, perms).unique()
        lw = group_logsumexp(inverse, np.concatenate([logw + x for x in log_w]), len(new_space))
        if rows and len(perms) == 1:    # a permutation moves distinct rows to distinct rows
            parents = np.empty(len(new_space), dtype=np.intp)
            parents[inverse] = np.arange(h)
    lw.setflags(write=False)
    return post.move_to(new_space, lw, parents, label=label, actor=actor, info=info)
