"""Compiled kernels of the population's likelihoods (optional: ``pip install heimlich-lab[fast]``, numba).

:meth:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation.batch_type_log_likelihoods` reads many
decisions' option tables at once, side by side along one axis: ``Ut`` (A, N) holds every table's utilities (one row
per agent), table ``d`` the ``sizes[d]`` columns from ``starts[d]``, and ``top`` (A, D) each table's largest
utility per agent. Its array code (numpy) is the reference, a dozen passes over that array; with numba installed
its two heavy steps run as compiled loops over each table's options instead, each option read once per step:

* :func:`ragged_option_sums`: each Boltzmann rationality's sum over options of ``exp(beta * (U - top))``, and the
  spectator's watch's ``exp(wb * (U - top))`` kept for the next step;
* :func:`ragged_exposures`: the spectator's belief in each agent right after each option (its exposure), then
  every bluffer's log-probability of the option taken and every hider who covers' share of it.

``exp`` here is :func:`fast_exp`, a polynomial that the compiler turns into vector instructions (numba's own
``math.exp`` calls the C library one entry at a time, numpy's is vectorised only where it has AVX-512 kernels):
within 3 ulp of numpy's. So the numbers are the array code's to rounding (sums taken in another order, another
``exp``): within 1e-12, tested against it in ``tests/test_belief_kernels.py``. :data:`COMPILED` says whether they
are compiled, :func:`in_use` whether the population uses them; setting the environment variable
``HEIMLICH_NUMPY_ONLY=1`` before import keeps the array code even with numba. Without numba the same functions run
as plain Python (slowly: the tests read them so).

>>> import numpy as np
>>> Ut = np.array([[0.0, -1.0, -2.5, 1.0, 0.0], [-2.5, 0.0, -1.0, 0.0, 3.0]])   # two tables: 3 options, then 2
>>> starts, sizes = np.array([0, 3]), np.array([3, 2])
>>> top = np.maximum.reduceat(Ut, starts, axis=1)
>>> sums, ew, sums_w = ragged_option_sums(Ut, top, starts, sizes, np.array([0.3, 1.0]), 1.0)
>>> want = [np.add.reduceat(np.exp(b * (Ut - top.repeat(sizes, axis=1))), starts, axis=1) for b in (0.3, 1.0)]
>>> bool(np.allclose(sums, want, rtol=1e-14, atol=0))
True
>>> bool(np.allclose(ew, np.exp(Ut - top.repeat(sizes, axis=1)), rtol=1e-15, atol=0))
True
"""
from __future__ import annotations

import importlib.util
import math
import os
import struct
import threading
import warnings

import numpy as np

__all__ = ["COMPILED", "fast_exp", "in_use", "ragged_exposures", "ragged_option_sums"]

# exp(x) = 2 ** k * exp(r), k = rint(x / log 2), |r| <= log(2) / 2 (log 2 in two parts: k * _LN2_HI is exact), then
# exp(r) by its Taylor polynomial to degree 12 (the first term left out is under 2e-16 of it)
_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
#: Below this ``fast_exp`` is 0 (numpy's ``exp`` goes on into the subnormal numbers, under 1e-307 of the largest
#: entry of every sum the kernels take, which is at least 1).
_LOWEST = -708.0


def _as_float(bits: int | np.integer) -> float:
    """The float64 whose bits are the integer ``bits`` (compiled: one bit cast, which vectorises)."""
    return struct.unpack("<d", struct.pack("<q", int(bits)))[0]


