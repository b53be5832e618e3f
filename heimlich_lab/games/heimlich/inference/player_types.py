"""Kinds of players: the population of types the robust belief reads each player through.

Nobody at a real table plays like one fixed model. A :class:`PlayerPopulation`
is a list of :class:`PlayerType` s with prior weights; each player's type is
unknown, fixed for the game, and learned from their decisions alongside their
agent (exactly: :class:`~heimlich_lab.inference.mixture.TypedPosterior`).
The types, from least to most deliberate:

* ``random``: a uniform choice among the options (a card round read in two
  stages, the card then its targets, like every type here);
* ``boltzmann``: the :class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel` at
  rationality ``beta`` with tremble ``epsilon`` (a grid from nearly random to
  nearly greedy);
* ``bluff``: plays for its agent while keeping its exposure low (a *bluffer*; with a secrecy under
  :data:`HIDER_SECRECY` a *hider*, who gives up only a little), what
  :class:`~heimlich_lab.bots.BluffBot` optimises: an option's score is its
  utility minus ``secrecy`` times the spectator's belief that the actor plays
  for the agent right after the option, ``m_a L_a(x) / sum_b m_b L_b(x)``
  (``m`` the actor's row of a spectator's exact belief under the
  BoltzmannModel before the decision, ``L`` that model's likelihoods;
  :mod:`heimlich_lab.games.heimlich.inference.exposure`). A bluffer's decisions thus depend
  on the public history, which the population follows.
* ``cover``: a hider who *covers* (what :class:`~heimlich_lab.bots.HiderBot` does): with probability
  ``cover`` it plays, of the options worth at most ``slack`` marker points less to its agent than the best,
  the one leaving the spectator's belief in its agent lowest (shared equally among options tied there);
  otherwise it plays like a ``bluff`` type of the same ``beta``, ``secrecy`` and ``epsilon`` (the tremble
  is in that part only, as a HiderBot's). Its cover move is the cover
  move only for its own agent, so a player who covers tells which agent they cover for. With ``secrecy``
  0 the part that does not cover is the ``boltzmann`` type of its ``beta`` and ``epsilon``: the type then
  costs no exponentials of its own (its row comes from the option sums every rationality shares), only
  its cover step.

A population is a player model: :meth:`PlayerPopulation.type_log_likelihoods`
gives ``log P(decision | type k, plays for agent a)`` (K, A), which a
:class:`~heimlich_lab.games.heimlich.inference.belief.Belief` uses exactly;
:meth:`PlayerPopulation.agent_log_likelihoods` is the prior mixture (for code
that takes one vector per decision).

>>> from heimlich_lab import Game
>>> from heimlich_lab.games.heimlich.rules.actions import Action
>>> pop = default_population()
>>> pop.type_names[:3]
('random', 'careless (β≈0.3)', 'steady (β≈1)')
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)                    # Ann has rolled a 3
>>> ll = pop.type_log_likelihoods(g.view(None), "Ann", Action.parse("move red+3"))
>>> ll.shape                                                  # types x agents
(10, 6)
>>> bool(np.allclose(ll[0], ll[0, 0]))                        # the random type: the same whatever the agent
True
"""
from __future__ import annotations

import json
import math
import threading
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from ....errors import ModelError
from ....inference.core import logsumexp
from ....inference.mixture import log_sum_exp, population_tables
from ..rules.actions import Action
from ..rules.cards import CARD_CODES
from . import kernels
from .exposure import PublicWatch, exposure as public_exposure
from .model import HAND_DECISIONS, UNDERFLOW, UNINFORMATIVE, BoltzmannModel, card_choice_probs_in_logs, hands_of
from .utility import Utility, UtilityWeights, card_plays

__all__ = ["COVER_TYPE", "HIDER_SECRECY", "HIDER_TYPE", "KINDS", "PlayerPopulation", "PlayerType",
           "careful_hiders_population", "default_population", "group_types", "single_type"]

#: The kinds of player a type can be.
KINDS = ("random", "boltzmann", "bluff", "cover")
#: A bluff type whose secrecy is under this (marker points per unit of exposure) is named a hider: it gives up
#: a little for secrecy where a bluffer gives up a lot.
HIDER_SECRECY = 6.0


@dataclass(frozen=True)
class PlayerType:
    """One kind of player: ``kind`` in :data:`KINDS`, with its rationality ``beta``, tremble ``epsilon``
    and, for a bluffer, ``secrecy`` (marker points per unit of exposure); for a ``cover`` type (a hider who
    covers) also ``cover``, the probability it covers, and ``slack``, the marker points it gives up at most to
    cover; ``label`` groups types in read-outs (say, every tremble of one ``beta``).

    >>> PlayerType("boltzmann", beta=2.0).name
    'careful (β≈2)'
    >>> PlayerType("bluff").name, PlayerType("bluff", beta=3.0, secrecy=2.0).name    # a hider gives up less
    ('bluffer', 'hider (β≈3, secrecy 2)')
    >>> PlayerType("cover", beta=3.0, secrecy=2.0, cover=0.3).name
    'hider who covers (β≈3, secrecy 2, cover 0.3)'
    >>> PlayerType("bluff", beta=-1)
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: PlayerType beta must be a number >= 0, not -1
    """

    kind: str
    beta: float = 1.0
    epsilon: float = 0.05
    secrecy: float = 8.0
    cover: float = 0.0
    slack: float = 1.5

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ModelError(f"PlayerType kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        for what, v, hi in (("beta", self.beta, math.inf), ("epsilon", self.epsilon, 1.0),
                            ("secrecy", self.secrecy, math.inf), ("cover", self.cover, 1.0),
                            ("slack", self.slack, math.inf)):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) \
                    or not (0 <= v <= hi) or math.isnan(v) or (what in ("beta", "slack") and math.isinf(v)):
                raise ModelError(f"PlayerType {what} must be a number >= 0{'' if hi == math.inf else ' and <= 1'}, "
                                 f"not {v!r}")

    @property
    def label(self) -> str:
        """The name without the tremble: ``random``, ``careful (β≈2)``, ``bluffer``, or for a bluff type of
        secrecy under :data:`HIDER_SECRECY` ``hider (β≈3, secrecy 2)``."""
        if self.kind == "random":
            return "random"
        if self.kind == "cover":
            slack = "" if self.slack == 1.5 else f", slack {self.slack:g}"
            return f"hider who covers (β≈{self.beta:g}, secrecy {self.secrecy:g}, cover {self.cover:g}{slack})"
        if self.kind == "bluff":
            return "bluffer" if self.secrecy >= HIDER_SECRECY \
                else f"hider (β≈{self.beta:g}, secrecy {self.secrecy:g})"
        word = "careless" if self.beta < 0.5 else "steady" if self.beta < 1.5 else "careful" if self.beta < 5 \
            else "greedy"
        return f"{word} (β≈{self.beta:g})"

    @property
    def name(self) -> str:
        """:attr:`label`, with ", trembles" for a large tremble (epsilon above 0.1)."""
        if self.kind == "random" or self.epsilon <= 0.1:
            return self.label
        return self.label[:-1] + ", trembles)" if self.label.endswith(")") else self.label + " (trembles)"


#: Integer rationalities up to this are raised from ``exp(U - top)`` by multiplications instead of an ``exp`` each.
_POWERS = 64

#: A bluffer's exponentials are of its scores minus its rationality times the best utility (no pass for their
#: maximum) when its rationality times its secrecy is at most this: the largest stays above exp(-this), far from
#: underflow.
_SHIFT_SPAN = 300.0


