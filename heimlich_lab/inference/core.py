"""Game-agnostic Bayesian belief over hidden assignments of *slots* to *owners*.

Nothing here knows about Heimlich & Co. The same machinery serves any game in
which some owners (players) secretly hold some slots (agents, team cards,
suitcases, ...):

* :class:`HypothesisSpace` lists every assignment that is still conceivable.
  A hypothesis gives every slot one owner index, or :data:`FREE` (``-1``).
* :class:`Posterior` is an exact, log-space posterior over such a space.
  Every change is recorded as an :class:`Update`, which can say how strongly an
  observation favoured "owner o holds slot s" (:meth:`Update.likelihood_ratios`).
* :func:`explain` turns an :class:`Update` into plain sentences.
* :class:`~heimlich_lab.inference.independent.IndependentPosterior` (in its own
  module, also importable from here) is a teaching foil: one independent
  categorical belief per owner, which ignores that two owners cannot hold the same slot.

Example: Bob is seen doing something that is 8 times more likely if he holds
``red`` than any other slot.

>>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"])
>>> len(space)
6
>>> post = Posterior(space)
>>> upd = post.update_actor("Bob", np.log([0.8, 0.1, 0.1]), label="Bob moved red")
>>> post.marginals_table().round(3)
      red  blue  green
Ann   0.1  0.45   0.45
Bob   0.8  0.10   0.10
free  0.1  0.45   0.45
>>> explain(upd, "Bob moved red")
['Bob moved red: 8.0 times more likely if Bob controls red than if Bob does not (probability 0.33 -> 0.80).']

Conventions
-----------
* Owner and slot arguments may be given by name (``"Bob"``) or by index.
  Where "nobody" makes sense, ``None`` or ``"free"`` stands for :data:`FREE`.
* Marginal tables have shape ``(n_owners + 1, n_slots)``: row ``i`` is
  P(owner ``i`` holds the slot), the last row is P(slot is free).
* Invalid input raises :class:`~heimlich_lab.errors.ModelError` (a
  :class:`ValueError`) and leaves every object exactly as it was.
* Speed: a space caches what updates need (each owner's slot per hypothesis,
  :meth:`HypothesisSpace.single_slot`; a one-hot matrix that turns the marginal
  table into one matrix product, :meth:`HypothesisSpace.event_sums`), so one
  update of 5,040 hypotheses costs about a tenth of a millisecond; spaces are
  immutable, so a cached space serves every posterior built on it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple, overload

import numpy as np
import pandas as pd
from scipy.special import logsumexp as scipy_logsumexp

from heimlich_lab.errors import ModelError

__all__ = [
    "FREE",
    "FREE_LABEL",
    "Change",
    "HypothesisSpace",
    "IndependentPosterior",
    "Marginals",
    "ModelError",
    "Posterior",
    "Update",
    "explain",
    "likelihood_from_owner_values",
]

FREE = -1
"""Table entry of a slot that no owner holds."""

FREE_LABEL = "free"
"""Name used for :data:`FREE` in tables, dicts and :class:`Change` records."""

_LOG2 = math.log(2.0)

#: Above this many cells (hypotheses x table rows x slots) event sums use a bincount, not a dense one-hot matrix.
_DENSE_EVENT_CELLS = 1 << 23


# --------------------------------------------------------------------------- helpers
# Public for the core's other modules (independent, mixture, transition), which build on them.


def check_names(values: Iterable[str], what: str) -> tuple[str, ...]:
    """``values`` as a tuple of distinct non-empty names (``what``, a plural, names them in errors).

    >>> check_names(["Ann", "Bob"], "owners")
    ('Ann', 'Bob')
    >>> check_names(["Ann", "Ann"], "owners")
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: duplicate owners: Ann
    """
    if isinstance(values, str):
        raise ModelError(f"{what} must be a list of names, not the single string {values!r}")
    names = tuple(values)
    if not names:
        raise ModelError(f"there must be at least one {what[:-1]}")
    for n in names:
        if not isinstance(n, str) or not n:
            raise ModelError(f"{what} must be non-empty strings, got {n!r}")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ModelError(f"duplicate {what}: {', '.join(dup)}")
    return names


def slot_list(value: Any) -> list[Any]:
    """A single slot (name or index) or an iterable of them, as a list."""
    if isinstance(value, (str, int, np.integer)):
        return [value]
    return list(value)


def check_vector(values: Any, length: int, what: str, meaning: str) -> np.ndarray:
    """Float vector of the given length without NaN or +inf (``-inf`` is allowed)."""
    try:
        arr = np.array(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{what} must be numbers: {exc}") from None
    if arr.shape != (length,):
        raise ModelError(f"{what} has shape {arr.shape}, expected ({length},): {meaning}")
    if arr.max() < math.inf:  # one pass for the common case: the maximum is nan if any entry is
        return arr
    bad = np.flatnonzero(np.isnan(arr))
    if bad.size:
        raise ModelError(f"{what} contains NaN at {bad.size} position(s) (first: index {bad[0]})")
    bad = np.flatnonzero(np.isposinf(arr))
    if bad.size:
        raise ModelError(
            f"{what} contains +inf at {bad.size} position(s) (first: index {bad[0]}); "
            "a log-likelihood must be finite or -inf"
        )
    return arr


@overload
def log_sum_exp(a: np.ndarray, axis: None = None) -> float: ...
@overload
def log_sum_exp(a: np.ndarray, axis: int) -> np.ndarray: ...
def log_sum_exp(a: np.ndarray, axis: int | None = None) -> np.ndarray | float:
    """``log(sum(exp(a), axis))`` without overflow; ``-inf`` where every entry is. The kit's own, for the small
    arrays of the hot paths, where ``scipy.special.logsumexp``'s checks cost several times the arithmetic
    (the two agree to rounding). ``axis=None``: over every entry (a float).

    >>> float(log_sum_exp(np.log([1.0, 2.0, 3.0]))) == float(np.log(6.0))
    True
    >>> log_sum_exp(np.array([[0.0, -np.inf], [-np.inf, -np.inf]]), 1)
    array([  0., -inf])
    """
    if axis is None:
        return float(log_sum_exp(np.ravel(a), 0))
    top = a.max(axis=axis, keepdims=True)
    out: np.ndarray
    if np.isfinite(top).all():   # the common case, without numpy's (slow) error-state switch
        out = np.log(np.exp(a - top).sum(axis=axis)) + np.squeeze(top, axis=axis)
        return out
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.exp(a - top).sum(axis=axis)) + np.squeeze(top, axis=axis)
        return out


def logsumexp(a: np.ndarray, axis: int | None = None, keepdims: bool = False) -> np.ndarray:
    """``scipy.special.logsumexp(a, axis=axis, keepdims=keepdims)`` for real arrays, bit for bit, in a few
    numpy calls: scipy's own arithmetic (the largest entry taken out of the sum, ``log1p`` of the rest) without
    its input handling, which costs ten times the sums on the small arrays of a belief. The beliefs of the kit
    keep the numbers they had with scipy's function (``tests/test_belief_fixtures.py`` compares them bit for
    bit); :func:`log_sum_exp` is the plainer sum of the hot paths that always had it.

    >>> import scipy.special
    >>> a = np.array([[0.0, 0.7, 1.1], [-np.inf, -np.inf, -0.7]])
    >>> bool((logsumexp(a, 1) == scipy.special.logsumexp(a, axis=1)).all()), float(logsumexp(a[1])) == -0.7
    (True, True)
    >>> logsumexp(np.array([[0.0, -np.inf], [-np.inf, -np.inf]]), 1)
    array([  0., -inf])
    """
    a = np.asarray(a, dtype=float)
    if a.size == 0:     # as scipy: the log of an empty sum
        return np.asarray(scipy_logsumexp(a, axis=axis, keepdims=keepdims))[()]
    if axis is None:
        out = logsumexp(a.reshape(-1), 0)
        return out.reshape((1,) * a.ndim) if keepdims else out[()]
    top = a.max(axis=axis, keepdims=True)
    at_top = a == top
    m = at_top.sum(axis=axis, keepdims=True, dtype=float)       # how many entries are the largest
    if np.isfinite(top).all():                                  # the common case: no errors to ignore
        s = np.exp(np.where(at_top, -np.inf, a) - top).sum(axis=axis, keepdims=True)
        out = np.log1p(np.where(s == 0, s, s / m)) + np.log(m) + top
    else:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            s = np.exp(np.where(at_top, -np.inf, a) - top).sum(axis=axis, keepdims=True)
            out = np.log1p(np.where(s == 0, s, s / m)) + np.log(m) + top
            out = np.where(np.isfinite(out), out, np.log(np.exp(a).sum(axis=axis, keepdims=True)))
    result: np.ndarray = out if keepdims else np.squeeze(out, axis=axis)
    return result


def group_logsumexp(groups: np.ndarray, values: np.ndarray, n_groups: int) -> np.ndarray:
    """``out[g] = log(sum(exp(values[groups == g])))``, vectorized and overflow-safe."""
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, groups, values)
    shift = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out: np.ndarray = np.log(np.bincount(groups, weights=np.exp(values - shift[groups]),
                                             minlength=n_groups)) + shift
        return out


def entropy_bits(p: np.ndarray, logw: np.ndarray) -> float:
    """Shannon entropy in bits of probabilities ``p`` whose logs are ``logw``."""
    pos = p > 0
    return float(-(p[pos] * logw[pos]).sum() / _LOG2)


def frozen(arr: np.ndarray) -> np.ndarray:
    """``arr``, made read-only (the core replaces its arrays, never changes them in place)."""
    arr.setflags(write=False)
    return arr


class Summary:
    """The marginal table and entropy of one state of a posterior (probabilities ``p``, their logs ``logw``,
    over ``space``), each computed when first read (or given, ``marg`` and ``entropy``): a posterior without update
    records is often updated many times between two reads, and a reader may want one owner's row only (:meth:`row`)."""

    __slots__ = ("space", "p", "logw", "_marg", "_entropy")

    def __init__(self, space: HypothesisSpace, p: np.ndarray, logw: np.ndarray, marg: np.ndarray | None = None,
                 entropy: float | None = None):
        self.space, self.p, self.logw, self._marg, self._entropy = space, p, logw, marg, entropy

    @property
    def marginals(self) -> np.ndarray:
        if self._marg is None:
            self._marg = frozen(self.space.event_sums(self.p))
        return self._marg

    @property
    def entropy(self) -> float:
        if self._entropy is None:
            self._entropy = entropy_bits(self.p, self.logw)
        return self._entropy

    def row(self, o: int) -> np.ndarray:
        """Owner ``o``'s row of :attr:`marginals` (a fresh array); without the whole table when the owner holds
        one slot in every hypothesis (equal to the table's row up to rounding)."""
        if self._marg is None:
            single = self.space.single_slot(o)
            if single is not None:
                counts: np.ndarray = np.bincount(single, weights=self.p, minlength=self.space.n_slots)
                return counts
        row: np.ndarray = self.marginals[o].copy()
        return row