def fast_exp(x: float) -> float:
    """``exp(x)`` for ``x <= 0`` (``-inf`` included) within 3 ulp, 0 below -708: arithmetic only, so that a loop of
    it compiles to vector instructions.

    >>> fast_exp(0.0), fast_exp(-800.0), fast_exp(-math.inf)
    (1.0, 0.0, 0.0)
    >>> max(abs(fast_exp(x) / math.exp(x) - 1) for x in np.linspace(-700, 0, 2001)) < 7e-16
    True
    """
    xc = max(x, _LOWEST)
    k = np.rint(xc * _LOG2E)
    r = (xc - k * _LN2_HI) - k * _LN2_LO
    p = 1.0 / 479001600.0
    p = p * r + 1.0 / 39916800.0
    p = p * r + 1.0 / 3628800.0
    p = p * r + 1.0 / 362880.0
    p = p * r + 1.0 / 40320.0
    p = p * r + 1.0 / 5040.0
    p = p * r + 1.0 / 720.0
    p = p * r + 1.0 / 120.0
    p = p * r + 1.0 / 24.0
    p = p * r + 1.0 / 6.0
    p = p * r + 0.5
    p = p * r + 1.0
    p = p * r + 1.0
    v = p * _as_float((np.int64(k) + 1023) << 52)
    return float(v) if x >= _LOWEST else 0.0


#: Integer rationalities up to this are raised from ``exp(U - top)`` by multiplications (:func:`_power`): a few
#: multiplications cost less than an ``exp``.
POWERS = 16


def _power(v: float, k: int) -> float:
    """``v ** k`` for an integer ``k`` from 1 to :data:`POWERS`, by repeated squaring, each power of two multiplied
    in from low to high (a multiplication by 1.0 where ``k`` has no such bit: branch-free, so that a loop of it over
    the options compiles to vector instructions, ``k`` the same for all).

    >>> [_power(0.5, k) == 0.5 ** k for k in (1, 3, 10, 16)]
    [True, True, True, True]
    """
    r = v if k & 1 else 1.0
    v2 = v * v
    r = r * (v2 if k & 2 else 1.0)
    v4 = v2 * v2
    r = r * (v4 if k & 4 else 1.0)
    v8 = v4 * v4
    r = r * (v8 if k & 8 else 1.0)
    return r * (v8 * v8 if k & 16 else 1.0)


