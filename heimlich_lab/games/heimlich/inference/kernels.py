"""Compiled kernels of the population's likelihoods (optional: ``pip install heimlich-lab[fast]``, numba).

:meth:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation.batch_type_log_likelihoods` reads a
game's option tables a table size at a time. Its array code (numpy) is the reference; with numba installed, the
two heavy steps of each size run as one compiled loop over the options instead of a dozen array passes:

* :func:`option_sums`: each Boltzmann rationality's sum over options of ``exp(beta * (U - top))`` (an integer
  rationality raised from ``exp(U - top)`` by squaring, as :func:`~heimlich_lab.games.heimlich.inference.
  player_types.exp_option_sums` does), with ``exp(U - top)`` kept for the bluffer's watch;
* :func:`bluff_log_likelihoods`: every bluffer's log-probability of the option taken, from the watch's option
  probabilities, the spectator's rows and the secrecies.
* :func:`cover_shares`: for every hider who covers, the share of the option taken in its cover step (of the options
  within its slack of the best, the least exposing), from the same watch and rows.

The numbers are the array code's to rounding (sums taken in another order, ``exp`` of another library: within
1e-12, tested against it in ``tests/test_belief_kernels.py``). :data:`COMPILED` says whether the kernels are in use;
setting the environment variable ``HEIMLICH_NUMPY_ONLY=1`` before import keeps the array code even with numba.

>>> import numpy as np
>>> U = np.array([[[0.0, -1.0], [-2.5, 0.0], [-1.0, -3.0]]])        # one table: 3 options x 2 agents
>>> top, sums, e1 = option_sums(U, np.array([0.3, 1.0, 3.0]))
>>> want = [np.exp(b * (U[0] - U[0].max(axis=0))).sum(axis=0) for b in (0.3, 1.0, 3.0)]
>>> bool(np.allclose(sums[:, 0], want, rtol=1e-14, atol=0)), top.tolist()
(True, [[0.0, 0.0]])
"""
from __future__ import annotations

import math
import os

import numpy as np

__all__ = ["COMPILED", "bluff_log_likelihoods", "cover_shares", "option_sums"]

#: Integer rationalities up to this are raised from ``exp(U - top)`` by multiplications (as the array code).
POWERS = 64


def _ipow(x: float, k: int) -> float:
    """``x ** k`` by repeated squaring (the array code's order of multiplications)."""
    e = 1.0
    first = True
    base = x
    while True:
        if k & 1:
            e = base if first else e * base
            first = False
        k >>= 1
        if not k:
            break
        base = base * base
    return e


def _column_max(T: np.ndarray, a: int) -> float:
    """The largest entry of column ``a`` of a table ``T`` (n, A)."""
    t = T[0, a]
    for x in range(1, T.shape[0]):
        if T[x, a] > t:
            t = T[x, a]
    return float(t)