class Scratch:
    """Scratch arrays (float64) reused from call to call: a bump allocator over one flat buffer, for the large
    temporaries of a call of :meth:`PlayerPopulation.batch_type_log_likelihoods` (a game's option tables, a few
    times over). A new array that large is a new mapping of memory whose pages fault in again on every call; these
    are written into instead (in 5-player games, about a third of the array code's time: BENCHMARKS.md, issue 26).
    :meth:`reset` starts a call: arrays taken before it are overwritten after it. What a call takes beyond the
    buffer is new arrays, and the next :meth:`reset` grows the buffer to hold all of it.

    >>> s = Scratch()
    >>> s.take((2, 3)).shape, s.size                  # the first call: a new array (the buffer is empty)
    ((2, 3), 0)
    >>> s.reset(); s.size                             # the next call's buffer holds what the first took
    8
    >>> b, c = s.take((2, 3)), s.take((1,))           # b from the buffer; no room left for c: a new array
    >>> b.base is c.base
    False
    >>> s.reset(); b, c = s.take((2, 3)), s.take((1,)); s.size      # now both (each padded to 8 floats, 64 bytes)
    16
    >>> b.base is c.base, bool(np.shares_memory(b, c))
    (True, False)
    """

    __slots__ = ("_buf", "_at", "_need", "busy")

    def __init__(self):
        self._buf = np.empty(0)
        self._at = self._need = 0
        self.busy = False

    @property
    def size(self) -> int:
        """The buffer's length (floats)."""
        return len(self._buf)

    def reset(self) -> None:
        """Start a call: take from the buffer's start again (grown first to what the last call took)."""
        if self._need > len(self._buf):
            self._buf = np.empty(self._need)
        self._at = self._need = 0

    def take(self, shape) -> np.ndarray:
        """A float64 array of ``shape`` (its values undefined), from the buffer while it has room."""
        size = math.prod(shape)
        step = -(-size // 8) * 8            # 64-byte steps: every array starts where the buffer's start is aligned
        self._need += step
        if self._at + step > len(self._buf):
            return np.empty(shape)
        out = self._buf[self._at:self._at + size].reshape(shape)
        self._at += step
        return out


#: each thread's :class:`Scratch` for :meth:`PlayerPopulation.batch_type_log_likelihoods`
_SCRATCH = threading.local()


def _raise(powers: list, k: int, out: np.ndarray | None, spare: list | None = None,
           take=None) -> np.ndarray:
    """``powers[0] ** k`` by repeated squaring, the squares ``powers[i] = powers[0] ** (2 ** i)`` kept in ``powers``
    for the next call (written into arrays taken from ``spare`` while it has some, then from ``take(shape)`` if
    given), the factors multiplied low to high, the last product written into ``out`` (a power of two is copied
    there; ``out=None``: a new array, or a square itself)."""
    i, e = 0, None
    while True:
        if i == len(powers):
            powers.append(np.multiply(powers[-1], powers[-1], out=spare.pop() if spare else
                                      take(powers[-1].shape) if take is not None else None))
        if k & 1:
            if e is None:
                e = powers[i]
            elif k == 1:    # the last factor: into ``out`` directly
                return np.multiply(e, powers[i], out=out)
            else:
                e = np.multiply(e, powers[i], out=take(e.shape) if take is not None else None)
        k >>= 1
        i += 1
        if not k:
            if out is not None and e is not out:
                out[...] = e
                return out
            return e


#: :func:`exp_option_sums` reads rationalities that are not integers (up to :data:`_POWERS`) as powers of
#: ``exp(centred / m)`` when they are all multiples of ``1 / m`` for an ``m`` up to this (0.3 = 3 / 10).
_ROOTS = 16


@lru_cache(maxsize=64)
def _common_root(betas: tuple[float, ...]) -> int | None:
    """The least ``m`` in 2 .. :data:`_ROOTS` for which every one of ``betas`` is ``k / m`` with an integer ``k`` from
    1 to :data:`_POWERS` (to 1e-12 relative), else ``None``.

    >>> _common_root((0.3,)), _common_root((0.5, 2.5)), _common_root((0.3, 0.25)), _common_root((1 / 3,))
    (10, 2, None, 3)
    """
    for m in range(2, _ROOTS + 1):
        ks = [b * m for b in betas]
        if all(1 <= round(k) <= _POWERS and abs(k - round(k)) <= 1e-12 * k for k in ks):
            return m
    return None


@lru_cache(maxsize=64)
def _sums_plan(betas: tuple[float, ...]) -> tuple[list, list, int | None, int | None]:
    """How :func:`exp_option_sums` raises ``betas``: ``(whole, other, one, m)``, ``whole`` the integer betas up to
    :data:`_POWERS` as ``(row, beta)``, ``one`` beta 1's row (or ``None``), ``m`` the common root of the others
    (:func:`_common_root`, when it saves an ``exp``; else ``None``) and ``other`` the others as ``(row, k)`` with
    ``beta = k / m``, or as ``(row, beta)`` without a root."""
    whole = [(j, int(beta)) for j, beta in enumerate(betas) if beta.is_integer() and 1 <= beta <= _POWERS]
    rest = [j for j in range(len(betas)) if all(j != w for w, _ in whole)]
    m = _common_root(tuple(betas[j] for j in rest)) if rest and (whole or len(rest) > 1) else None
    other = [(j, round(betas[j] * m) if m is not None else betas[j]) for j in rest]
    return whole, other, (betas.index(1.0) if 1.0 in betas else None), m


@lru_cache(maxsize=64)
def _addition_chain(targets: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Steps ``(k, a, b)``, ``k = a + b``, from 1 to every one of ``targets`` (each ``a`` and ``b`` 1 or an earlier
    step's ``k``): a short addition chain, so that ``x ** k`` for every target costs one multiplication a step.
    Each target in increasing order is one step from two numbers had (``a + b``), else two (``a + (b + c)``), else
    reached from its half. 3, 10, 30, 100 (the default grid's rationalities over 10) in 8 steps, where squaring
    afresh for each (``x ** 10`` from ``x ** 2`` and ``x ** 8``, its powers then by squaring ``x ** 10``) takes 10.

    >>> [k for k, _, _ in _addition_chain((3, 10, 30, 100))]
    [2, 3, 5, 10, 20, 30, 50, 100]
    >>> [k for k, _, _ in _addition_chain((1, 64))], [k for k, _, _ in _addition_chain((1, 2, 4, 10, 14, 128))]
    ([2, 4, 8, 16, 32, 64], [2, 4, 6, 10, 14, 18, 32, 64, 128])
    """
    had, steps = [1], []

    def add(k, a, b):
        had.append(k)
        steps.append((k, a, b))

    def reach(t):
        if t in had:
            return
        for a in sorted(had, reverse=True):
            if t - a in had:
                return add(t, a, t - a)
        for a in sorted(had, reverse=True):
            for b in sorted(had, reverse=True):
                if t - a - b in had:
                    add(t - a, b, t - a - b)
                    return add(t, a, t - a)
        h = t // 2
        reach(h)
        if t % 2:
            reach(h + 1)
        add(t, h, t - h)

    for t in sorted(set(targets)):
        reach(t)
    return tuple(steps)


@lru_cache(maxsize=64)
def _rooted_plan(betas: tuple[float, ...]) -> tuple[int, list, list, int, int | None]:
    """:func:`exp_option_sums`' steps for ``betas`` with a common root ``m`` (:func:`_sums_plan`): arrays numbered
    ``raised``'s rows first, then temporaries; ``(base, steps, copies, temps, e1)``, ``base`` the array of
    ``q = exp(centred / m)``, ``steps`` the multiplications ``(out, a, b)`` along :func:`_addition_chain` (a
    temporary written into again once its power is no longer read), ``copies`` the rows ``(out, row)`` of a power
    two betas share, ``temps`` how many temporaries, ``e1`` the array of ``q ** m`` (``None`` without an integer
    beta: not computed)."""
    whole, other, _, m = _sums_plan(betas)
    rows: dict[int, list[int]] = {}             # the powers of q written into raised: their rows
    for j, k in [*other, *((j, m * k) for j, k in whole)]:
        rows.setdefault(k, []).append(j)
    chain = _addition_chain(tuple([*rows, m] if whole else rows))
    last = {1: 0}                               # the step after which a power is no longer read
    for s, (_, a, b) in enumerate(chain):
        last[a] = last[b] = s
    if whole:
        last[m] = len(chain)                    # e1: returned
    temps = 0
    free: list[int] = []
    def place(k):
        nonlocal temps
        if k in rows:
            return rows[k][0]
        if free:
            return free.pop()
        temps += 1
        return len(betas) + temps - 1
    at = {1: place(1)}
    base = at[1]
    steps = []
    for s, (k, a, b) in enumerate(chain):
        x, y = at[a], at[b]
        for d in {a, b}:
            if last[d] == s and d not in rows:
                free.append(at.pop(d))
        at[k] = place(k)
        steps.append((at[k], x, y))
    copies = [(j, js[0]) for js in rows.values() for j in js[1:]]
    return base, steps, copies, temps, (at[m] if whole else None)


#: How :func:`exp_option_sums` raises its betas: ``True`` every beta its own ``exp``, ``False`` one ``exp`` raised
#: by multiplications (:func:`_sums_plan`), ``None`` (the default) whichever is faster where numpy runs
#: (:func:`_exp_is_vectorised`). Tests set it to read both ways.
EXP_EACH: bool | None = None


@lru_cache(maxsize=1)
def _exp_is_vectorised() -> bool:
    """Whether numpy's float64 ``exp`` runs on AVX-512 here (its ``X86_V4`` or an ``AVX512`` target, as numpy's
    dispatch reports it: fixed for the machine, so every run reads the same numbers). There an ``exp`` costs less
    than two multiplications (0.57 against 0.35 ns an entry, BENCHMARKS.md, issue 26), and every beta's own
    ``exp`` (3 multiplications and 4 exps for the default grid's) beats raising one by 8 multiplications along an
    addition chain; elsewhere numpy's float64 ``exp`` is the C library's, one entry at a time (2.7 ns an entry on
    the same machine with AVX-512 switched off), and the multiplications win. ``False`` when numpy cannot say
    (an older numpy, without numpy.lib.introspect).

    >>> isinstance(_exp_is_vectorised(), bool)
    True
    """
    try:
        from numpy.lib.introspect import opt_func_info
        target = opt_func_info(func_name="^exp$", signature="float64")["exp"]["dd"]["current"]
    except (ImportError, AttributeError, KeyError, TypeError, ValueError):
        return False
    return "X86_V4" in target or "AVX512" in target


def _exps_each() -> bool:
    """:data:`EXP_EACH`, ``None`` read as :func:`_exp_is_vectorised`."""
    return _exp_is_vectorised() if EXP_EACH is None else EXP_EACH


def _option_sums(raised: np.ndarray, starts: np.ndarray | None, out: np.ndarray | None = None) -> np.ndarray:
    """``raised`` summed over its last axis, or by run of it from each of ``starts`` (into ``out`` if given)."""
    if starts is None:
        return raised.sum(axis=-1, out=out)
    return np.add.reduceat(raised, starts, axis=-1, out=out)


def exp_option_sums(centred: np.ndarray, betas, take=None,
                    starts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """``sum_x exp(beta * centred[..., x])`` over the last axis for every ``beta`` of ``betas`` (all > 0), shape
    ``(len(betas), *centred.shape[:-1])``, and ``exp(centred)`` when it was computed (else ``None``). ``take``:
    where the large temporaries come from (a function of a shape, as :meth:`Scratch.take`; default new arrays).
    ``starts``: the last axis holds several tables side by side, table ``t`` from ``starts[t]``: the sums are
    by table, shape ``(len(betas), *centred.shape[:-1], len(starts))``.

    ``centred`` is a table of utilities minus their maximum (``<= 0``). ``exp`` is the costly part of reading a
    decision. Where numpy's ``exp`` is vectorised (:func:`_exp_is_vectorised`; :data:`EXP_EACH`) every beta has
    its own, ``exp(beta * centred)`` bit for bit, each summed as soon as it is computed (one array for all but
    ``exp(centred)``, which is returned: it stays in cache). Elsewhere ``exp(centred)`` is taken once, and an
    integer ``beta`` (up to 64) raises it by repeated squaring (a few multiplications, each a few ulp from
    ``exp(beta * centred)``: the sums agree to about 1e-15 relative); when the other betas are all multiples of
    one ``1 / m`` (the default grid's 0.3 is 3 / 10) and that saves an ``exp``, a single ``exp(centred / m)`` is
    raised to every power instead, along one short addition chain (:func:`_addition_chain`; ``exp(centred)``
    among them: each within about 1e-14 relative of its own ``exp``).

    >>> c = np.array([[0.0, -1.0, -2.5]])
    >>> sums, e1 = exp_option_sums(c, [0.3, 1.0, 3.0])
    >>> bool(np.allclose(sums, [np.exp(b * c).sum(axis=-1) for b in (0.3, 1.0, 3.0)], rtol=1e-14, atol=0))
    True
    >>> bool(np.allclose(e1, np.exp(c), rtol=1e-14, atol=0))
    True
    >>> bool(np.array_equal(exp_option_sums(c, [1.0, 3.0])[1], np.exp(c)))     # integers only: exp(c) itself
    True
    >>> by = exp_option_sums(np.array([[0.0, -1.0, 0.0, -2.5]]), [0.3, 1.0], starts=np.array([0, 1]))[0]
    >>> bool(np.allclose(by[1], [[1.0, np.exp([-1.0, 0.0, -2.5]).sum()]], rtol=1e-14, atol=0))
    True
    """
    new = take if take is not None else np.empty
    key = tuple(map(float, betas))
    if _exps_each():
        return _exp_sums_each(centred, key, new, starts)
    # every beta's exp(beta * centred) written into one array (then one sum over the options for all): integer
    # betas from the powers e1, e1**2, e1**4, ... (each computed once for all betas), multiplied low to high
    raised = new((len(betas), *centred.shape))
    whole, other, one, m = _sums_plan(key)
    if m is not None:       # q = exp(centred / m) raised along one addition chain: beta k / m as q ** k, e1 = q ** m
        base, steps, copies, temps, e1 = _rooted_plan(key)
        arrays = [*raised, *(new(centred.shape) for _ in range(temps))]     # raised's rows, then the temporaries
        q = np.multiply(centred, 1.0 / m, out=arrays[base])
        np.exp(q, out=q)
        for k, i, j in steps:
            np.multiply(arrays[i], arrays[j], out=arrays[k])
        for k, i in copies:
            raised[k] = raised[i]
        return _option_sums(raised, starts), (arrays[e1] if e1 is not None else None)
    powers: list[np.ndarray] = []       # e1 ** (2 ** i)
    if whole:
        powers.append(np.exp(centred, out=raised[one] if one is not None else new(centred.shape)))
    for j, k in whole:
        if j != one:
            _raise(powers, k, raised[j], take=take)
    for j, beta in other:
        np.multiply(centred, beta, out=raised[j])
        np.exp(raised[j], out=raised[j])
    return _option_sums(raised, starts), (powers[0] if powers else None)


def _exp_sums_each(centred: np.ndarray, betas: tuple[float, ...], new, starts) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`exp_option_sums` with every beta's own ``exp``: ``exp(beta * centred)`` into one array, summed before
    the next beta writes over it (it is read while still in cache), ``exp(centred)`` (beta 1: no multiplication)
    last (the caller reads it next), returned.

    >>> c = np.array([[0.0, -1.0, -2.5], [-0.5, 0.0, -np.inf]])
    >>> sums, e1 = _exp_sums_each(c, (0.3, 1.0), np.empty, None)
    >>> bool(np.array_equal(sums, [np.exp(0.3 * c).sum(axis=-1), np.exp(c).sum(axis=-1)]))
    True
    >>> bool(np.array_equal(e1, np.exp(c))), _exp_sums_each(c, (0.3, 2.0), np.empty, None)[1]
    (True, None)
    """
    lead = centred.shape[:-1]
    sums = np.empty((len(betas), *lead, *(() if starts is None else (len(starts),))))
    e1 = spare = None
    for j, beta in sorted(enumerate(betas), key=lambda jb: jb[1] == 1.0):    # beta 1 last: its exp stays in cache
        if beta == 1.0:         # (into the other betas' array, free now and in cache, if there was one)
            e1 = np.exp(centred, out=spare if spare is not None else new(centred.shape))
            _option_sums(e1, starts, out=sums[j, ...])
            continue
        if spare is None:
            spare = new(centred.shape)
        np.multiply(centred, beta, out=spare)
        np.exp(spare, out=spare)
        _option_sums(spare, starts, out=sums[j, ...])
    return sums, e1


class PlayerPopulation:
    """Types and their prior weights: a player model that learns each player's type (see the module doc).

    ``types`` a sequence of :class:`PlayerType`, ``prior`` their weights
    (default uniform; normalized), ``weights`` the utility weights every
    type plays by. Players at one table are often alike (a class of
    beginners): ``prior`` may be a table (kinds of table x types), one row
    of type weights per kind of table, with ``table_names`` and
    ``table_prior`` (default uniform); the players' types are then
    independent given the kind of table, which the belief learns too.
    :attr:`prior` is always the marginal weight of each type.
    """

    def __init__(self, types, prior=None, weights: UtilityWeights | None = None, *, table_names=None,
                 table_prior=None):
        types = tuple(types)
        if not types or not all(isinstance(t, PlayerType) for t in types):
            raise ModelError("a population needs at least one PlayerType")
        self.tables, self.table_prior, names = population_tables(tuple(t.name for t in types), prior, table_prior,
                                                                 table_names)
        self.types = types
        self.type_names = tuple(t.name for t in types)
        #: each type's :attr:`PlayerType.label` (types that differ only by tremble share one)
        self.labels = tuple(t.label for t in types)
        #: how the prior was fitted (:func:`~heimlich_lab.games.heimlich.inference.population.fit_population`), else
        #: None
        self.fit: dict | None = None
        self.table_names = names
        self.prior = self.table_prior @ self.tables
        with np.errstate(divide="ignore"):      # their logs, once (every belief of every game starts from them)
            self._logs = (np.log(self.prior), np.log(self.tables), np.log(self.table_prior))
        for a in (self.tables, self.table_prior, self.prior, *self._logs):
            a.setflags(write=False)
        self.utility = Utility.shared(weights)   # one cache for every model of these weights
        self.weights = self.utility.weights
        self._models = []
        for t in types:
            m = BoltzmannModel(beta=0.0 if t.kind == "random" else t.beta,
                               epsilon=0.0 if t.kind == "random" else t.epsilon, weights=self.weights)
            m.utility = self.utility        # one utility table for all types (its cache is shared)
            self._models.append(m)
        kinds = np.array([t.kind for t in types])
        self._beta = np.array([0.0 if t.kind == "random" else t.beta for t in types])
        #: the distinct betas and each type's among them (the tremble grid repeats every beta)
        self._betas, self._beta_of = np.unique(self._beta, return_inverse=True)
        #: the betas whose option table needs exponentials (sorted: a beta of 0, random, comes first)
        self._hot = int((self._betas == 0).sum())
        self._eps = np.array([0.0 if t.kind == "random" else t.epsilon for t in types])
        self._eps_col = self._eps[:, None]
        with np.errstate(divide="ignore"):
            self._log_keep = np.log1p(-self._eps_col)          # log(1 - epsilon), (K, 1)
            self._log_eps = np.log(self._eps_col)              # log(epsilon), (K, 1)
        #: the types that read the spectator's exposure: bluffers, and hiders who cover
        self._bluff = np.flatnonzero((kinds == "bluff") | (kinds == "cover"))
        #: a hider who covers: (log P(covers), log P(does not), slack) by type
        with np.errstate(divide="ignore"):
            self._cover = {k: (float(np.log(t.cover)), float(np.log1p(-t.cover)), t.slack)
                           for k, t in enumerate(types) if t.kind == "cover"}
        #: the types whose own part reads the exposure (a secrecy above 0), each with its own exponentials; a
        #: hider who covers of secrecy 0 is, when it does not cover, its Boltzmann type: its row is read from the
        #: option sums of every rationality, and only its cover step is added (a cheap type)
        self._secret = np.array([k for k in self._bluff if types[k].secrecy > 0], dtype=int)
        #: the batch's tremble step, one row per distinct (rationality, tremble) among the types whose row it keeps
        #: (a bluffer's is written over): (the rows' betas, log(1 - epsilon), log(epsilon), each type's row or
        #: None when every type has its own)
        # (a secret type's row is written over: it points at row 0, which a kept type's parameters make; when every
        # type is secret, type 0's row is made only to be written over)
        kept = [k for k in range(len(types)) if k not in self._secret] or [0]
        mix: dict[tuple, int] = {}
        row_of = {k: mix.setdefault((int(self._beta_of[k]), float(self._eps[k])), len(mix)) for k in kept}
        of = [row_of.get(k, 0) for k in range(len(types))]
        first = [next(k for k in kept if row_of[k] == r) for r in range(len(mix))]
        self._mix = (self._beta_of[first], self._log_keep[first][:, :, None], self._log_eps[first][:, :, None],
                     None if len(mix) == len(types) else np.array(of))
        #: the rows of ``_mix`` whose log P(option) before the tremble is kept as it is: no tremble and a
        #: rationality above 0 (its P may be below the smallest float); every other's tremble is mixed in
        #: probabilities (a random type's P is 1 / n)
        self._mix_plain = np.array([r for r, k in enumerate(first) if self._eps[k] == 0 and self._beta[k] > 0],
                                   dtype=int)
        #: the rows' epsilon (M, 1, 1)
        self._mix_eps = self._eps[first][:, None, None]
        #: each hider who covers' slack, in the order of ``_cover`` (the compiled cover step's argument)
        self._slacks = np.array([c[2] for c in self._cover.values()])
        #: whether :meth:`batch_type_log_likelihoods` uses the compiled kernels when numba is installed
        #: (:func:`~heimlich_lab.games.heimlich.inference.kernels.in_use`); ``False``: always the array code
        self.compiled = True
        self._secrecy = np.array([t.secrecy for t in types])
        self._hand_cache: dict = {}
        #: the spectator a bluffer hides from: the kit's BoltzmannModel (beta 1, epsilon 0.05), as BluffBot's
        watcher = BoltzmannModel(weights=self.weights)
        watcher.utility = self.utility
        self._public = PublicWatch(watcher)
        #: where the watcher's beta is among the distinct betas (its option sums are then computed already)
        at = np.flatnonzero(self._betas == watcher.beta)
        self._beta_watch = int(at[0]) if at.size else None
        #: the type that is the watch's model (beta 1, epsilon 0.05), whose likelihoods it can be fed, or None
        same = [k for k, t in enumerate(types) if t.kind == "boltzmann" and t.beta == watcher.beta
                and t.epsilon == watcher.epsilon]
        self._watched = same[0] if same else None

    # ---------------------------------------------------------------- identity
    @property
    def log_prior(self) -> np.ndarray:
        """log :attr:`prior` (K,): the marginal prior of each type (read-only)."""
        return self._logs[0]

    @property
    def log_tables(self) -> np.ndarray:
        """log :attr:`tables` (kinds of table x types; read-only)."""
        return self._logs[1]

    @property
    def table_log_prior(self) -> np.ndarray:
        """log :attr:`table_prior` (kinds of table; read-only)."""
        return self._logs[2]

    @property
    def cache_key(self):
        return ("PlayerPopulation", self.types, tuple(np.round(self.tables, 12).ravel()),
                tuple(np.round(self.table_prior, 12)), self.weights)

    def __repr__(self):
        parts = ", ".join(f"{n} {p:.2f}" for n, p in zip(self.type_names, self.prior))
        return f"PlayerPopulation({parts})"

    def describe(self, probabilities) -> str:
        """Type probabilities (K,) in words, grouped by label, largest first:
        ``"random 0.71, careful (β≈3) 0.24, bluffer 0.05"``.

        >>> pop = PlayerPopulation([PlayerType("random"), PlayerType("boltzmann", 3.0), PlayerType("bluff")])
        >>> pop.describe([0.05, 0.24, 0.71])
        'bluffer 0.71, careful (β≈3) 0.24, random 0.05'
        """
        return ", ".join(f"{k} {v:.2f}" for k, v in group_types(self.labels, probabilities).items())

    def describe_prior(self) -> dict[str, float]:
        """The prior weights grouped by label, the heaviest first."""
        return group_types(self.labels, self.prior)

    # ---------------------------------------------------------------- likelihoods
    def type_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        """``log P(action | type k, actor plays for agent a)``, shape (types, agents); ``None`` for a
        decision that tells nothing (chance, dossier entries). Proper probabilities of the decision
        among its options, so that the types can be compared."""
        if action.kind in UNINFORMATIVE:
            return None
        if action.kind in HAND_DECISIONS:
            with np.errstate(divide="ignore"):
                out = np.log(self._hand_probabilities(view, actor, action))
            if self._bluff.size and self._watched is not None and view.viewer is None:
                # the spectator's pool of hands is the watch's: its answer is one of ours here too
                self._public.feed(view, actor, action, out[self._watched])
            return out
        d = self._models[0].decision_utilities(view, actor, action)
        if d is None:
            return None
        U, i = d
        out = self._table_log_likelihoods(U, i, self._public_row(view, actor))
        if self._bluff.size and self._watched is not None:   # the watch's model's answer is one of ours
            self._public.feed(view, actor, action, out[self._watched])
        return out

    def _hand_probabilities(self, view, actor: str, action: Action, public: bool = False,
                            watch: bool = False) -> np.ndarray:
        """Every type's :meth:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel.hand_decision_probabilities`
        (K, A) in one pass: the types differ only by ``beta`` and ``epsilon`` there (a bluffer's hand
        decisions are its Boltzmann model's). ``public``: as a spectator reads it from ``view``'s public part
        (the pool without the viewer's own hand, the actor's hand unknown), as the bluffer's watch does;
        ``watch``: the watch's model's probabilities instead (A,), by the same arithmetic."""
        model = self._models[0]
        st, active, hands, stay = model.hand_situation(view, actor, action)
        if public and view.viewer is not None:
            hands = _spectator_hands(view, actor)
        u = self.utility
        vals = u.card_values(st, CARD_CODES, active)
        codes = tuple(vals)
        k = action.kind
        key = (st, active, k == "announce", stay is not None, watch, *hands)
        beta, eps = (np.array([self._public.model.beta]), np.array([self._public.model.epsilon])) if watch \
            else (self._beta, self._eps)
        hit = self._hand_cache.get(key)
        if hit is None:
            M, w = hands_of(codes, *hands)
            G = np.array(list(vals.values())).reshape(len(codes), len(st.agents))
            hit = self._announce_probs(G, M, w, u.stay(st), beta, eps) if k == "announce" \
                else self._card_choice_probs(M, w, np.vstack([G, u.stay(st)[None, :]]), stay is not None, beta, eps)
            if len(self._hand_cache) > 512:
                self._hand_cache.clear()
            self._hand_cache[key] = hit
        out = self._hand_answer(hit, action, codes, st, active, beta, eps)
        return out[0] if watch else out

    def _hand_answer(self, hit, action: Action, codes, st, active, beta, eps) -> np.ndarray:
        """The probability of ``action`` by type and agent from a hand decision's table ``hit`` (its options in the
        last axis but one; leading axes: several viewers' tables at once)."""
        model = self._models[0]
        u = self.utility
        k = action.kind
        if k == "announce":
            return hit if action.args[0] else 1.0 - hit
        if k in ("pass", "done"):
            return hit[..., -1, :]
        p_card = hit[..., model.card_row(codes, action), :]
        plays = card_plays(st, action.args[0])
        if action not in plays:
            raise ModelError(f"{action} cannot be carried out in this position")
        if len(plays) == 1:
            return p_card
        z = beta[:, None, None] * u.cards(st, plays, active)[None]          # (K, P, A)
        p_t = np.exp(z[:, plays.index(action)] - log_sum_exp(z, 1))
        eps = eps[:, None]
        return p_card * ((1 - eps) * p_t + eps / len(plays))

    def pool_type_log_likelihoods(self, views: dict, actor: str, action: Action) -> dict:
        """:meth:`type_log_likelihoods` of one decision that depends on a hand as each of several viewers reads it
        (``views``: viewer -> their own view just before it; each reads the actor's hand from their own pool): a
        round's card choices of every viewer who does not hold the actor's hand in one pass, as the hands' tables
        add up (the viewers' pools differ only in the hands' weights: every hand pattern's sums are computed once,
        then weighed per viewer). The same numbers as asking viewer by viewer, to rounding (within 1e-12, tested).

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
        >>> rec = play(Rules(top_secret=True), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])},
        ...            seed=4)
        >>> views = {p: [d for d in public_decisions(rec, p) if d.action.kind == "done"][0] for p in rec.players}
        >>> d = views["Ann"]
        >>> pop = default_population()
        >>> got = pop.pool_type_log_likelihoods({p: v.view for p, v in views.items()}, d.actor, d.action)
        >>> all(np.allclose(got[p], pop.type_log_likelihoods(v.view, d.actor, d.action), rtol=0, atol=1e-12)
        ...     for p, v in views.items())
        True
        """
        pooled = {o: v for o, v in views.items() if v.viewer != actor}
        out = self._pooled_round(pooled, actor, action) if len(pooled) > 1 else None
        out = {} if out is None else out
        with np.errstate(divide="ignore"):
            for o, v in views.items():
                out[o] = np.log(self._hand_probabilities(v, actor, action)) if o not in out else np.log(out[o])
        return out

    def _pooled_round(self, views: dict, actor: str, action: Action) -> dict | None:
        """:meth:`_hand_probabilities` of a decision that depends on a hand (a round's card choice or an
        announcement) for viewers who read the actor's hand from their pools, at once (``None``: read them one by
        one, e.g. where a sharp type's sums underflow)."""
        model = self._models[0]
        first = next(iter(views.values()))
        st, active, _, stay = model.hand_situation(first, actor, action)
        u = self.utility
        vals = u.card_values(st, CARD_CODES, active)
        codes = tuple(vals)
        k = len(codes)
        if k > 30:
            return None
        deck = first.rules.deck_for(len(first.players))
        public = first.discards + first.removed
        n = first.hand_sizes[actor]
        bits = 1 << np.arange(k)
        keys, ws = [], []
        counts = [public.count(c) for c in CARD_CODES]
        for v in views.values():         # each viewer's hands, as patterns of playable codes (one number each)
            if v.discards != first.discards or v.removed != first.removed:
                return None
            hand = v.hand
            M, w = hands_of(codes, None, tuple(deck[c] - m - hand.count(c) for c, m in zip(CARD_CODES, counts)), n)
            keys.append((M @ bits).astype(np.int64))
            ws.append(w)
        patterns, at = np.unique(np.concatenate(keys), return_inverse=True)
        W = np.empty((len(ws), len(patterns)))
        start = 0
        for o, w in enumerate(ws):
            W[o] = np.bincount(at[start:start + len(w)], weights=w, minlength=len(patterns))
            start += len(w)
        P = ((patterns[:, None] >> np.arange(k)) & 1).astype(float)                      # (U, k)
        G = np.array(list(vals.values())).reshape(k, len(st.agents))
        beta, eps_k = self._beta, self._eps
        if action.kind == "announce":
            hit = self._pooled_announce(G, P, W, u.stay(st))
            return dict(zip(views, self._hand_answer(hit, action, codes, st, active, beta, eps_k)))
        V = np.vstack([G, u.stay(st)[None, :]])
        L = beta[:, None, None] * (V - V.max(axis=0))[None]                               # (K, k + 1, A)
        Es = np.exp(L)
        E = Es[:, :-1]
        D = np.einsum("uc,kca->kua", P, E)
        n_opt = P.sum(axis=1)
        if stay is not None:
            D = D + Es[:, -1][:, None, :]
            n_opt = n_opt + 1
        ok = n_opt > 0
        Wok = W[:, ok]
        total = Wok.sum(axis=1)
        if not (total > 0).all() or not (D[:, ok] > UNDERFLOW).all():
            return None
        P, D, n_opt, Wn = P[ok], D[:, ok], n_opt[ok], Wok / total[:, None]
        # the sums over hands are linear in each viewer's weights: products of matrices, (1 - eps) w / D per hand
        nv, K, A = len(ws), len(beta), E.shape[2]
        R = (1.0 / D).transpose(1, 0, 2).reshape(len(P), K * A)                           # (U, K A)
        X = np.matmul((Wn[:, :, None] * P[None]).transpose(0, 2, 1), R)                   # (viewers, k, K A)
        keep = (1 - eps_k)[None, :, None, None]
        spread = eps_k[None, :, None] * ((Wn / n_opt) @ P)[:, None, :]  # (viewers, K, k): the tremble
        cards = E[None] * (keep * X.reshape(nv, k, K, A).transpose(0, 2, 1, 3)) + spread[..., None]
        if stay is not None:
            Y = (Wn @ R).reshape(nv, K, A)
            tremble = eps_k[None, :] * (Wn / n_opt).sum(axis=1)[:, None]                  # (viewers, K)
            stays = Es[:, -1][None] * (keep[..., 0] * Y) + tremble[..., None]
        else:
            stays = np.zeros((nv, K, A))
        hit = np.concatenate([cards, stays[:, :, None, :]], axis=2)
        p = self._hand_answer(hit, action, codes, st, active, beta, eps_k)                # (O, K, A)
        return dict(zip(views, p))

    def _pooled_announce(self, G, P, W, stay):
        """``P(yes | type, a)`` (O, K, A) for every viewer at once, as :meth:`_announce_probs` (``P`` the hand
        patterns (U, k), ``W`` each viewer's weights of them (O, U))."""
        S = P.sum(axis=1)
        can = S > 0
        K, A = len(self._beta), len(stay)
        if not can.any():
            return np.zeros((len(W), K, A))
        tau = self.weights.softness
        gm = G.max(axis=0)
        Y = tau * np.log((P[can] @ np.exp((G - gm) / tau)) / S[can, None]) + gm          # (U, A)
        beta, eps = self._beta[:, None, None], self._eps[:, None, None]
        with np.errstate(over="ignore"):    # a sharp type: exp(+large) is inf and the fraction 0
            p_yes = (1 - eps) / (1 + np.exp(-beta * (Y - stay)[None])) + eps / 2         # (K, U, A)
        flat = p_yes.transpose(1, 0, 2).reshape(int(can.sum()), K * A)
        return (W[:, can] @ flat).reshape(len(W), K, A) / W.sum(axis=1)[:, None, None]

    def _announce_probs(self, G, M, w, stay, beta, eps):
        """``P(yes | type, a)`` (K, A), as :meth:`BoltzmannModel._announce_probs` for every type at once (``beta``,
        ``eps``: the types' rationalities and trembles)."""
        S = M.sum(axis=1)
        can = S > 0
        if not can.any():
            return np.zeros((len(beta), len(stay)))
        tau = self.weights.softness
        gm = G.max(axis=0)
        Y = tau * np.log((M[can] @ np.exp((G - gm) / tau)) / S[can, None]) + gm          # (H, A)
        beta, eps = beta[:, None, None], eps[:, None, None]
        with np.errstate(over="ignore"):    # a sharp type: exp(+large) is inf and the fraction 0
            p_yes = (1 - eps) / (1 + np.exp(-beta * (Y - stay)[None])) + eps / 2         # (K, H, A)
        return np.einsum("h,kha->ka", w[can], p_yes) / w.sum()

    def _card_choice_probs(self, M, w, V, stay_legal, beta, eps_k):
        """``P(option | type, a)`` (K, k + 1, A), as :meth:`BoltzmannModel._card_choice_probs` for every
        type at once (``V``: the card values and the unchanged state stacked, (k + 1, A); ``beta``, ``eps_k``:
        the types' rationalities and trembles)."""
        L = beta[:, None, None] * (V - V.max(axis=0))[None]                      # (K, k + 1, A)
        Es = np.exp(L)
        E = Es[:, :-1]
        D = np.einsum("hc,kca->kha", M, E)
        n_opt = M.sum(axis=1)
        if stay_legal:
            D = D + Es[:, -1][:, None, :]
            n_opt = n_opt + 1
        ok = n_opt > 0
        if not ok.any():
            raise ModelError("no hand the actor could hold gives it a legal option here")
        if not (D[:, ok] > UNDERFLOW).all():    # a sharp type: the same sums in log space (no 0 / 0)
            return card_choice_probs_in_logs(M, w, L, stay_legal, eps_k)
        M, D, n_opt, w = M[ok], D[:, ok], n_opt[ok], w[ok] / w[ok].sum()
        eps = eps_k[:, None, None]
        inv = (1 - eps) * w[None, :, None] / D                                          # (K, H, A)
        tremble = eps_k[:, None] * (w / n_opt)[None]                                # (K, H)
        cards = E * np.einsum("hc,kha->kca", M, inv) + (tremble @ M)[:, :, None]
        stay = Es[:, -1] * inv.sum(axis=1) + tremble.sum(axis=1)[:, None] if stay_legal \
            else np.zeros((len(eps), E.shape[2]))
        return np.concatenate([cards, stay[:, None, :]], axis=1)

    def _public_row(self, view, actor: str):
        """The actor's row of the spectator's belief before this decision, which a bluffer hides from
        (``None`` without bluffer types, or for a game that started from a position: a fresh spectator)."""
        if not self._bluff.size:
            return None
        return self._public.fed_row(view, actor)

    def _table_log_likelihoods(self, U: np.ndarray, i, row=None) -> np.ndarray:
        """Every type's log P(option i | agent) for a table of option utilities ``U`` (n, A): (K, A), or
        (K, len(i), A) for an array of options ``i``; ``row``: the spectator's belief in the actor's agent
        before the decision (a bluffer's exposure; ``None``: a fresh spectator, every agent alike)."""
        n = len(U)
        shares = {}                                           # a hider's cover, by type (applied after the tremble)
        Ut = np.ascontiguousarray(U.T)                        # (A, n): sums over options run along memory
        top = Ut.max(axis=1)                                  # (A,); beta >= 0, so beta * top is the top of beta * U
        b = self._betas[:, None]
        e1 = None
        if np.isfinite(top).all():
            # the common case, without numpy's (slow) error-state switch; beta 0 (random) is exactly log(n)
            h = self._hot
            lse = np.empty((len(self._betas), len(top)))
            sums, e1 = exp_option_sums(Ut - top[:, None], self._betas[h:])
            lse[h:] = np.log(sums) + b[h:] * top
            lse[:h] = math.log(n)
        else:
            top = np.where(np.isfinite(top), top, 0.0)        # an agent with no possible option: -inf below
            with np.errstate(divide="ignore", invalid="ignore"):
                lse = np.log(np.exp(self._betas[:, None, None] * (Ut - top[:, None])[None]).sum(axis=2)) + b * top
        if np.ndim(i) == 0:
            out = (b * U[i][None, :] - lse)[self._beta_of]                                   # (K, A)
        else:
            out = (b[:, :, None] * U[i][None] - lse[:, None, :])[self._beta_of]              # (K, len(i), A)
        if self._bluff.size:
            # how each option points at each agent: the watcher's (BoltzmannModel) probabilities, shared out
            wb, we, at = self._public.model.beta, self._public.model.epsilon, self._beta_watch
            lse_w = lse[at] if at is not None else np.log(np.exp(wb * (Ut - top[:, None])).sum(axis=1)) + wb * top
            if wb == 1 and at is not None and e1 is not None:   # exp(U - lse) = exp(U - top) / its sum
                p = (1 - we) * (e1 / sums[at - h][:, None]) + we / n
            else:
                p = (1 - we) * np.exp(wb * Ut - lse_w[:, None]) + we / n                     # (A, n)
            exposure = public_exposure(row, p)
            for k in self._secret:      # (a type of secrecy 0 keeps its Boltzmann row, above)
                z = self._beta[k] * (Ut - self._secrecy[k] * exposure)                        # (A, n), finite
                zt = z.max(axis=1)
                out[k] = (z[:, i].T if np.ndim(i) else z[:, i]) - (np.log(np.exp(z - zt[:, None]).sum(axis=1)) + zt)
            for k, (_, _, slack) in self._cover.items():
                share = _cover_shares(Ut, exposure, slack)                                   # (A, n)
                shares[k] = share[:, i].T if np.ndim(i) else share[:, i]
        # the tremble: log((1 - eps) P + eps / n); at eps 0 the second term is -inf, at eps 1 the first
        if np.ndim(i) == 0:
            out = np.logaddexp(self._log_keep + out, self._log_eps - math.log(n))
        else:
            out = np.logaddexp(self._log_keep[:, :, None] + out, self._log_eps[:, :, None] - math.log(n))
        for k, share in shares.items():
            out[k] = _covered(out[k], share, self._cover[k])
        return out

    def batch_type_log_likelihoods(self, decisions, hands: bool = False) -> list[np.ndarray | None] | None:
        """:meth:`type_log_likelihoods` of a game's decisions in order, computed over all their tables at once.

        ``decisions``: ``(view, actor, action)`` of one game from its start, in the order they were taken,
        every decision in it (the bluffer's watch follows them). The option tables of the decisions are
        put side by side into one array (the compiled kernels: one array per table size), so that every type's
        log-likelihood of every decision costs a handful of array operations instead of a dozen per decision; the
        spectator a bluffer hides from is followed along (one short step per decision), then every bluffer's
        exposure is one array operation too. The same numbers as asking decision by decision, to rounding
        (sums over options taken in another order: within 1e-12, tested).

        ``hands``: read the decisions that depend on a hand too (Top Secret's announcements and rounds), each as
        its view's viewer reads it (their own pool of cards), the tables of one position and pool computed once;
        the watch follows them as a spectator reads them. Without it (the default) a game with such a decision
        returns ``None``, for callers that read those their own way.

        Returns one (K, A) array or ``None`` per decision, or ``None`` if this game's decisions cannot be
        read this way (a decision that depends on a hand without ``hands``, an agent without a possible
        option): the caller asks :meth:`type_log_likelihoods` one by one then.

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
        >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
        >>> items = [(d.view, d.actor, d.action) for d in public_decisions(rec, None, until=30)]
        >>> pop = default_population()
        >>> batch = pop.batch_type_log_likelihoods(items)
        >>> one = [pop.type_log_likelihoods(*d) for d in items]
        >>> all((a is None) == (b is None) for a, b in zip(batch, one))
        True
        >>> max(float(np.abs(a - b).max()) for a, b in zip(batch, one) if a is not None) < 1e-12
        True
        """
        read = self._with_scratch([list(decisions)], hands)
        return None if read is None else read[0]

    def batch_games(self, games) -> list[list[np.ndarray | None] | None]:
        """:meth:`batch_type_log_likelihoods` of several games at once (a list of each game's decisions), one
        result per game: the games' option tables side by side in one array (those of one number of agents), so
        that the array operations' fixed costs are paid once for all of them (a tournament reads a few finished
        games at a time). The same numbers as each game by itself (every operation is by decision or by option;
        tested). A game with decisions that depend on a hand, or any game of a call that cannot be read this way,
        is read by itself.

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
        >>> bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}
        >>> games = [[(d.view, d.actor, d.action) for d in public_decisions(play(Rules(), bots, seed=s), None, until=30)
        ...           if d.view is not None] for s in (4, 5)]
        >>> pop = default_population()
        >>> both = pop.batch_games(games)
        >>> all(np.array_equal(a, b) for g, got in zip(games, both)
        ...     for a, b in zip(got, pop.batch_type_log_likelihoods(g)) if a is not None)
        True
        """
        games = [list(d) for d in games]
        out: list = [None] * len(games)
        together: dict[int, list[int]] = {}     # the number of agents -> the games read together
        for g, decisions in enumerate(games):
            if len(games) == 1 or not decisions or any(a.kind in HAND_DECISIONS for _, _, a in decisions):
                out[g] = self.batch_type_log_likelihoods(decisions)
            else:
                together.setdefault(len(decisions[0][0].agents), []).append(g)
        for gs in together.values():
            read = self._with_scratch([games[g] for g in gs], False) if len(gs) > 1 else None
            for g, got in zip(gs, read if read is not None else [self.batch_type_log_likelihoods(games[g])
                                                                  for g in gs]):
                out[g] = got
        return out

    def _with_scratch(self, games: list[list], hands: bool) -> list | None:
        """:meth:`_batch` with this thread's scratch arrays."""
        scratch = getattr(_SCRATCH, "scratch", None)
        if scratch is None:
            scratch = _SCRATCH.scratch = Scratch()
        if scratch.busy:        # (a call within a call: its own arrays)
            return self._batch(games, hands, Scratch())
        scratch.busy = True
        scratch.reset()
        try:
            return self._batch(games, hands, scratch)
        finally:
            scratch.busy = False

    def _batch(self, games: list[list], hands: bool, scratch: Scratch) -> list[list | None] | None:
        """:meth:`batch_games` of ``games`` (one game if ``hands``), the large temporaries taken from ``scratch``:
        each game's answers, or ``None`` for a game that cannot be read this way; ``None`` for all of them
        if their tables do not fit together (the caller reads them one by one)."""
        take = scratch.take
        # the games' decisions one after the other; game g's are decisions[bounds[g]:bounds[g + 1]]
        decisions = [d for game in games for d in game]
        bounds = [0]
        for game in games:
            bounds.append(bounds[-1] + len(game))
        out: list[np.ndarray | None] = [None] * len(decisions)
        tables: list[tuple[int, np.ndarray, int]] = []
        table_bounds = [0]          # game g's tables are tables[table_bounds[g]:table_bounds[g + 1]]
        hand: list[int] = []        # the decisions that depend on a hand (Top Secret's announcements and rounds)
        model = self._models[0]
        for j, (view, actor, action) in enumerate(decisions):
            while j >= bounds[len(table_bounds)]:        # the first decision of the next game
                table_bounds.append(len(tables))
            if action.kind in UNINFORMATIVE:
                continue
            if action.kind in HAND_DECISIONS:
                if not hands:
                    return None
                hand.append(j)
                continue
            d = model.decision_utilities(view, actor, action)
            if d is not None:
                tables.append((j, d[0], d[1]))
        table_bounds.extend([len(tables)] * (len(games) + 1 - len(table_bounds)))
        readable = [True] * len(games)      # the games read this way
        hand_watch: dict[int, np.ndarray] = {}
        if hand:
            follow = bool(tables) and self._bluff.size > 0
            read = self._hand_log_likelihoods([decisions[j] for j in hand], follow)
            if read is None:
                return None
            for j, (rows, seen) in zip(hand, read):
                out[j] = rows
                if seen is not None:
                    hand_watch[j] = seen
        if not tables:
            return [out[b:e] for b, e in zip(bounds, bounds[1:])]
        A = tables[0][1].shape[1]
        if any(U.shape[1] != A for _, U, _ in tables) or any(out[j].shape[1] != A for j in hand):
            return None
        D = len(tables)
        compiled = self.compiled and kernels.in_use()
        # every distinct rationality's log P(option taken) before the tremble, and log n, by decision: the tremble
        # is mixed in once for all decisions after (elementwise)
        b = self._betas[:, None, None]
        h = self._hot
        watch = self._public.model
        wb, we = watch.beta, watch.epsilon
        # every table side by side along the options, (A, N) for N options in all (no padding), each decision a run
        # of columns from ``starts``; its sums and maxima by run (reduceat in the array code)
        sizes = np.array([len(U) for _, U, _ in tables])
        starts = np.zeros(D, dtype=np.intp)
        sizes[:-1].cumsum(out=starts[1:])
        N = int(starts[-1] + sizes[-1])
        Ut = take((A, N))
        np.concatenate([U.T for _, U, _ in tables], axis=1, out=Ut)
        top = np.maximum.reduceat(Ut, starts, axis=1)                             # (A, D)
        if not np.isfinite(top).all():
            return None
        taken_at = starts + np.array([p for _, _, p in tables])                     # (D,) the option taken
        chosen = Ut[:, taken_at]                                                    # (A, D)
        if compiled:    # the option sums in one compiled pass over the options (the watch's exp kept)
            sums, ew, sums_w = kernels.ragged_option_sums(Ut, top, starts, sizes, self._betas[h:], wb)
            centred = e1 = near = None
        else:
            centred = top.repeat(sizes, axis=1)
            np.subtract(Ut, centred, out=centred)          # (in the repeat's own array: no other's pages)
            # the hiders' options near the best, while Ut and centred are in cache
            near = [_near_options(Ut, top, starts, slack, centred) for _, _, slack in self._cover.values()]
            sums, e1 = exp_option_sums(centred, self._betas[h:], take, starts)      # (B, A, D)
        log_n = np.log(sizes)                                                       # (D,)
        log_ns = log_n[:, None]
        lse = np.empty((len(self._betas), A, D))
        lse[:h] = log_n
        lse[h:] = np.log(sums) + self._betas[h:, None, None] * top[None]
        raw_all = np.empty((len(self._betas), D, A))
        raw_all[...] = (b * chosen[None] - lse).transpose(0, 2, 1)
        watched = np.empty((D, A))
        if self._bluff.size:
            if compiled:
                lse_w = np.log(sums_w) + wb * top
            else:
                lse_w = lse[self._beta_watch] if self._beta_watch is not None \
                    else np.log(np.add.reduceat(np.exp(wb * centred), starts, axis=1)) + wb * top
            if self._watched is None:       # the watch's model's own log-likelihoods of the option taken
                with np.errstate(divide="ignore"):
                    watched[...] = np.logaddexp(np.log1p(-we) + wb * chosen - lse_w, np.log(we) - log_n).T
        # the tremble, log((1 - eps) P + eps / n), each distinct row once, then every type's, in probabilities: one
        # exp and one log where np.logaddexp costs 20 ns an entry (P = exp(raw) cannot underflow where eps / n is
        # added; without a tremble the row is raw itself)
        mix_b, mix_keep, _, mix_of = self._mix
        inv_ns = np.exp(-log_ns)                                                                    # (D, 1): 1 / n
        res = np.add(mix_keep, raw_all[mix_b])
        np.exp(res, out=res)
        res += self._mix_eps * inv_ns
        plain = self._mix_plain
        if plain.size:
            res[plain] = 1.0                  # (its exp may be 0: no log of it)
        np.log(res, out=res)
        if plain.size:
            res[plain] = raw_all[mix_b[plain]]
        if mix_of is not None:
            res = res[mix_of]                                                                       # (K, D, A)
        if self._bluff.size:
            if self._watched is not None:   # the watch's model is one of the types: its answer is ours
                watched = res[self._watched]
            # the bluffers' log P(option taken) before the tremble and the hiders' cover shares, by decision
            # the watch follows every decision in order: the tables' and the hand decisions' (as a spectator reads
            # those, from the public pool), each table's row picked out after
            if hand_watch:          # (one game)
                if "take" in decisions[-1][0].log.kinds():    # who holds what changed: the watch cannot follow
                    return [None]
                at_step = {j: d for d, (j, _, _) in enumerate(tables)}
                order = sorted([*at_step, *hand_watch])
                steps = [(decisions[j][1], watched[at_step[j]] if j in at_step else hand_watch[j]) for j in order]
                along = self._public.rows_along(decisions[order[0]][0], steps)
                if along is None:
                    return [None]
                rows = [along[s] for s, j in enumerate(order) if j in at_step]
                rows_all = np.asarray(rows) if rows[0] is not None else None   # (D, A): each table's row, stacked once
            else:   # the tables' decisions only, in order: their values are the rows of `watched` as they stand
                rows_all = self._rows_of_games(decisions, bounds, tables, table_bounds, watched, readable)
            if compiled:
                R = rows_all if rows_all is not None else np.ones((D, A))
                secret_raw, cover_share = kernels.ragged_exposures(
                    Ut, top, ew, sums_w, 1 - we, we, R, starts, sizes, taken_at, self._beta[self._secret],
                    self._secrecy[self._secret], _SHIFT_SPAN, self._slacks, _COVER_TIE)
            else:
                secret_raw = np.empty((len(self._secret), D, A))
                cover_share = np.empty((len(self._cover), D, A))
                self._ragged_exposure(Ut, top, centred, e1, sums, lse_w, rows_all, sizes, starts, taken_at,
                                      secret_raw, cover_share, take, near)
            for s, k in enumerate(self._secret):       # (the same tremble in probabilities, where it has one)
                if self._eps[k] > 0:
                    mixed = np.exp(self._log_keep[k] + secret_raw[s])
                    mixed += self._eps[k] * inv_ns
                    res[k] = np.log(mixed, out=mixed)
                else:
                    res[k] = np.logaddexp(self._log_keep[k] + secret_raw[s], self._log_eps[k] - log_ns)
            for share, (k, cover) in zip(cover_share, self._cover.items()):
                res[k] = _covered(res[k], share, cover, self._eps[k] > 0)
        for (j, _, _), rows_j in zip(tables, res.transpose(1, 0, 2)):      # res[:, d], decision by decision
            out[j] = rows_j
        return [out[b:e] if ok else None for b, e, ok in zip(bounds, bounds[1:], readable)]

    def _rows_of_games(self, decisions, bounds, tables, table_bounds, watched, readable) -> np.ndarray | None:
        """The spectator's rows before each table's decision (D, A), each game followed from its start (the
        tables' decisions only: their values are the rows of ``watched`` as they stand); ``None`` where no game
        has rows (games that started from a position: no rows, as if every row were ones); a game the spectator
        cannot follow (a take, an impossible step) is marked in ``readable`` (its rows ones)."""
        rows_all = None
        for g, (b, e) in enumerate(zip(table_bounds, table_bounds[1:])):
            if b == e:
                continue
            if "take" in decisions[bounds[g + 1] - 1][0].log.kinds():    # who holds what changed: the watch
                readable[g] = False                                         # cannot follow along
                continue
            rows = self._public.rows_stacked(decisions[tables[b][0]][0], [decisions[j][1] for j, _, _ in tables[b:e]],
                                             watched[b:e])
            if rows is False:
                readable[g] = False
            elif rows is not None:
                if rows_all is None:
                    if b == 0 and e == len(tables):     # (one game: its rows as they are)
                        return rows
                    rows_all = np.ones_like(watched)    # (x * 1.0 is x: a game without rows reads as if R were 1)
                rows_all[b:e] = rows
        return rows_all

    def _ragged_exposure(self, Ut, top, centred, e1, sums, lse_w, rows_all, sizes, starts, taken_at, secret_raw,
                         cover_share, take, near) -> None:
        """The array code's bluffers and hiders who cover, every table at once (:meth:`_batch`'s layout: ``Ut``
        (A, N) the tables side by side, ``top`` (A, D) their maxima, ``centred`` ``Ut`` minus them, ``e1`` its
        ``exp`` or ``None``, ``sums`` the option sums, ``lse_w`` (A, D) the watch's log-sums, ``rows_all`` (D, A)
        the spectator's rows before each decision or ``None``, ``near`` each hider's :func:`_near_options`): written
        into ``secret_raw`` (each bluffer's log P(option taken) before its tremble) and ``cover_share`` (each hider's
        share of the option taken)."""
        watch = self._public.model
        wb, we = watch.beta, watch.epsilon
        R = rows_all.T if rows_all is not None else None                                  # (A, D)
        # P(option, agent) weighted by the rows: (1 - we) P_watch(option | agent) R + R we / n
        if wb == 1 and self._beta_watch is not None and e1 is not None:    # exp(U - lse) = e1 / its sum
            parts = np.empty((2, *top.shape))                                             # (2, A, D)
            np.divide(1 - we, sums[self._beta_watch - self._hot], out=parts[0])
            parts[1] = we / sizes
            if R is not None:
                parts *= R
            # into e1's own array (read no more, and in cache), each factor repeated by itself: one (2, A, N) repeat
            # is twice the new memory, and early in a run a fresh mapping, faulted in and zeroed, call after call
            # (glibc's threshold for those rises only as larger arrays are freed; BENCHMARKS.md, chunk36)
            p = np.multiply(e1, parts[0].repeat(sizes, axis=1), out=e1)
            p += parts[1].repeat(sizes, axis=1)
        else:
            p = np.subtract(np.multiply(Ut, wb), lse_w.repeat(sizes, axis=1), out=take(Ut.shape))
            np.exp(p, out=p)
            p *= 1 - we
            p += (we / sizes).repeat(sizes)
            if R is not None:
                p *= R.repeat(sizes, axis=1)
        total = p.sum(axis=0)                                                             # (N,)
        # the exposures p / total (the spectator's belief in each agent after each option), written over p (read no
        # more); an option no agent can take (a total of 0) exposes none
        if bool(total.min() > 0):
            ex = np.divide(p, total, out=p)
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                ex = np.where(total > 0, p / total, 0.0)
        for c, (_, _, slack) in enumerate(self._cover.values()):     # every hider's share (before ex is written over)
            cover_share[c] = _cover_shares_ragged(Ut, top, ex, sizes, starts, taken_at, slack, near[c]).T
        last = self._secret[-1] if self._secret.size else None
        for s, k in enumerate(self._secret):      # (a type of secrecy 0 keeps its Boltzmann row, above)
            beta, secrecy = self._beta[k], self._secrecy[k]
            z = np.multiply(ex, secrecy, out=ex if k == last else take(ex.shape))        # in ex's array for the last
            np.subtract(centred, z, out=z)        # U - top - secrecy * exposure (A, N)
            if beta != 1:      # (the default bluffer's rationality is 1: no pass to multiply)
                z *= beta
            # its largest entry is at least -beta * secrecy (at the best option; an exposure is at most 1): unless
            # that is far down, no shift keeps the largest exponential away from underflow
            taken = z[:, taken_at]                  # (A, D) (a copy) before z is raised in place
            if beta * secrecy <= _SHIFT_SPAN:
                np.exp(z, out=z)
                secret_raw[s] = (taken - np.log(np.add.reduceat(z, starts, axis=1))).T
            else:
                zt = np.maximum.reduceat(z, starts, axis=1)
                z -= zt.repeat(sizes, axis=1)
                np.exp(z, out=z)
                secret_raw[s] = (taken - (np.log(np.add.reduceat(z, starts, axis=1)) + zt)).T

    def _hand_log_likelihoods(self, decisions, watch: bool) -> list | None:
        """:meth:`type_log_likelihoods` of decisions that depend on a hand, each as its view's viewer reads it (their
        own pool; their own hand when they are the actor): ``(rows (K, A), seen)`` per decision, ``seen`` the watch's
        model's log-likelihoods of it as a spectator reads it (``None`` without ``watch``). The decisions of one
        position and pool share one table (:meth:`_hand_probabilities`' cache: every observer whose pool is the
        same, the spectator's among them). ``None`` if the watch's model is not one of the types (the caller reads
        the decisions one by one then)."""
        out = []
        with np.errstate(divide="ignore"):
            for view, actor, action in decisions:
                rows = np.log(self._hand_probabilities(view, actor, action))
                seen = None
                if watch and self._watched is None:     # the watch's model by itself (the same arithmetic)
                    seen = np.log(self._hand_probabilities(view, actor, action, public=True, watch=True))
                elif watch:
                    seen = rows[self._watched] if view.viewer is None \
                        else np.log(self._hand_probabilities(view, actor, action, public=True)[self._watched])
                out.append((rows, seen))
        return out

    def option_log_probabilities(self, view, actor: str, legal) -> np.ndarray | None:
        """``log P(x | type k, agent a)`` for every action ``x`` of ``legal`` (one decision's options), shape
        (types, len(legal), agents), in one pass over the decision's table; ``None`` if the model does not read
        this decision or it depends on a hand (ask :meth:`type_log_likelihoods` per action then)."""
        legal = list(legal)
        if not legal or any(x.kind in UNINFORMATIVE or x.kind in HAND_DECISIONS for x in legal):
            return None
        tables = [self._models[0].decision_utilities(view, actor, x) for x in legal]
        if any(t is None or t[0] is not tables[0][0] for t in tables):
            return None
        return self._table_log_likelihoods(tables[0][0], np.array([i for _, i in tables]),
                                           self._public_row(view, actor))

    def agent_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        """The prior mixture ``log sum_k pi_k P(action | type k, agent a)`` (A,), for code that takes one
        vector per decision (a :class:`~heimlich_lab.games.heimlich.inference.belief.Belief` learns the types
        instead)."""
        ll = self.type_log_likelihoods(view, actor, action)
        if ll is None:
            return None
        with np.errstate(divide="ignore"):
            return logsumexp(ll + self.log_prior[:, None], 0)

    # ---------------------------------------------------------------- saving
    def to_dict(self) -> dict:
        out = {"types": [_saved(t) for t in self.types], "prior": self.tables.tolist(),
               "table_names": list(self.table_names), "table_prior": self.table_prior.tolist(),
               "weights": asdict(self.weights)}
        if self.fit is not None:
            out["fit"] = self.fit
        return out

    @classmethod
    def from_dict(cls, data: dict) -> PlayerPopulation:
        try:
            pop = cls([PlayerType(**t) for t in data["types"]], data["prior"], UtilityWeights(**data["weights"]),
                      table_names=data.get("table_names"), table_prior=data.get("table_prior"))
        except (KeyError, TypeError) as e:
            raise ModelError(f"not a saved population: {e}") from None
        pop.fit = data.get("fit")
        return pop

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> PlayerPopulation:
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ModelError(f"not a saved population (JSON): {e}") from None
        if not isinstance(data, dict):
            raise ModelError("not a saved population: expected a JSON object")
        return cls.from_dict(data)


    def save(self, path) -> None:
        """Write :meth:`to_json` to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    @classmethod
    def load(cls, path) -> PlayerPopulation:
        """A population saved with :meth:`save`."""
        with open(path, encoding="utf-8") as f:
            return cls.from_json(f.read())


#: Options whose exposures differ by less than this are tied for a hider's cover (rounding must not pick one).
_COVER_TIE = 1e-9


def _spectator_hands(view, actor: str) -> tuple:
    """The hands a spectator reads ``actor`` as holding at ``view``, as
    :func:`~heimlich_lab.games.heimlich.inference.model.hands_of`'s ``(None, pool, n)``: the deck minus the discards
    and the card out of the game, whatever the viewer holds."""
    deck = view.rules.deck_for(len(view.players))
    seen = view.discards + view.removed
    return None, tuple(deck[c] - seen.count(c) for c in CARD_CODES), view.hand_sizes[actor]


def _cover_shares(Ut: np.ndarray, exposure: np.ndarray, slack: float) -> np.ndarray:
    """``P(option | the player covers, plays for agent a)`` (..., A, n): of the options worth at most ``slack``
    less to agent ``a`` than its best (``Ut`` (..., A, n) the utilities), the ones whose exposure (the
    spectator's belief in ``a`` after the option, same shape) is lowest, shared equally.

    >>> Ut = np.array([[3.0, 2.0, 0.0], [0.0, 2.0, 3.0]])                 # two agents, three options
    >>> ex = np.array([[0.6, 0.2, 0.1], [0.1, 0.3, 0.3]])
    >>> _cover_shares(Ut, ex, 1.5)            # agent 0: option 2 is too costly; agent 1: options 1 and 2 tie
    array([[0. , 1. , 0. ],
           [0. , 0.5, 0.5]])
    """
    near = np.isfinite(Ut) & (Ut >= Ut.max(axis=-1, keepdims=True) - slack)
    ex = np.where(near, exposure, np.inf)
    low = near & (ex <= ex.min(axis=-1, keepdims=True) + _COVER_TIE)
    return low / np.maximum(low.sum(axis=-1, keepdims=True), 1)     # an agent with no possible option: none


def _near_options(Ut: np.ndarray, top: np.ndarray, starts: np.ndarray, slack: float,
                  centred: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The options worth at most ``slack`` less to an agent than its best, exactly as :func:`_cover_shares` reads
    them (``Ut >= top - slack``), for tables side by side (:func:`_cover_shares_ragged`'s layout): ``(near, at)``,
    ``near`` (M,) their flat indices into ``Ut`` (A, N) in order (by agent, then table), ``at`` (A * D + 1,) where
    each (agent, table)'s run of them starts in ``near``, then M (every run has one: its best, as ``top`` is
    finite). ``centred``: ``Ut`` minus each table's ``top``, if at hand (to rounding: it only narrows the options
    to test).

    >>> Ut = np.array([[3.0, 2.0, 0.0, 1.0, 1.0], [0.0, 2.0, 3.0, 0.0, 1.0]])  # two tables: 3 options, then 2
    >>> near, at = _near_options(Ut, np.array([[3.0, 1.0], [3.0, 1.0]]), np.array([0, 3]), 1.5)
    >>> near.tolist(), at.tolist()               # agent 0: options 0, 1 | 3, 4; agent 1: options 1, 2 | 3, 4
    ([0, 1, 3, 4, 6, 7, 8, 9], [0, 2, 4, 6, 8])
    """
    A, N = Ut.shape
    D = len(starts)
    floor = top - slack                                                     # (A, D)
    if centred is None:
        centred = Ut - np.repeat(top, np.diff(starts, append=N), axis=1)
    # about 1 in 20 options in 5-player games. First those within the slack (and a margin far above the rounding of
    # the centred utilities and of the floor) by the centred utilities, no floor repeated over the options; then
    # Ut >= floor for them alone (the centred utilities alone differ from it by rounding at exactly slack under)
    # (array methods and ufuncs only: numpy's functions in Python, np.diff, np.flatnonzero, cost more than these
    # arrays of a few thousand entries do, between a game's other work)
    margin = 1e-9 * (1.0 + slack + float(np.abs(top).max()))
    near = (centred >= -(slack + margin)).ravel().nonzero()[0]
    # where each (agent, table) starts, flat, then A * N (row A's first start): A * D + 1 bounds
    bounds = np.add.outer(np.arange(0, (A + 1) * N, N), starts).ravel()[:A * D + 1]
    at = near.searchsorted(bounds)
    keep = Ut.ravel()[near] >= floor.ravel().repeat(at[1:] - at[:-1])
    if not keep.all():
        near = near[keep]
        at = near.searchsorted(bounds)
    return near, at


def _cover_shares_ragged(Ut: np.ndarray, top: np.ndarray, exposure: np.ndarray, sizes: np.ndarray,
                         starts: np.ndarray, taken_at: np.ndarray, slack: float,
                         near: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """:func:`_cover_shares` read at each table's option taken, bit for bit, for tables side by side (the array
    code's layout in :meth:`PlayerPopulation.batch_type_log_likelihoods`): ``Ut`` (A, N) the tables' utilities,
    table ``t`` the ``sizes[t]`` columns from ``starts[t]``, ``top`` (A, D) their maxima by agent (every entry
    finite), ``exposure`` (A, N) the exposures (each from 0 to 1), ``taken_at`` (D,) the column of each table's
    option taken: the share of the option taken (A, D), by minima and counts by run of the options near the best
    (``near``: :func:`_near_options`' answer, if at hand).

    >>> Ut = np.array([[3.0, 2.0, 0.0, 1.0, 1.0], [0.0, 2.0, 3.0, 0.0, 1.0]])  # two tables: 3 options, then 2
    >>> ex = np.array([[0.6, 0.2, 0.1, 0.5, 0.5], [0.1, 0.3, 0.3, 0.4, 0.6]])
    >>> top = np.array([[3.0, 1.0], [3.0, 1.0]])
    >>> _cover_shares_ragged(Ut, top, ex, np.array([3, 2]), np.array([0, 3]), np.array([2, 3]), 1.5)
    array([[0. , 0.5],
           [0.5, 1. ]])
    >>> _cover_shares_ragged(Ut, top, ex, np.array([3, 2]), np.array([0, 3]), np.array([1, 4]), 1.5)   # other options
    array([[1. , 0.5],
           [0.5, 0. ]])
    """
    near, at = _near_options(Ut, top, starts, slack) if near is None else near
    runs, at = at[1:] - at[:-1], at[:-1]
    ex = exposure.ravel()[near]
    limit = np.minimum.reduceat(ex, at)                                     # (A * D,): the lowest near the best,
    limit += _COVER_TIE                                                     # and its tie
    count = np.add.reduceat(ex <= limit.repeat(runs), at, dtype=np.intp).reshape(top.shape)  # (each at least 1)
    # the option taken near the best and among the lowest: its share 1 / count
    mine = (Ut[:, taken_at] >= top - slack) & (exposure[:, taken_at] <= limit.reshape(top.shape))
    return mine / count


def _covered(log_p: np.ndarray, share: np.ndarray, cover, trembles: bool = False) -> np.ndarray:
    """``log((1 - c) P + c share)``: a hider's log-likelihoods ``log_p`` of the options taken when it does not
    cover (its tremble included), mixed with its cover's ``share`` of them; ``cover`` is ``(log c, log(1 - c),
    slack)``. ``trembles``: the hider has a tremble, so ``P`` is at least ``epsilon / n`` (its ``exp`` cannot
    underflow): mixed in probabilities (one exp and one log, no np.logaddexp nor error state to switch), unless
    it always covers (``c`` 1: a share of 0 is then impossible).

    >>> np.exp(_covered(np.log(np.array([0.5, 0.1])), np.array([0.0, 1.0]), (np.log(0.2), np.log(0.8), 1.5)))
    array([0.4 , 0.28])
    >>> bool(np.allclose(_covered(np.log(np.array([0.5, 0.1])), np.array([0.0, 1.0]), (np.log(0.2), np.log(0.8), 1.5),
    ...                           True), np.log([0.4, 0.28]), rtol=0, atol=1e-15))
    True
    >>> _covered(np.log(np.array([0.5, 0.1])), np.array([0.0, 1.0]), (0.0, -np.inf, 1.5), True)
    array([-inf,   0.])
    """
    log_c, log_keep, _ = cover
    if trembles and log_keep > -math.inf:
        mixed = np.exp(log_keep + log_p)
        mixed += math.exp(log_c) * share
        return np.log(mixed, out=mixed)
    with np.errstate(divide="ignore"):
        return np.logaddexp(log_keep + log_p, log_c + np.log(share))


def _saved(t: PlayerType) -> dict:
    """A type's fields to save; ``cover`` and ``slack`` only for a hider who covers (saved files stay as they were)."""
    out = asdict(t)
    if t.kind != "cover":
        del out["cover"], out["slack"]
    return out


def group_types(labels, probabilities) -> dict[str, float]:
    """Probabilities of types summed per label, the likeliest label first.

    >>> group_types(["random", "careful (β≈3)", "careful (β≈3)"], [0.2, 0.3, 0.5])
    {'careful (β≈3)': 0.8, 'random': 0.2}
    """
    grouped: dict[str, float] = {}
    for label, p in zip(labels, np.asarray(probabilities, dtype=float)):
        grouped[label] = grouped.get(label, 0.0) + float(p)
    return dict(sorted(grouped.items(), key=lambda kv: -kv[1]))


#: The default grid, (beta, epsilon): rationality from nearly random to nearly greedy, each with a small and a
#: large tremble, but the careless (beta 0.3) with a small one only (so nearly random that a tremble changes little:
#: its place went to the hider who covers, :data:`HIDER_TYPE`, issue 26 item 4).
DEFAULT_GRID = ((0.3, 0.05), (1.0, 0.05), (1.0, 0.25), (3.0, 0.05), (3.0, 0.25), (10.0, 0.05), (10.0, 0.25))
#: Weights of the grid (in :data:`DEFAULT_GRID` order) at a mixed table: flat over the four rationalities and the
#: two trembles, the careless tremble's share to the careless.
FLAT_GRID = (0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125)
#: Weights of the grid for careful players: centred on the kit's own ``BoltzmannModel()`` (beta 1, epsilon 0.05),
#: the others kept possible.
CAREFUL_GRID = (0.02, 0.8, 0.05, 0.05, 0.02, 0.04, 0.02)
#: A table of careful players: the kit's own model only (careful players of another beta are read through
#: the mixed table).
STEADY_GRID = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
#: The default population's hider who covers (what :class:`~heimlich_lab.bots.HiderBot` does), a cheap one: when it
#: does not cover it is the kit's careful player (beta 1, epsilon 0.05; secrecy 0), so only its cover step costs
#: (issue 26 item 4, chosen on evaluation seeds 101, 202 and 303 and held out on others: BENCHMARKS.md).
HIDER_TYPE = PlayerType("cover", 1.0, 0.05, secrecy=0.0, cover=0.35)
#: Kinds of table: (name, weight of the kind, P(random), P(Boltzmann, spread as ``grid``), P(bluffer), P(hider who
#: covers), grid). The weights of the first four kinds were chosen on evaluation seed 3 by a rule fixed beforehand
#: (the most correct entries on mixed tables among the weightings whose log loss stays 0.006 under the targets on
#: random tables and 1% under them on Boltzmann tables) and checked on seeds 12 and 2026; careful hiders took
#: 0.05 from the careful players' 0.55 (issue 26 item 4; BENCHMARKS.md). The observer's own decisions count as
#: evidence of the kind of table, so a table of the kit's own careful players can be likely a priori without
#: making random tables dishonest; bluffers stay rare a priori, as a random player read as a bluffer (who points
#: *away* from its agent) costs more than a bluffer read as random.
DEFAULT_TABLES = (
    ("a mixed table", 0.1, 0.25, 0.6, 0.15, 0.0, "flat"),
    ("random players", 0.3, 0.99, 0.009, 0.001, 0.0, "careful"),
    ("careful players", 0.5, 0.002, 0.995, 0.003, 0.0, "steady"),
    ("bluffers", 0.02, 0.01, 0.04, 0.95, 0.0, "careful"),
    ("careful hiders", 0.05, 0.002, 0.2, 0.003, 0.795, "careful"),
)


def _population(hider: PlayerType, weights: UtilityWeights | None) -> PlayerPopulation:
    grid = [PlayerType("boltzmann", b, e) for b, e in DEFAULT_GRID]
    types = [PlayerType("random", 0.0, 0.0), *grid, PlayerType("bluff", 1.0, 0.05), hider]
    spread = {g: np.array(w) / sum(w) for g, w in (("flat", FLAT_GRID), ("careful", CAREFUL_GRID),
                                                     ("steady", STEADY_GRID))}
    rows = [[r, *(b * spread[g]), f, c] for _, _, r, b, f, c, g in DEFAULT_TABLES]
    return PlayerPopulation(types, rows, weights, table_names=[t[0] for t in DEFAULT_TABLES],
                            table_prior=[t[1] for t in DEFAULT_TABLES])


def default_population(weights: UtilityWeights | None = None) -> PlayerPopulation:
    """The kit's population: the types random, a Boltzmann grid (:data:`DEFAULT_GRID`), a bluffer and a hider who
    covers (:data:`HIDER_TYPE`), on five kinds of table (:data:`DEFAULT_TABLES`): players at one table tend to be
    alike (a class of beginners, a club of careful players), and which kind of table this is gets learned from
    every player's decisions at once.

    >>> pop = default_population()
    >>> pop.table_names
    ('a mixed table', 'random players', 'careful players', 'bluffers', 'careful hiders')
    >>> pop.type_names[-1]
    'hider who covers (β≈1, secrecy 0, cover 0.35)'
    >>> {k: round(v, 2) for k, v in pop.describe_prior().items()}   # doctest: +NORMALIZE_WHITESPACE
    {'steady (β≈1)': 0.54, 'random': 0.33, 'hider who covers (β≈1, secrecy 0, cover 0.35)': 0.04, 'bluffer': 0.04,
     'careful (β≈3)': 0.02, 'greedy (β≈10)': 0.02, 'careless (β≈0.3)': 0.02}
    """
    return _population(HIDER_TYPE, weights)


#: The hider who covers of :func:`careful_hiders_population` (chosen on evaluation seed 101, BENCHMARKS.md): a
#: HiderBot's own kind (secrecy 2 when it does not cover), with its own exponentials.
COVER_TYPE = PlayerType("cover", 2.0, 0.05, secrecy=2.0, cover=0.35)


def careful_hiders_population(weights: UtilityWeights | None = None) -> PlayerPopulation:
    """:func:`default_population` with its hider who covers replaced by :data:`COVER_TYPE` (beta 2, secrecy 2):
    tables of careful players who hide (``evaluate --populations hider``) read a little sharper, at the cost of
    that type's own exponentials; it is not the default (BENCHMARKS.md, issue 26 item 4: the figures and why).
    ``evaluate --model hiders``.

    >>> pop = careful_hiders_population()
    >>> pop.table_names[-1], pop.type_names[-1]
    ('careful hiders', 'hider who covers (β≈2, secrecy 2, cover 0.35)')
    >>> base = default_population()
    >>> bool(np.allclose(pop.tables, base.tables)), pop.types[:-1] == base.types[:-1]
    (True, True)
    """
    return _population(COVER_TYPE, weights)


def single_type(model: BoltzmannModel) -> PlayerPopulation:
    """A population of one Boltzmann type with ``model``'s parameters (the same beliefs as ``model``)."""
    return PlayerPopulation([PlayerType("boltzmann", model.beta, model.epsilon)], weights=model.weights)