def ragged_option_sums(Ut: np.ndarray, top: np.ndarray, starts: np.ndarray, sizes: np.ndarray, betas: np.ndarray,
                       wb: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For tables side by side (the module's layout; every ``top`` finite): ``sums`` (len(betas), A, D), each
    rationality's sum over each table's options of ``exp(beta * (U - top))``; ``ew`` (A, N) ``exp(wb * (U - top))``
    and ``sums_w`` (A, D) its sums by table, for the spectator's watch of rationality ``wb``. ``betas`` all > 0:
    ``exp(U - top)`` is taken once, an integer rationality up to :data:`POWERS` raised from it (:func:`_power`),
    every other one has its own ``exp``."""
    A, N = Ut.shape
    D = starts.shape[0]
    B = betas.shape[0]
    sums = np.empty((B, A, D))
    e1 = np.empty((A, N))
    ew = e1 if wb == 1.0 else np.empty((A, N))
    sums_w = np.empty((A, D))
    for a in range(A):
        for d in range(D):
            s = starts[d]
            e = s + sizes[d]
            t = top[a, d]
            acc1 = 0.0
            for x in range(s, e):
                v = fast_exp(Ut[a, x] - t)
                e1[a, x] = v
                acc1 += v
            for j in range(B):
                b = betas[j]
                k = int(b)
                acc = 0.0
                if b == 1.0:
                    acc = acc1
                elif k == b and 1 <= k <= POWERS:
                    for x in range(s, e):
                        acc += _power(e1[a, x], k)
                else:
                    for x in range(s, e):
                        acc += fast_exp(b * (Ut[a, x] - t))
                sums[j, a, d] = acc
            if wb == 1.0:
                sums_w[a, d] = acc1
            else:
                acc = 0.0
                for x in range(s, e):
                    v = fast_exp(wb * (Ut[a, x] - t))
                    ew[a, x] = v
                    acc += v
                sums_w[a, d] = acc
    return sums, ew, sums_w


def ragged_exposures(Ut: np.ndarray, top: np.ndarray, ew: np.ndarray, sums_w: np.ndarray, keep_w: float,
                     tremble_w: float, rows: np.ndarray, starts: np.ndarray, sizes: np.ndarray, taken_at: np.ndarray,
                     betas: np.ndarray, secrecies: np.ndarray, shift_span: float, slacks: np.ndarray, tie: float
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Every bluffer's log-probability of the option taken before its tremble, (len(betas), D, A), and every hider
    who covers' share of it, (len(slacks), D, A), for tables side by side (the module's layout).

    ``ew`` and ``sums_w`` (:func:`ragged_option_sums`): the watch's probability of option x for agent a is
    ``keep_w * ew / sums_w + tremble_w / n``; ``rows`` (D, A) the spectator's belief in each agent before each
    decision (ones for a fresh spectator); ``taken_at`` (D,) the column of each table's option taken. The exposure
    of option x for agent a is the spectator's belief in a right after x, ``w_a / sum_b w_b`` with ``w_a =
    rows[a] * P_watch(x | a)`` (0 where no agent can take x). A bluffer (``beta``, ``secrecy``) takes x with
    probability proportional to ``exp(beta * (U - top - secrecy * exposure))`` (shifted by its largest entry where
    ``beta * secrecy`` exceeds ``shift_span``, as the array code). A hider who covers with slack ``s``: of the options
    worth at most ``s`` less than the best, the least exposing (within ``tie``) share it equally."""
    A, N = Ut.shape
    D = starts.shape[0]
    K = betas.shape[0]
    C = slacks.shape[0]
    secret = np.empty((K, D, A))
    shares = np.zeros((C, D, A))
    n_max = 0
    for d in range(D):
        n_max = max(n_max, sizes[d])
    ex = np.empty((A, n_max))
    total = np.empty(n_max)
    for d in range(D):
        s = starts[d]
        n = sizes[d]
        i = taken_at[d] - s
        for x in range(n):
            total[x] = 0.0
        for a in range(A):
            # as the array code: ((1 - we) / sums) * R and (we / n) * R, then ew times the first plus the second
            f = (keep_w / sums_w[a, d]) * rows[d, a]
            g = (tremble_w / n) * rows[d, a]
            for x in range(n):
                w = ew[a, s + x] * f + g
                ex[a, x] = w
                total[x] += w
        for a in range(A):
            for x in range(n):
                ex[a, x] = ex[a, x] / total[x] if total[x] > 0 else 0.0
        for k in range(K):
            b = betas[k]
            sec = secrecies[k]
            for a in range(A):
                t = top[a, d]
                shift = 0.0
                if b * sec > shift_span:
                    shift = -math.inf
                    for x in range(n):
                        shift = max(shift, b * ((Ut[a, s + x] - t) - sec * ex[a, x]))
                acc = 0.0
                for x in range(n):
                    acc += fast_exp(b * ((Ut[a, s + x] - t) - sec * ex[a, x]) - shift)
                secret[k, d, a] = (b * ((Ut[a, s + i] - t) - sec * ex[a, i]) - shift) - math.log(acc)
        for c in range(C):
            for a in range(A):
                floor = top[a, d] - slacks[c]
                if Ut[a, s + i] < floor:
                    continue
                low = ex[a, i]
                for x in range(n):
                    if Ut[a, s + x] >= floor and ex[a, x] < low:
                        low = ex[a, x]
                limit = low + tie
                if ex[a, i] > limit:
                    continue
                count = 0
                for x in range(n):
                    if Ut[a, s + x] >= floor and ex[a, x] <= limit:
                        count += 1
                shares[c, d, a] = 1.0 / count
    return secret, shares


def in_use() -> bool:
    """Whether the population reads its tables with these kernels: numba is installed and not refused
    (:data:`WANTED`), and, the first time this is asked, numba compiles the kernels (:func:`_compile`; about 1.8
    CPU-s with numba's import, 0.3 once numba's cache in the package's ``__pycache__`` has them) and they run on a
    small table. A numba that cannot compile them (another version, another platform) gives a warning that says so,
    and the array code is used instead. numba is imported only then: a process that reads no belief never loads it.

    >>> in_use() == WANTED
    True
    """
    global _READY
    if _READY is None:
        with _COMPILING:        # (threads reading beliefs at once: one compiles, the others wait for its answer)
            if _READY is None:
                _READY = WANTED and _compile()
    return _READY


#: Whether numba may compile the kernels: it is installed, and ``HEIMLICH_NUMPY_ONLY`` is not set (read at import).
WANTED = os.environ.get("HEIMLICH_NUMPY_ONLY", "") in ("", "0") and importlib.util.find_spec("numba") is not None
#: Whether the kernels are numba's compiled functions (once :func:`in_use` has compiled them); else they are the
#: plain Python functions above.
COMPILED = False
_READY: bool | None = None     # in_use()'s answer once asked
_COMPILING = threading.Lock()
_KERNELS = ("_as_float", "fast_exp", "_power", "ragged_option_sums", "ragged_exposures")     # callees first


def _compiled_functions() -> dict:
    """numba's compiled kernels, by name, in :data:`_KERNELS`' order (each compiled on its first call)."""
    import numba
    from llvmlite import ir
    from numba.extending import intrinsic

    @intrinsic
    def bit_cast(typingctx, bits):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.DoubleType())
        return numba.types.float64(numba.types.int64), codegen

    def as_float(bits: int | np.integer) -> float:
        return bit_cast(bits)       # type: ignore[call-arg]  # (numba's intrinsic: called with the bits alone)

    # the sums may be taken in any order (reassoc: they vectorise), no NaN comes in (the caller checks the maxima),
    # -inf does (an option worth nothing to an agent); fast_exp is not reassociated (log 2 stays in its two parts,
    # k * _LN2_HI exact, whatever its callers' flags)
    flags = {"nnan", "nsz", "arcp", "contract", "afn", "reassoc"}
    return {"_as_float": numba.njit(cache=True)(as_float),
            "fast_exp": numba.njit(cache=True, fastmath=flags - {"reassoc"})(fast_exp),
            **{name: numba.njit(cache=True, fastmath=flags)(globals()[name]) for name in _KERNELS[2:]}}


def _compile() -> bool:
    """The kernels compiled by numba in place of the plain functions, tried on a small table; if that fails, the
    plain functions are put back, with a warning, and ``False``."""
    global COMPILED
    plain = {name: globals()[name] for name in _KERNELS}
    try:
        # (in the module's namespace before the kernels that call them compile: numba reads them from there)
        globals().update(_compiled_functions())
        Ut = np.array([[0.0, -1.0, -2.5], [-2.5, 0.0, -np.inf]])
        starts, sizes, one = np.array([0]), np.array([3]), np.array([1.0])
        top = Ut.max(axis=1, keepdims=True)
        _, ew, sums_w = ragged_option_sums(Ut, top, starts, sizes, np.array([0.3, 1.0, 3.0]), 1.0)
        ragged_exposures(Ut, top, ew, sums_w, 0.95, 0.05, np.ones((1, 2)), starts, sizes, np.array([1]), one, one,
                         300.0, one, 1e-9)
    except Exception as e:      # (numba's errors, an import that fails: no common base besides Exception)
        globals().update(plain)
        warnings.warn(f"the compiled kernels of the beliefs' likelihoods do not work here ({type(e).__name__}: "
                      f"{str(e)[:200]}); the array code is used instead (HEIMLICH_NUMPY_ONLY=1 says so without "
                      "trying)", RuntimeWarning, stacklevel=3)
        return False
    COMPILED = True
    return True