def marginal_frame(marginals: np.ndarray, owners: tuple[str, ...], slots: tuple[str, ...]) -> pd.DataFrame:
    """A marginal table (owners + free x slots) as a DataFrame."""
    return pd.DataFrame(marginals, index=[*owners, FREE_LABEL], columns=list(slots))


class Marginals(Mapping[str, dict[str, float]]):
    """What every belief's ``marginals()`` returns, in every game: a labelled table of probabilities, rows
    (owners, and ``"free"`` where a slot may be nobody's) by columns (slots).

    It reads like a dict of dicts (``m["Ann"]["red"]``, ``sorted(m)``, ``m["Ann"].items()``: each row is a
    plain ``{column: probability}`` dict), as an array (``np.asarray(m)``, rows in order), as a DataFrame
    (:attr:`table`), transposed (:attr:`T`), and shows itself as an HTML table in a notebook, as
    empiricaldist's ``Pmf`` does.

    >>> m = Marginals([[0.8, 0.2], [0.2, 0.8]], ["Ann", "Bob"], ["red", "blue"])
    >>> m["Ann"]["red"], sorted(m), np.asarray(m).shape
    (0.8, ['Ann', 'Bob'], (2, 2))
    >>> m.T["blue"]
    {'Ann': 0.2, 'Bob': 0.8}
    >>> m
         red  blue
    Ann  0.8   0.2
    Bob  0.2   0.8
    """

    __slots__ = ("_array", "rows", "columns", "_row_ix")

    def __init__(self, array: Any, rows: Iterable[str], columns: Iterable[str]):
        self.rows, self.columns = tuple(rows), tuple(columns)
        arr = np.array(array, dtype=float)
        if arr.shape != (len(self.rows), len(self.columns)):
            raise ModelError(f"a table of {len(self.rows)} rows and {len(self.columns)} columns, not {arr.shape}")
        self._array = frozen(arr)
        self._row_ix = {r: i for i, r in enumerate(self.rows)}

    def __getitem__(self, row: str) -> dict[str, float]:
        try:
            i = self._row_ix[row]
        except (KeyError, TypeError):
            raise KeyError(row) from None
        return dict(zip(self.columns, map(float, self._array[i])))

    def __iter__(self) -> Iterator[str]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __contains__(self, row: object) -> bool:
        try:
            return row in self._row_ix
        except TypeError:
            return False

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        arr = self._array if dtype is None else self._array.astype(dtype)
        return arr.copy() if copy or arr is self._array else arr

    def to_numpy(self) -> np.ndarray:
        """The probabilities as an array (rows x columns, a fresh copy)."""
        return self._array.copy()

    def to_dict(self) -> dict[str, dict[str, float]]:
        """A plain ``{row: {column: probability}}`` dict (for JSON)."""
        return {r: self[r] for r in self.rows}

    @property
    def table(self) -> pd.DataFrame:
        """The table as a DataFrame (index: rows, columns: columns)."""
        return pd.DataFrame(self._array, index=list(self.rows), columns=list(self.columns))

    @property
    def T(self) -> Marginals:
        """The table transposed: columns become rows (``m.T["red"]["Ann"] == m["Ann"]["red"]``)."""
        return Marginals(self._array.T, self.columns, self.rows)

    def __repr__(self) -> str:
        return repr(self.table)

    def _repr_html_(self) -> str:
        html: str = self.table.to_html()
        return html


# --------------------------------------------------------------------------- hypothesis space