def option_sums(U: np.ndarray, betas: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For tables ``U`` (G, n, A) (G tables of n options, A agents; every entry finite): ``top`` (G, A) the largest
    utility per agent, ``sums`` (len(betas), G, A) the sums over options of ``exp(beta * (U - top))``, and
    ``e1`` (G, n, A) ``exp(U - top)``. ``betas`` all > 0."""
    G, n, A = U.shape
    B = len(betas)
    powers = np.zeros(B, dtype=np.int64)      # an integer beta up to POWERS: raised from exp(U - top)
    for j in range(B):
        k = int(betas[j])
        if k == betas[j] and 1 <= k <= POWERS:
            powers[j] = k
    top = np.empty((G, A))
    sums = np.zeros((B, G, A))
    e1 = np.empty((G, n, A))
    for g in range(G):
        for a in range(A):
            top[g, a] = _column_max(U[g], a)
        for x in range(n):
            for a in range(A):
                c = U[g, x, a] - top[g, a]
                e = math.exp(c)
                e1[g, x, a] = e
                for j in range(B):
                    k = powers[j]
                    sums[j, g, a] += _ipow(e, k) if k else math.exp(betas[j] * c)
    return top, sums, e1


def _exposures(ew: np.ndarray, sums_w: np.ndarray, row: np.ndarray, keep_w: float, tremble_w: float,
               ex: np.ndarray, w: np.ndarray) -> None:
    """One table's exposures into ``ex`` (n, A): the spectator's belief in agent a right after option x (0 where no
    agent can take x), from ``ew`` (n, A), ``sums_w`` (A,) and its ``row`` (A,) (see :func:`bluff_log_likelihoods`);
    ``w`` (A,) is scratch."""
    n, A = ex.shape
    for x in range(n):
        total = 0.0
        for a in range(A):
            w[a] = row[a] * (keep_w * (ew[x, a] / sums_w[a]) + tremble_w)
            total += w[a]
        for a in range(A):
            ex[x, a] = w[a] / total if total > 0 else 0.0


def bluff_log_likelihoods(U: np.ndarray, top: np.ndarray, ew: np.ndarray, sums_w: np.ndarray, keep_w: float,
                          tremble_w: float, rows: np.ndarray, pick: np.ndarray, betas: np.ndarray,
                          secrecies: np.ndarray) -> np.ndarray:
    """Every bluffer's log-probability of the option taken (before its tremble), (len(betas), G, A).

    ``U`` (G, n, A) the tables and ``top`` (G, A) their largest entries per agent; ``ew`` (G, n, A)
    ``exp(wb * (U - top))`` and ``sums_w`` (G, A) its sums over options, for the watch's rationality ``wb``: the
    watch's probability of option x for agent a is ``keep_w * ew / sums_w + tremble_w``; ``rows`` (G, A) the
    spectator's belief in each agent before each decision (a row of ones for a fresh spectator); ``pick`` (G,) the
    option taken; each bluffer's ``beta`` and ``secrecy``. The exposure of option x for agent a is the spectator's
    belief in a right after x (0 where no agent can take x)."""
    G, n, A = U.shape
    K = len(betas)
    out = np.empty((K, G, A))
    z = np.empty((K, n, A))
    ex = np.empty((n, A))
    w = np.empty(A)
    for g in range(G):
        _exposures(ew[g], sums_w[g], rows[g], keep_w, tremble_w, ex, w)
        for x in range(n):
            for a in range(A):
                for k in range(K):
                    z[k, x, a] = betas[k] * (U[g, x, a] - secrecies[k] * ex[x, a])
        for k in range(K):
            for a in range(A):
                zt = _column_max(z[k], a)
                s = 0.0
                for x in range(n):
                    s += math.exp(z[k, x, a] - zt)
                out[k, g, a] = z[k, pick[g], a] - (math.log(s) + zt)
    return out


def cover_shares(U: np.ndarray, ew: np.ndarray, sums_w: np.ndarray, keep_w: float, tremble_w: float,
                 rows: np.ndarray, pick: np.ndarray, slacks: np.ndarray, tie: float) -> np.ndarray:
    """Every hider who covers' ``P(the option taken | it covers, plays for agent a)``, (len(slacks), G, A): of the
    options worth at most ``slack`` less to agent ``a`` than its best, the ones whose exposure is lowest (within
    ``tie``) share it equally. ``U``, ``ew``, ``sums_w``, ``keep_w``, ``tremble_w``, ``rows`` and ``pick`` as in
    :func:`bluff_log_likelihoods` (every entry of ``U`` finite); ``slacks`` each hider's slack (marker points)."""
    G, n, A = U.shape
    C = len(slacks)
    out = np.zeros((C, G, A))
    ex = np.empty((n, A))
    w = np.empty(A)
    for g in range(G):
        _exposures(ew[g], sums_w[g], rows[g], keep_w, tremble_w, ex, w)
        i = pick[g]
        for a in range(A):
            best = _column_max(U[g], a)
            for c in range(C):
                floor = best - slacks[c]
                if U[g, i, a] < floor:
                    continue
                low = ex[i, a]
                for x in range(n):
                    if U[g, x, a] >= floor and ex[x, a] < low:
                        low = ex[x, a]
                if ex[i, a] > low + tie:
                    continue
                count = 0
                for x in range(n):
                    if U[g, x, a] >= floor and ex[x, a] <= low + tie:
                        count += 1
                out[c, g, a] = 1.0 / count
    return out


#: Whether the kernels above run compiled (numba installed, and ``HEIMLICH_NUMPY_ONLY`` not set): the population
#: then uses them; otherwise it keeps its array code.
COMPILED = False
if os.environ.get("HEIMLICH_NUMPY_ONLY", "") in ("", "0"):
    try:
        import numba
    except ImportError:     # the optional extra is not installed: the array code
        pass
    else:
        _ipow = numba.njit(cache=True)(_ipow)
        _column_max = numba.njit(cache=True)(_column_max)
        _exposures = numba.njit(cache=True)(_exposures)
        option_sums = numba.njit(cache=True)(option_sums)
        bluff_log_likelihoods = numba.njit(cache=True)(bluff_log_likelihoods)
        cover_shares = numba.njit(cache=True)(cover_shares)
        COMPILED = True