class HypothesisSpace:
    """All assignments of slots to owners that are still conceivable.

    ``table[h, s]`` is the index of the owner holding slot ``s`` in hypothesis
    ``h``, or :data:`FREE` (``-1``). The table is read-only; every operation
    returns a new space. Rows may repeat (see :meth:`unique`).

    >>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"],
    ...                                     known={"red": "Ann"})
    >>> space.table
    array([[ 0,  1, -1],
           [ 0, -1,  1]], dtype=int8)
    >>> space.hypothesis(1)
    {'red': 'Ann', 'blue': 'free', 'green': 'Bob'}
    >>> space.mask("Bob", "green")
    array([False,  True])

    Ann secretly takes one of the free slots at random; each hypothesis above
    has exactly one free slot, so each has one child of weight ``log(1) = 0``:

    >>> child, parent, log_split = space.refine("Ann")
    >>> child.table
    array([[0, 1, 0],
           [0, 0, 1]], dtype=int8)
    >>> parent, log_split
    (array([0, 1]), array([-0., -0.]))
    """

    __slots__ = ("owners", "slots", "table", "_owner_ix", "_slot_ix", "_flat", "_holdings", "_events", "_single")

    def __init__(self, owners: Iterable[str], slots: Iterable[str], table: Any):
        self.owners = check_names(owners, "owners")
        self.slots = check_names(slots, "slots")
        if FREE_LABEL in self.owners:
            raise ModelError(f"{FREE_LABEL!r} is reserved for slots nobody holds; rename that owner")
        t = np.array(table)
        if t.ndim != 2 or t.shape[1] != len(self.slots) or t.shape[0] == 0:
            raise ModelError(
                f"table has shape {t.shape}, expected (H >= 1, {len(self.slots)}): "
                "one row per hypothesis, one column per slot"
            )
        if not np.issubdtype(t.dtype, np.integer):
            raise ModelError(f"table must hold integers (owner index or {FREE}), got dtype {t.dtype}")
        if t.min() < FREE or t.max() >= len(self.owners):
            raise ModelError(f"table entries must lie in {FREE}..{len(self.owners) - 1}")
        dtype = np.int8 if len(self.owners) < 127 else np.int16
        self.table = frozen(t.astype(dtype))
        self._init_indexes()

    @classmethod
    def unchecked(cls, owners: tuple[str, ...], slots: tuple[str, ...], table: np.ndarray) -> HypothesisSpace:
        """A space over a table the caller built from valid spaces (checked names, entries in range): no checks,
        for the core's own operations (:meth:`restrict`, :meth:`refine`, transitions)."""
        self = cls.__new__(cls)
        self.owners, self.slots = owners, slots
        self.table = frozen(np.ascontiguousarray(table))
        self._init_indexes()
        return self

    def _init_indexes(self) -> None:
        self._owner_ix = {n: i for i, n in enumerate(self.owners)}
        self._slot_ix = {n: i for i, n in enumerate(self.slots)}
        self._flat: np.ndarray | None = None
        self._holdings: np.ndarray | None = None
        self._events: np.ndarray | None = None  # one-hot event matrix, see event_sums
        self._single: dict[int, np.ndarray | None] = {}  # owner -> single_slot()

    # ---------------------------------------------------------------- construction

    @classmethod
    def assignments(
        cls,
        owners: Iterable[str],
        slots: Iterable[str],
        slots_per_owner: int | Mapping[str, int] = 1,
        *,
        known: Mapping[str, str | None] | None = None,
        known_owned: Mapping[str, Any] | None = None,
        excluded: Mapping[str, Any] | None = None,
    ) -> HypothesisSpace:
        """Every assignment in which each owner holds exactly its number of slots.

        Slots not held by anyone are free. ``slots_per_owner`` is one count for
        all owners or a dict giving every owner its count (0 allowed).
        Constraints:

        * ``known``: slot -> owner name, or ``None``/``"free"`` for a slot known to be free;
        * ``known_owned``: owner -> slots it is known to hold (one name or a list);
        * ``excluded``: owner -> slots it certainly does not hold.

        Rows come in a fixed order: sorted by owner 0's slots, then owner 1's, ...

        >>> len(HypothesisSpace.assignments(list("ABCDEFG"), list("1234567")))
        5040
        >>> len(HypothesisSpace.assignments(["A", "B"], list("1234"), {"A": 2, "B": 1}))
        12
        >>> HypothesisSpace.assignments(["A", "B"], ["x", "y"], known={"x": "A"}, excluded={"B": "y"})
        Traceback (most recent call last):
        ...
        heimlich_lab.errors.ModelError: no assignment satisfies the constraints (B has no possible slot left)
        """
        owners = check_names(owners, "owners")
        slots = check_names(slots, "slots")
        n_o, n_s = len(owners), len(slots)
        proto = cls.unchecked(owners, slots, np.full((1, n_s), FREE, dtype=np.int8))  # name lookup only
        if FREE_LABEL in owners:
            raise ModelError(f"{FREE_LABEL!r} is reserved for slots nobody holds; rename that owner")

        # counts
        if isinstance(slots_per_owner, Mapping):
            unknown = [o for o in slots_per_owner if o not in proto._owner_ix]
            if unknown:
                raise ModelError(f"slots_per_owner names unknown owner(s) {unknown} (owners: {', '.join(owners)})")
            missing = [o for o in owners if o not in slots_per_owner]
            if missing:
                raise ModelError(f"slots_per_owner gives no count for: {', '.join(missing)}")
            counts = [slots_per_owner[o] for o in owners]
        else:
            counts = [slots_per_owner] * n_o
        for name, c in zip(owners, counts):
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
                raise ModelError(f"slot count of {name} must be a non-negative integer, got {c!r}")
        counts = [int(c) for c in counts]
        if sum(counts) > n_s:
            raise ModelError(f"owners hold {sum(counts)} slots in total but there are only {n_s} slots")

        # constraints, per owner: slots it must hold / must not hold
        holder: dict[int, int] = {}  # slot -> owner index or FREE

        def pin(s: int, o: int) -> None:
            if holder.get(s, o) != o:
                a, b = (owners[x] if x != FREE else "nobody" for x in (holder[s], o))
                raise ModelError(f"contradictory constraints: slot {slots[s]} is said to be held by {a} and by {b}")
            holder[s] = o

        for slot, who in (known or {}).items():
            pin(proto.slot_index(slot), proto.owner_index(who, allow_free=True))
        for who, held in (known_owned or {}).items():
            o = proto.owner_index(who)
            for slot in slot_list(held):
                pin(proto.slot_index(slot), o)
        forbid: list[set[int]] = [set() for _ in owners]
        for who, slots_out in (excluded or {}).items():
            o = proto.owner_index(who)
            forbid[o].update(proto.slot_index(s) for s in slot_list(slots_out))
        must: list[set[int]] = [set() for _ in owners]
        for s, o in holder.items():
            for other in range(n_o):
                (must if other == o else forbid)[other].add(s)
        for o in range(n_o):
            if must[o] & forbid[o]:
                s = min(must[o] & forbid[o])
                raise ModelError(
                    f"contradictory constraints: {owners[o]} is known to hold {slots[s]} and excluded from it")
            if len(must[o]) > counts[o]:
                held = ", ".join(slots[s] for s in sorted(must[o]))
                raise ModelError(
                    f"{owners[o]} is known to hold {len(must[o])} slots ({held}) but holds only {counts[o]}")
            if n_s - len(forbid[o]) < counts[o]:
                raise ModelError(f"no assignment satisfies the constraints ({owners[o]} has no possible slot left)")

        # enumeration: place owners one after another on slots still free
        dtype = np.int8 if n_o < 127 else np.int16
        table = np.full((1, n_s), FREE, dtype=dtype)
        for o, c in enumerate(counts):
            if c == 0:
                continue
            combos = np.array(list(combinations(range(n_s), c)), dtype=np.intp).reshape(-1, c)
            ok = np.ones(len(combos), dtype=bool)
            for s in must[o]:
                ok &= (combos == s).any(axis=1)
            for s in forbid[o]:
                ok &= ~(combos == s).any(axis=1)
            combos = combos[ok]
            fits = (table == FREE)[:, combos].all(axis=2)  # (H, C)
            rows, which = np.nonzero(fits)
            table = table[rows]
            table[np.arange(len(rows))[:, None], combos[which]] = o
            if len(table) == 0:
                raise ModelError(
                    f"no assignment satisfies the constraints (nothing left after placing {owners[o]})"
                )
        return cls.unchecked(owners, slots, table)

    # ---------------------------------------------------------------- basics

    def __len__(self) -> int:
        n: int = self.table.shape[0]
        return n

    @property
    def n_owners(self) -> int:
        return len(self.owners)

    @property
    def n_slots(self) -> int:
        return len(self.slots)

    def __repr__(self) -> str:
        return f"HypothesisSpace({self.n_owners} owners x {self.n_slots} slots, {len(self)} hypotheses)"

    def owner_index(self, owner: Any, *, allow_free: bool = False) -> int:
        """Index of an owner given by name or index (``None``/``"free"`` -> FREE if allowed)."""
        if allow_free and (owner is None or owner == FREE_LABEL or (_is_int(owner) and owner == FREE)):
            return FREE
        if isinstance(owner, str):
            try:
                return self._owner_ix[owner]
            except KeyError:
                raise ModelError(f"unknown owner {owner!r} (owners: {', '.join(self.owners)})") from None
        if _is_int(owner) and 0 <= owner < self.n_owners:
            return int(owner)
        raise ModelError(f"unknown owner {owner!r} (owners: {', '.join(self.owners)})")

    def slot_index(self, slot: Any) -> int:
        """Index of a slot given by name or index."""
        if isinstance(slot, str):
            try:
                return self._slot_ix[slot]
            except KeyError:
                raise ModelError(f"unknown slot {slot!r} (slots: {', '.join(self.slots)})") from None
        if _is_int(slot) and 0 <= slot < self.n_slots:
            return int(slot)
        raise ModelError(f"unknown slot {slot!r} (slots: {', '.join(self.slots)})")

    def owner_name(self, index: int) -> str:
        return FREE_LABEL if index == FREE else self.owners[index]

    def hypothesis(self, h: int) -> dict[str, str]:
        """Hypothesis ``h`` as a dict slot -> owner name or ``"free"``."""
        return {s: self.owner_name(int(o)) for s, o in zip(self.slots, self.table[h])}

    # ---------------------------------------------------------------- queries (vectors over hypotheses)

    def owner_of(self, slot: Any) -> np.ndarray:
        """Owner index (or FREE) of ``slot`` in every hypothesis (read-only, length H)."""
        column: np.ndarray = self.table[:, self.slot_index(slot)]
        return column

    def slots_of(self, owner: Any) -> np.ndarray:
        """Boolean matrix (H, n_slots): the slots ``owner`` holds in each hypothesis."""
        held: np.ndarray = self.table == self.owner_index(owner, allow_free=True)
        return held

    def mask(self, owner: Any, slot: Any) -> np.ndarray:
        """Boolean vector over hypotheses: "``owner`` holds ``slot``" (``owner=None``: slot is free)."""
        holds: np.ndarray = self.owner_of(slot) == self.owner_index(owner, allow_free=True)
        return holds

    def matching(self, partial: Mapping[Any, Any]) -> np.ndarray:
        """Boolean vector: hypotheses agreeing with all of ``partial`` (slot -> owner/None/"free")."""
        m = np.ones(len(self), dtype=bool)
        for slot, who in partial.items():
            m &= self.mask(who, slot)
        return m

    def holdings(self) -> np.ndarray:
        """Number of slots each owner holds, per hypothesis: int array (H, n_owners)."""
        if self._holdings is None:
            code = np.where(self.table < 0, self.n_owners, self.table).astype(np.intp)
            flat = (np.arange(len(self))[:, None] * (self.n_owners + 1) + code).ravel()
            counts = np.bincount(flat, minlength=len(self) * (self.n_owners + 1))
            self._holdings = frozen(counts.reshape(len(self), self.n_owners + 1)[:, : self.n_owners])
        return self._holdings

    def single_slot(self, owner: Any) -> np.ndarray | None:
        """The slot ``owner`` holds in each hypothesis, when it holds exactly one in every
        hypothesis; else ``None``. Cached: the fast path of :func:`likelihood_from_owner_values`.

        >>> HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"]).single_slot("Bob")
        array([1, 2, 0, 2, 0, 1])
        """
        o = self.owner_index(owner)
        if o not in self._single:
            held = self.table == o
            self._single[o] = frozen(held.argmax(axis=1)) if (held.sum(axis=1) == 1).all() else None
        return self._single[o]

    def _flat_index(self) -> np.ndarray:
        """Flattened index into a (n_owners+1, n_slots) table for every (hypothesis, slot) cell."""
        if self._flat is None:
            code = np.where(self.table < 0, self.n_owners, self.table).astype(np.intp)
            self._flat = frozen((code * self.n_slots + np.arange(self.n_slots)).ravel())
        return self._flat

    def event_sums(self, weights: np.ndarray) -> np.ndarray:
        """``out[o, s] = sum(weights[h] for h where o holds s)``; last row: slot free. Shape (n_owners+1, n_slots).

        A product with a cached one-hot matrix (hypotheses x cells), the fast path of every
        marginal table; spaces too large for that matrix (see ``_DENSE_EVENT_CELLS``) use a bincount.
        """
        w = np.asarray(weights, dtype=float)
        k = (self.n_owners + 1) * self.n_slots
        if len(self) * k > _DENSE_EVENT_CELLS:
            flat_w = np.broadcast_to(w[:, None], self.table.shape).ravel()
            return np.bincount(self._flat_index(), weights=flat_w, minlength=k).reshape(self.n_owners + 1, self.n_slots)
        if self._events is None:
            onehot = np.zeros((len(self), k))
            onehot[np.arange(len(self))[:, None], self._flat_index().reshape(self.table.shape)] = 1.0
            self._events = frozen(onehot)
        sums: np.ndarray = (w @ self._events).reshape(self.n_owners + 1, self.n_slots)
        return sums

    def event_logsumexp(self, log_weights: np.ndarray) -> np.ndarray:
        """Like :meth:`event_sums` for log weights, in log space (no underflow)."""
        lw = np.broadcast_to(np.asarray(log_weights, dtype=float)[:, None], self.table.shape).ravel()
        k = (self.n_owners + 1) * self.n_slots
        return group_logsumexp(self._flat_index(), lw, k).reshape(self.n_owners + 1, self.n_slots)

    # ---------------------------------------------------------------- new spaces

    def restrict(self, mask: Any) -> tuple[HypothesisSpace, np.ndarray]:
        """Keep the hypotheses where ``mask`` is true. Returns ``(space, kept_indices)``."""
        m = _check_mask(mask, len(self))
        if not m.any():
            raise ModelError("restrict() would remove every hypothesis")
        idx = np.flatnonzero(m)
        return HypothesisSpace.unchecked(self.owners, self.slots, self.table[idx]), idx

    def refine(self, owner: Any, candidates: Iterable[Any] | None = None
               ) -> tuple[HypothesisSpace, np.ndarray, np.ndarray]:
        """Split each hypothesis by which free slot ``owner`` additionally takes.

        Models "``owner`` takes one of the free slots (restricted to
        ``candidates`` if given) uniformly at random". Returns
        ``(space, parent, log_split)``: child ``j`` comes from hypothesis
        ``parent[j]`` and carries ``log_split[j] = -log(number of children of that parent)``,
        so a posterior moves to the new space with ``logw[parent] + log_split``.
        Hypotheses without a free candidate slot have no children.
        Children of one parent are ordered by slot; duplicates across parents
        are kept (see :meth:`unique`).
        """
        o = self.owner_index(owner)
        avail = self.table == FREE
        if candidates is not None:
            cand = np.zeros(self.n_slots, dtype=bool)
            cand[[self.slot_index(s) for s in slot_list(candidates)]] = True
            avail &= cand
        parent, slot = np.nonzero(avail)
        if parent.size == 0:
            raise ModelError(f"refine(): no hypothesis has a free slot that {self.owners[o]} could take")
        table = self.table[parent]  # copy
        table[np.arange(parent.size), slot] = o
        n_children = avail.sum(axis=1)
        log_split = -np.log(n_children[parent].astype(float))
        return HypothesisSpace.unchecked(self.owners, self.slots, table), parent, log_split

    def unique(self) -> tuple[HypothesisSpace, np.ndarray]:
        """Merge identical rows. Returns ``(space, inverse)``, ``inverse[h]`` = new row of old row ``h``.

        New rows keep the order of their first occurrence.
        """
        _, first, inverse = np.unique(self.table, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        order = np.argsort(first)
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return HypothesisSpace.unchecked(self.owners, self.slots, self.table[first[order]]), rank[inverse]


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _check_mask(mask: Any, length: int) -> np.ndarray:
    m = np.asarray(mask)
    if m.dtype != bool:
        raise ModelError(f"mask must be a boolean array, got dtype {m.dtype}")
    if m.shape != (length,):
        raise ModelError(f"mask has shape {m.shape}, expected ({length},): one entry per hypothesis")
    return m


# --------------------------------------------------------------------------- likelihood helper


def likelihood_from_owner_values(
    space: HypothesisSpace,
    actor: Any,
    values: Any,
    *,
    no_slot: float | None = None,
) -> np.ndarray:
    """Log-likelihood vector over hypotheses from per-slot values for one actor.

    ``values[s]`` is ``log P(observation | actor plays for slot s)``. In a
    hypothesis where the actor holds several slots, the actor is assumed to
    play for one of them chosen uniformly at random, so the likelihood is the
    **mean** of ``exp(values)`` over its slots:
    ``loglik[h] = log(mean(exp(values[slots of actor in h])))``.
    Where the actor holds no slot, ``loglik[h] = no_slot``; leaving ``no_slot``
    at ``None`` is an error if such hypotheses exist.

    >>> space = HypothesisSpace.assignments(["A", "B"], ["x", "y", "z"], {"A": 2, "B": 0})
    >>> space.table
    array([[ 0,  0, -1],
           [ 0, -1,  0],
           [-1,  0,  0]], dtype=int8)
    >>> np.exp(likelihood_from_owner_values(space, "A", np.log([0.6, 0.2, 0.1])))
    array([0.4 , 0.35, 0.15])
    >>> likelihood_from_owner_values(space, "B", [0.0, 0.0, 0.0])
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: B holds no slot in 3 hypotheses; pass no_slot= (log-likelihood for that case)
    """
    o = space.owner_index(actor)
    if (type(values) is np.ndarray and values.dtype == np.float64 and values.shape == (space.n_slots,)
            and values.max() < math.inf):
        v = values  # already a valid float vector (the beliefs' hot path): read only below, no copy needed
    else:
        v = check_vector(values, space.n_slots, "values", "one log-likelihood per slot")
    single = space.single_slot(o)
    if single is not None:  # the common case: one slot in every hypothesis, just look the value up
        looked_up: np.ndarray = v[single]
        return looked_up
    held = space.slots_of(o)  # (H, S)
    n_held = held.sum(axis=1)
    if n_held.max() <= 1:  # common case: at most one slot, just look the value up
        out = v[held.argmax(axis=1)]
    else:
        vals = np.where(held, v, -np.inf)
        top = vals.max(axis=1)
        shift = np.where(np.isfinite(top), top, 0.0)
        with np.errstate(divide="ignore"):
            out = np.log(np.exp(vals - shift[:, None]).sum(axis=1)) + shift - np.log(np.maximum(n_held, 1))
    none = n_held == 0
    if none.any():
        if no_slot is None:
            raise ModelError(
                f"{space.owners[o]} holds no slot in {int(none.sum())} hypotheses; "
                "pass no_slot= (log-likelihood for that case)"
            )
        ns = float(no_slot)
        if np.isnan(ns) or ns == np.inf:
            raise ModelError(f"no_slot must be finite or -inf, got {no_slot!r}")
        out[none] = ns
    loglik: np.ndarray = out
    return loglik


# --------------------------------------------------------------------------- update records


class Change(NamedTuple):
    """One cell of a marginal table before and after an update."""

    owner: str  # owner name or "free"
    slot: str
    before: float
    after: float
    ratio: float  # likelihood ratio, see Update.likelihood_ratios (nan if undefined)


@dataclass(frozen=True, eq=False)
class Update:
    """Record of one change to a belief.

    ``log_evidence`` is ``log P(observation)`` under the belief just before
    (the prior predictive); ``marginals_before``/``marginals_after`` are
    (n_owners+1, n_slots) tables. ``kind`` is ``"observation"``,
    ``"condition"`` or ``"refine"`` (no observation: ratios are all nan).
    """

    label: str | None
    actor: Any
    log_evidence: float
    marginals_before: np.ndarray = field(repr=False)
    marginals_after: np.ndarray = field(repr=False)
    entropy_before: float
    entropy_after: float
    owners: tuple[str, ...] = field(repr=False)
    slots: tuple[str, ...] = field(repr=False)
    info: Any = None
    kind: str = "observation"
    _ratios: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    _cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def log_likelihood_ratios(self) -> np.ndarray:
        """Natural log of :meth:`likelihood_ratios` (computed in log space, never overflows)."""
        if "log_ratios" not in self._cache:
            shape = (len(self.owners) + 1, len(self.slots))
            r = np.full(shape, np.nan) if self._ratios is None else self._ratios()
            self._cache["log_ratios"] = frozen(r)
        return self._cache["log_ratios"].copy()

    def log_likelihood_ratio(self, row: int, col: int) -> float:
        """One cell of :meth:`log_likelihood_ratios` (row ``row``: an owner's index, or ``len(owners)`` for
        "free"; column ``col``: a slot's index), the same number. An explanation or a headline reads a cell or
        two of a new update: where the record can compute one slot's column by itself (an exact posterior's),
        only that column is computed (and kept), not the whole table.

        >>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue"])
        >>> upd = Posterior(space).update_actor("Bob", np.log([0.9, 0.3]))
        >>> lr = upd.log_likelihood_ratio(1, 0)
        >>> round(float(np.exp(lr)), 6), bool(lr == upd.log_likelihood_ratios()[1, 0])
        (3.0, True)
        """
        full = self._cache.get("log_ratios")
        if full is not None:
            return float(full[row, col])
        column = getattr(self._ratios, "column", None)
        if column is None:
            return float(self.log_likelihood_ratios()[row, col])
        key = f"log_ratios[:, {int(col)}]"
        if key not in self._cache:
            self._cache[key] = frozen(column(int(col)))
        return float(self._cache[key][row])

    def likelihood_ratios(self) -> np.ndarray:
        """Array (n_owners+1, n_slots): ``P(obs | o holds s) / P(obs | o does not hold s)``.

        The last row is about "slot is free". Computed from the weights just
        before the update. ``nan`` where the event had probability 0 or 1
        before (no comparison possible), and for updates without an
        observation. ``inf``: the observation is impossible unless the event
        holds (or the ratio exceeds the float range, see :meth:`log_likelihood_ratios`).
        """
        with np.errstate(over="ignore"):
            ratios: np.ndarray = np.exp(self.log_likelihood_ratios())
            return ratios

    def changes(self) -> np.ndarray:
        """``marginals_after - marginals_before``."""
        delta: np.ndarray = self.marginals_after - self.marginals_before
        return delta

    def largest_changes(self, k: int = 3, *, owner: Any = None, include_free: bool = True) -> list[Change]:
        """The ``k`` cells whose probability moved most, largest ``|after - before|`` first.

        ``owner`` (a name) limits the search to that owner's row.
        """
        delta = np.round(np.abs(self.changes()), 12)  # ties (up to rounding noise) keep table order
        rows = np.arange(len(self.owners) + (1 if include_free else 0))
        if owner is not None:
            if owner not in self.owners and owner != FREE_LABEL:
                raise ModelError(f"unknown owner {owner!r} (owners: {', '.join(self.owners)})")
            rows = np.array([len(self.owners) if owner == FREE_LABEL else self.owners.index(owner)])
        sub = delta[rows]
        order = np.argsort(-sub, axis=None, kind="stable")[: max(int(k), 0)]
        names = [*self.owners, FREE_LABEL]
        out = []
        for flat in order:
            r, s = divmod(int(flat), len(self.slots))
            o = int(rows[r])
            with np.errstate(over="ignore"):    # only the cells listed: their ratios, as likelihood_ratios() has them
                ratio = float(np.exp(np.array([self.log_likelihood_ratio(o, s)]))[0])
            out.append(
                Change(names[o], self.slots[s], float(self.marginals_before[o, s]),
                       float(self.marginals_after[o, s]), ratio)
            )
        return out


@dataclass(frozen=True)
class _ExactRatios:
    """Deferred :func:`_log_ratios` (a picklable stand-in for a closure)."""

    space: HypothesisSpace
    log_prior: np.ndarray
    loglik: np.ndarray

    def __call__(self) -> np.ndarray:
        return _log_ratios(self.space, self.log_prior, self.loglik)

    def column(self, s: int) -> np.ndarray:
        """Column ``s`` of the table (every owner and "free" for slot ``s``), the same numbers."""
        return _log_ratio_column(self.space, self.log_prior, self.loglik, s)


def _log_ratios(space: HypothesisSpace, log_prior: np.ndarray, loglik: np.ndarray) -> np.ndarray:
    """Vectorized log likelihood ratios for :meth:`Update.log_likelihood_ratios` (log space throughout)."""
    k = space.n_owners + 1
    with np.errstate(invalid="ignore"):
        log_joint = log_prior + loglik
    a = space.event_logsumexp(log_joint)  # log P(obs, E) up to a constant
    b = space.event_logsumexp(log_prior)  # log P(E)
    itself = np.eye(k, dtype=bool)[:, :, None]

    def complement(g: np.ndarray) -> np.ndarray:
        # out[o, s] = log sum_{o' != o} exp(g[o', s]); a sum of non-negative terms, no cancellation
        return logsumexp(np.where(itself, -np.inf, g[None, :, :]), 1)

    a_not, b_not = complement(a), complement(b)
    support = space.event_sums(np.isfinite(log_prior).astype(float))
    n_support = np.isfinite(log_prior).sum()
    with np.errstate(invalid="ignore"):
        log_r: np.ndarray = (a - b) - (a_not - b_not)
    log_r[(support == 0) | (support == n_support)] = np.nan
    return log_r


def _log_ratio_column(space: HypothesisSpace, log_prior: np.ndarray, loglik: np.ndarray, s: int) -> np.ndarray:
    """Column ``s`` of :func:`_log_ratios`, bit for bit: the same sums in the same order over one slot's
    hypotheses (an explanation reads one cell; the whole table costs every slot's sums). The complement sums
    run down the first axis of a (k, k) table, which numpy adds in the order the whole table's (k, k, slots)
    sums do (a table of one slot is summed another way: its column is the table's).

    >>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"])
    >>> prior, ll = np.log(np.linspace(1, 2, len(space))), np.log(np.linspace(0.2, 0.9, len(space)))
    >>> full = _log_ratios(space, prior, ll)
    >>> all(np.array_equal(_log_ratio_column(space, prior, ll, s), full[:, s], equal_nan=True) for s in range(3))
    True
    """
    if space.n_slots == 1:
        return _log_ratios(space, log_prior, loglik)[:, 0]
    k = space.n_owners + 1
    code = space.table[:, s]
    code = np.where(code < 0, space.n_owners, code).astype(np.intp)
    with np.errstate(invalid="ignore"):
        log_joint = log_prior + loglik
    a = group_logsumexp(code, log_joint, k)
    b = group_logsumexp(code, log_prior, k)
    itself = np.eye(k, dtype=bool)

    def complement(g: np.ndarray) -> np.ndarray:
        # out[o] = log sum_{o' != o} exp(g[o']), summed down axis 0 (o' the row, o the column)
        return logsumexp(np.where(itself, -np.inf, g[:, None]), 0)

    a_not, b_not = complement(a), complement(b)
    finite = np.isfinite(log_prior)
    support = np.bincount(code, weights=finite.astype(float), minlength=k)
    n_support = finite.sum()
    with np.errstate(invalid="ignore"):
        log_r: np.ndarray = (a - b) - (a_not - b_not)
    log_r[(support == 0) | (support == n_support)] = np.nan
    return log_r


# --------------------------------------------------------------------------- exact posterior


class Posterior:
    """Exact posterior over a :class:`HypothesisSpace`, kept as normalized log weights.

    ``log_prior`` (length H, unnormalized allowed, ``-inf`` = impossible)
    defaults to uniform. Every change appends an :class:`Update` to
    :attr:`history`; with ``keep_updates=False`` no records are made (updates
    return ``None``, and there are no histories): lighter for long runs.
    Invalid input raises :class:`ModelError` and leaves the posterior unchanged.

    >>> space = HypothesisSpace.assignments(["Ann", "Bob", "Cy"], ["red", "blue", "green"])
    >>> post = Posterior(space)
    >>> round(post.entropy(), 3)   # log2(6)
    2.585
    >>> upd = post.update_actor("Ann", np.log([0.5, 0.25, 0.25]), label="Ann moved red")
    >>> round(post.probability({"red": "Ann"}), 3), round(upd.log_evidence, 3)
    (0.5, -1.099)
    >>> post.condition({"blue": "Bob"}, label="Bob shows blue").kind
    'condition'
    >>> best, p = post.most_probable()
    >>> best, round(p, 3)
    ({'red': 'Ann', 'blue': 'Bob', 'green': 'Cy'}, 0.667)
    >>> post.marginals_history().shape, len(post.history)
    ((3, 4, 3), 2)
    >>> post.update(np.zeros(5))
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: loglik has shape (5,), expected (6,): one log-likelihood per hypothesis
    """

    #: whether :meth:`move_to` needs each new row's parent (a posterior that keeps data per hypothesis)
    keeps_rows = False

    def __init__(self, space: HypothesisSpace, log_prior: Any = None, *, keep_updates: bool = True):
        if not isinstance(space, HypothesisSpace):
            raise ModelError(f"Posterior needs a HypothesisSpace, got {type(space).__name__}")
        n = len(space)
        if log_prior is None:
            lw, p, entropy = np.full(n, -math.log(n)), np.full(n, 1.0 / n), math.log2(n)
        else:
            lp = check_vector(log_prior, n, "log_prior", "one log weight per hypothesis")
            z = logsumexp(lp)
            if not np.isfinite(z):
                raise ModelError("log_prior is -inf for every hypothesis")
            lw = lp - z
            p = np.exp(lw)
            entropy = entropy_bits(p, lw)
        self.keep_updates = bool(keep_updates)
        self._space = space
        self._logw = frozen(lw)
        self._summary = Summary(space, p, lw, frozen(space.event_sums(p)), entropy)
        self._initial_marg = self._marg
        self._initial_entropy = self._entropy
        self._log_evidence = 0.0
        self.history: list[Update] = []

    # ---------------------------------------------------------------- state

    @property
    def space(self) -> HypothesisSpace:
        return self._space

    @property
    def owners(self) -> tuple[str, ...]:
        return self._space.owners

    @property
    def slots(self) -> tuple[str, ...]:
        return self._space.slots

    @property
    def _marg(self) -> np.ndarray:
        return self._summary.marginals

    @property
    def _entropy(self) -> float:
        return self._summary.entropy

    @property
    def log_weights(self) -> np.ndarray:
        """Normalized log posterior, one entry per hypothesis (read-only)."""
        return self._logw

    @property
    def log_evidence(self) -> float:
        """Sum of the ``log_evidence`` of all updates: log P(all observations so far)."""
        return self._log_evidence

    def __len__(self) -> int:
        return len(self._space)

    def __repr__(self) -> str:
        return (f"Posterior({self._space.n_owners} owners x {self._space.n_slots} slots, "
                f"{len(self._space)} hypotheses, {len(self.history)} updates, "
                f"entropy {self._entropy:.3f} bits)")

    def copy(self) -> Posterior:
        """Independent copy (the immutable space and update records are shared)."""
        new = object.__new__(Posterior)
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        return new

    def checkpoint(self) -> tuple[Any, ...]:
        """The current state, for :meth:`rewind`: cheap, as the arrays are replaced, never changed in place.

        >>> post = Posterior(HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"]))
        >>> mark = post.checkpoint()
        >>> _ = post.refine("Ann"); len(post), len(post.history)
        (3, 1)
        >>> post.rewind(mark); len(post), len(post.history)
        (6, 0)
        """
        return (self._space, self._logw, self._summary, self._log_evidence, len(self.history))

    def rewind(self, checkpoint: tuple[Any, ...]) -> None:
        """Back to the state of :meth:`checkpoint`; the updates made since leave the history (all-or-nothing
        changes of several posteriors)."""
        self._space, self._logw, self._summary, self._log_evidence, n_updates = checkpoint
        del self.history[n_updates:]

    # ---------------------------------------------------------------- updates

    def likelihood_from_owner_values(self, actor: Any, values: Any, *, no_slot: float | None = None) -> np.ndarray:
        """:func:`likelihood_from_owner_values` on this posterior's space."""
        return likelihood_from_owner_values(self._space, actor, values, no_slot=no_slot)

    def update(self, loglik: Any, label: str | None = None, actor: Any = None, info: Any = None) -> Update | None:
        """Bayes' rule with ``loglik[h] = log P(observation | hypothesis h)``.

        ``-inf`` marks hypotheses under which the observation is impossible.
        Raises :class:`ModelError` (posterior untouched) for a wrong shape,
        NaN, ``+inf``, or an observation impossible under every hypothesis
        still possible.
        """
        ll = check_vector(loglik, len(self._space), "loglik", "one log-likelihood per hypothesis")
        return self._bayes(ll, label, actor, info, "observation")

    def update_actor(self, actor: Any, values: Any, *, no_slot: float | None = None,
                     label: str | None = None, info: Any = None) -> Update | None:
        """``update(likelihood_from_owner_values(space, actor, values, no_slot=...), actor=actor)``."""
        ll = likelihood_from_owner_values(self._space, actor, values, no_slot=no_slot)
        return self._bayes(ll, label, actor, info, "observation")

    def transition(self, moves: Any, weights: Any = None, *, merge: bool = True, label: str | None = "transition",
                   actor: Any = None, info: Any = None) -> Update | None:
        """The predict step beside the update step: the hidden state moves by a permutation of slots, or by a
        mixture of permutations with ``weights`` (see :mod:`heimlich_lab.inference.transition`).

        >>> space = HypothesisSpace.assignments(["A"], ["x", "y"])
        >>> post = Posterior(space, np.log([0.9, 0.1]))
        >>> _ = post.transition((1, 0))          # the contents of x and y swap
        >>> round(post.probability({"y": "A"}), 2)
        0.9
        """
        from .transition import transition
        return transition(self, moves, weights, merge=merge, label=label, actor=actor, info=info)

    def move_to(self, space: HypothesisSpace, log_weights: np.ndarray, parents: np.ndarray | None = None, *,
                label: str | None = "transition", actor: Any = None, info: Any = None) -> Update | None:
        """The hidden state moved (the predict step): the posterior is now ``log_weights`` (normalized, one per row)
        over ``space`` (the same owners and slots). ``parents[j]`` is the row of the old space that new row ``j``
        comes from, when each new row has exactly one (``None``: rows were merged); a posterior that keeps data
        per hypothesis (:class:`~heimlich_lab.inference.mixture.TypedPosterior`) needs it. Recorded as an
        :class:`Update` of kind ``"transition"`` (no observation: log evidence 0, no likelihood ratios).
        :func:`~heimlich_lab.inference.transition.transition` computes the arguments.

        >>> post = Posterior(HypothesisSpace.assignments(["A"], ["x", "y"]), np.log([0.9, 0.1]))
        >>> _ = post.move_to(post.space, np.log([0.1, 0.9]), np.array([1, 0]))
        >>> round(post.probability({"y": "A"}), 2), post.history[-1].kind
        (0.9, 'transition')
        """
        if space.owners != self._space.owners or space.slots != self._space.slots:
            raise ModelError("move_to() keeps the owners and slots: a transition moves contents between slots")
        lw = np.asarray(log_weights, dtype=float)
        if lw.shape != (len(space),):
            raise ModelError(f"log_weights has shape {lw.shape}, expected ({len(space)},): one per hypothesis")
        if parents is not None and np.shape(parents) != (len(space),):
            raise ModelError(f"parents has shape {np.shape(parents)}, expected ({len(space)},)")
        if lw.flags.writeable:    # the caller's array: a read-only copy (a transition hands over its own, frozen)
            lw = frozen(lw.copy())
        p = np.exp(lw)
        summary = Summary(space, p, lw, frozen(space.event_sums(p)), entropy_bits(p, lw))
        rec = None
        if self.keep_updates:
            rec = Update(label=label, actor=actor, log_evidence=0.0, marginals_before=self._marg,
                         marginals_after=summary.marginals, entropy_before=self._entropy,
                         entropy_after=summary.entropy, owners=space.owners, slots=space.slots, info=info,
                         kind="transition")
            self.history.append(rec)
        self._space, self._logw, self._summary = space, lw, summary
        return rec

    def condition(self, event: Any, label: str | None = "condition", actor: Any = None,
                  info: Any = None) -> Update | None:
        """Keep only hypotheses in ``event`` (boolean mask, or dict slot -> owner/None/"free").

        Recorded as an update with likelihood 1 inside the event and 0
        outside; its ``log_evidence`` is ``log P(event)``. The space keeps its
        size (see :meth:`prune`).
        """
        m = self._event_mask(event)
        ll = np.where(m, 0.0, -np.inf)
        return self._bayes(ll, label, actor, info, "condition")

    def _bayes(self, ll: np.ndarray, label: str | None, actor: Any, info: Any, kind: str) -> Update | None:
        """Bayes' rule with a checked log-likelihood vector (no NaN, no +inf); commits last."""
        prior = self._logw
        joint = prior + ll  # never nan: neither holds +inf
        top = joint.max()
        if top == -np.inf:
            if np.isneginf(ll).all():
                raise ModelError(f"{kind} ({label!r}): loglik is -inf for every hypothesis: "
                                 "the observation is impossible under the model")
            raise ModelError(
                f"{kind} ({label!r}): the observation is impossible under every hypothesis still possible "
                f"({int(np.isfinite(prior).sum())} of {prior.size} have positive probability)"
            )
        e = np.exp(joint - top)
        z = e.sum()
        log_ev = float(top + math.log(z))
        post = frozen(joint - log_ev)
        p = e / z
        rec = None
        if self.keep_updates:
            space = self._space
            summary = Summary(space, p, post, frozen(space.event_sums(p)), entropy_bits(p, post))
            rec = Update(
                label=label, actor=actor, log_evidence=log_ev,
                marginals_before=self._marg, marginals_after=summary.marginals,
                entropy_before=self._entropy, entropy_after=summary.entropy,
                owners=space.owners, slots=space.slots, info=info, kind=kind,
                _ratios=_ExactRatios(space, prior, frozen(ll)),
            )
            self.history.append(rec)
        else:   # nobody records the state after this update: its marginals and entropy wait until read
            summary = Summary(self._space, p, post)
        # commit (nothing above changed self)
        self._logw, self._summary = post, summary
        self._log_evidence += log_ev
        return rec

    def refine(self, owner: Any, candidates: Iterable[Any] | None = None, *, merge: bool = True,
               label: str | None = "refine", info: Any = None) -> Update | None:
        """Move to ``space.refine(owner, candidates)``: ``owner`` takes a random free slot.

        Each child gets its parent's weight divided by the number of children.
        Parents without any free candidate slot are dropped and the rest
        renormalized (the record's ``log_evidence`` is the log of the kept
        mass, 0 when every hypothesis had a free slot). With ``merge=True``
        identical children of different parents are merged (weights added),
        so hypotheses stay distinct assignments. Follow with
        :meth:`condition` if the observer knows which slot was taken.
        """
        space, parent, log_split = self._space.refine(owner, candidates)
        lw = self._logw[parent] + log_split
        kept = float(logsumexp(lw))
        if not np.isfinite(kept):
            raise ModelError(
                "refine(): no hypothesis still possible leaves a free slot for "
                f"{self._space.owners[self._space.owner_index(owner)]}"
            )
        lw = lw - kept
        if merge:
            space, inverse = space.unique()
            lw = group_logsumexp(inverse, lw, len(space))
        lw = frozen(lw)
        p = np.exp(lw)
        summary = Summary(space, p, lw, frozen(space.event_sums(p)), entropy_bits(p, lw))
        marg, ent = summary.marginals, summary.entropy
        rec = None
        if self.keep_updates:
            rec = Update(
                label=label, actor=owner, log_evidence=kept,
                marginals_before=self._marg, marginals_after=marg,
                entropy_before=self._entropy, entropy_after=ent,
                owners=space.owners, slots=space.slots, info=info, kind="refine",
            )
            self.history.append(rec)
        self._space, self._logw, self._summary = space, lw, summary
        self._log_evidence += kept
        return rec

    def restrict(self, event: Any, label: str | None = "restrict", actor: Any = None,
                 info: Any = None) -> Update | None:
        """:meth:`condition` on ``event``, then :meth:`prune`: the space shrinks to the event."""
        rec = self.condition(event, label=label, actor=actor, info=info)
        self.prune()
        return rec

    def prune(self) -> Posterior:
        """Drop hypotheses of probability zero from the space (not recorded; returns self)."""
        keep = np.isfinite(self._logw)
        if not keep.all():
            self._space, idx = self._space.restrict(keep)
            self._logw = frozen(self._logw[idx])
        return self

    # ---------------------------------------------------------------- queries

    def posterior_vector(self) -> np.ndarray:
        """Probabilities of the hypotheses (a fresh array, sums to 1)."""
        p: np.ndarray = np.exp(self._logw)
        return p

    def marginals(self) -> np.ndarray:
        """Array (n_owners+1, n_slots): P(owner holds slot); last row P(slot free).

        Each column sums to 1; owner row ``o`` sums to the expected number of slots ``o`` holds.
        """
        return self._marg.copy()

    def marginal_row(self, owner: Any) -> np.ndarray:
        """One owner's row of :meth:`marginals`: P(owner holds slot) per slot (a fresh array). Cheaper than the
        whole table for a posterior without update records that nobody has read since its last update.

        >>> post = Posterior(HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue", "green"]))
        >>> _ = post.update_actor("Bob", np.log([0.8, 0.1, 0.1]))
        >>> post.marginal_row("Bob").round(3)
        array([0.8, 0.1, 0.1])
        """
        return self._summary.row(self._space.owner_index(owner))

    def marginals_table(self) -> pd.DataFrame:
        """:meth:`marginals` as a DataFrame (index: owners + "free", columns: slots)."""
        return marginal_frame(self._marg, self._space.owners, self._space.slots)

    def _event_mask(self, event: Any) -> np.ndarray:
        if isinstance(event, Mapping):
            return self._space.matching(event)
        return _check_mask(event, len(self._space))

    def probability(self, event: Any) -> float:
        """P(event): ``event`` is a boolean mask over hypotheses or a partial
        assignment dict slot -> owner name / ``"free"`` / ``None`` (all must hold)."""
        m = self._event_mask(event)
        return float(np.exp(self._logw[m]).sum())

    def entropy(self) -> float:
        """Shannon entropy of the distribution over hypotheses, in bits."""
        return self._entropy

    def most_probable(self) -> tuple[dict[str, str], float]:
        """The most probable hypothesis (first one on ties) and its probability."""
        h = int(np.argmax(self._logw))
        return self._space.hypothesis(h), float(np.exp(self._logw[h]))

    def top(self, n: int = 5) -> list[tuple[dict[str, str], float]]:
        """The ``n`` most probable hypotheses with their probabilities."""
        order = np.argsort(-self._logw, kind="stable")[:n]
        return [(self._space.hypothesis(int(h)), float(np.exp(self._logw[h]))) for h in order]

    def marginals_history(self) -> np.ndarray:
        """Array (T+1, n_owners+1, n_slots): marginals at the start and after each update."""
        self._check_keeps_updates()
        return np.stack([self._initial_marg, *(u.marginals_after for u in self.history)])

    def entropy_history(self) -> np.ndarray:
        """Entropy in bits at the start and after each update (length T+1)."""
        self._check_keeps_updates()
        return np.array([self._initial_entropy, *(u.entropy_after for u in self.history)])

    def _check_keeps_updates(self) -> None:
        if not self.keep_updates:
            raise ModelError("this posterior keeps no update records (keep_updates=False), so no history")


# --------------------------------------------------------------------------- explanations


def _times(log_r: float) -> str:
    """A ratio > 1 given by its natural log, e.g. ``4.2``, ``250``, ``2.7e+347``."""
    if log_r < np.log(9.95):
        return f"{np.exp(log_r):.1f}"
    if log_r < np.log(999_999.5):
        return f"{np.exp(log_r):,.0f}"
    l10 = log_r / np.log(10.0)
    e = int(np.floor(l10))
    m = 10 ** (l10 - e)
    if m >= 9.95:
        m, e = m / 10, e + 1
    return f"{m:.1f}e+{e}"


def explain(
    update: Update,
    describe_observation: str,
    k: int = 1,
    *,
    verb: str = "controls",
    owner: Any = None,
    include_free: bool = True,
    tol: float = 0.05,
) -> list[str]:
    """Plain sentences about the ``k`` largest probability changes of ``update``.

    ``describe_observation`` is the caller's wording of what was seen; owner
    and slot names are filled in here. ``verb`` is a third-person verb
    ("controls", "holds", ...). A ratio within ``tol`` of 1 is "no evidence".
    ``owner`` restricts the sentences to one owner's row.

    >>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue"])
    >>> upd = Posterior(space).update_actor("Bob", np.log([0.9, 0.3]))
    >>> for line in explain(upd, "Bob moved red", k=2, verb="holds", owner="Bob"):
    ...     print(line)
    Bob moved red: 3.0 times more likely if Bob holds red than if Bob does not (probability 0.50 -> 0.75).
    Bob moved red: 3.0 times more likely if Bob does not hold blue than if Bob does (probability 0.50 -> 0.25).
    """
    out = []
    rows = [*update.owners, FREE_LABEL]
    for c in update.largest_changes(k, owner=owner, include_free=include_free):
        lr = update.log_likelihood_ratio(rows.index(c.owner), update.slots.index(c.slot))
        if c.owner == FREE_LABEL:
            claim, contrast = f"nobody {verb} {c.slot}", "somebody does"
        else:
            claim, contrast = f"{c.owner} {verb} {c.slot}", f"{c.owner} does not"
        p = f"(probability {c.before:.2f} -> {c.after:.2f})"
        if np.isnan(lr):
            out.append(f"{describe_observation}: P({claim}) {c.before:.2f} -> {c.after:.2f}.")
        elif lr == np.inf:
            out.append(f"{describe_observation}: only possible if {claim} {p}.")
        elif lr == -np.inf:
            out.append(f"{describe_observation}: impossible if {claim} {p}.")
        elif lr > np.log1p(tol):
            out.append(f"{describe_observation}: {_times(lr)} times more likely if {claim} than if {contrast} {p}.")
        elif lr < -np.log1p(tol):     # said the right way round: "N times more likely if not ...", never "N times less"
            if c.owner == FREE_LABEL:
                turned = f"somebody {verb} {c.slot} than if nobody does"
            else:
                turned = f"{c.owner} does not {verb.removesuffix('s')} {c.slot} than if {c.owner} does"
            out.append(f"{describe_observation}: {_times(-lr)} times more likely if {turned} {p}.")
        else:
            out.append(f"{describe_observation}: no evidence about whether {claim} {p}.")
    return out


def __getattr__(name: str) -> Any:
    # IndependentPosterior lives in its own module (it builds on this one); re-exported here by name
    if name == "IndependentPosterior":
        from .independent import IndependentPosterior
        return IndependentPosterior
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
