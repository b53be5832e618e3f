"""Owners of unknown *type*: the exact posterior when how an owner acts depends on its slot(s) and its type.

Game-agnostic, like :mod:`heimlich_lab.inference.core`. Each owner has a type
``k`` drawn independently from a population ``pi`` (say "random", "careful",
"bluffer"), fixed for the whole game. An observation of owner ``o`` has
likelihood ``L_k(x | slots of o)`` under type ``k``. Then the posterior over
assignments ``h`` is exactly

    P(h | D)  ∝  P(h) * prod_o  sum_k pi_k * prod_{t by o} L_k(x_t | slots of o in h)

and it can be updated one observation at a time: the factor of observation
``t`` is the *predictive* likelihood ``sum_k w_k(H) L_k(x_t | H)`` with
``w(H)`` the owner's type posterior given that it holds ``H``. So an owner
keeps one small table of unnormalized log weights per possible holding
(types x holdings), and the core's Bayes step does the rest.

>>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue"])
>>> post = TypedPosterior(space, np.log([0.5, 0.5]), ("random", "loyal"))
>>> moved_red = np.log([[0.5, 0.5],        # a random player moves red half the time, whatever its slot
...                     [0.9, 0.1]])       # a loyal one moves its own colour
>>> _ = post.update_actor("Bob", moved_red, label="Bob moved red")
>>> post.marginals_table().round(3)
      red  blue
Ann   0.3   0.7
Bob   0.7   0.3
free  0.0   0.0
>>> {k: round(p, 3) for k, p in post.type_probabilities("Bob").items()}
{'random': 0.5, 'loyal': 0.5}
>>> _ = post.update_actor("Bob", moved_red, label="Bob moved red again")
>>> {k: round(p, 3) for k, p in post.type_probabilities("Bob").items()}   # two reds: loyal to red?
{'random': 0.379, 'loyal': 0.621}
>>> round(float(post.marginals()[1, 0]), 3)      # (.5 * .5**2 + .5 * .9**2) / (that + .5 * .5**2 + .5 * .1**2)
0.803

An owner with several slots plays for one of them chosen uniformly at
random per observation (the mean likelihood, as
:func:`~heimlich_lab.inference.core.likelihood_from_owner_values`). When an
owner takes a further slot (:meth:`TypedPosterior.refine`), the weights of a
holding ``{a, b}`` are the sum over the holdings it can have come from
(``{a}`` then ``b``, or ``{b}`` then ``a``). **Exactness** then needs what
every belief of a game has: a prior over assignments that is uniform on its
support, a support that does not tell apart which of an owner's slots came
first. Invalid input raises :class:`~heimlich_lab.errors.ModelError` and
leaves the posterior as it was.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from heimlich_lab.errors import ModelError

from .core import (
    HypothesisSpace,
    Posterior,
    Summary,
    Update,
    check_names,
    check_vector,
    frozen,
    group_logsumexp,
    log_sum_exp,
    logsumexp,
)

__all__ = ["TypedPosterior", "population_tables", "type_predictive"]

#: Holdings are bit masks of slots; more slots than this would make the holding index too large.
_MAX_SLOTS = 16
_SINGLE_SLOTS: dict[bytes, np.ndarray | None] = {}
_SINGLE_BY_ARRAY: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
#: [(the last read-only table of values :meth:`TypedPosterior._type_values` checked, whether it is all finite)]:
#: one pair, replaced whole, so that a reader never pairs one table with another's answer
_LAST_CHECKED: list[tuple[Any, bool]] = [(None, False)]


_HOLDINGS: dict[int, tuple[HypothesisSpace, list[np.ndarray]]] = {}


def _holdings(space: HypothesisSpace) -> list[np.ndarray]:
    """Each owner's possible holdings in ``space``, as sorted bit masks of slots (cached per space: the beliefs
    of a game's observers start from a few shared spaces)."""
    hit = _HOLDINGS.get(id(space))
    if hit is None or hit[0] is not space:
        if len(_HOLDINGS) > 256:
            _HOLDINGS.clear()
        powers = 1 << np.arange(space.n_slots)
        hit = _HOLDINGS[id(space)] = (space, [frozen(np.unique(space.slots_of(o).astype(np.int64) @ powers))
                                              for o in range(space.n_owners)])
    return hit[1]


def _single_slots(masks: np.ndarray) -> np.ndarray | None:
    """The slot of each holding when every holding is one slot, else ``None`` (cached per set of holdings)."""
    hit = _SINGLE_BY_ARRAY.get(id(masks))
    if hit is not None and hit[0] is masks:     # the same (read-only) array as last time: most calls
        return hit[1]
    key = masks.tobytes()
    if key not in _SINGLE_SLOTS:
        if len(_SINGLE_SLOTS) > 4096:
            _SINGLE_SLOTS.clear()
        one = (masks > 0) & (masks & (masks - 1) == 0)
        _SINGLE_SLOTS[key] = np.log2(masks).astype(np.intp) if one.all() else None
    if not masks.flags.writeable:
        if len(_SINGLE_BY_ARRAY) > 4096:
            _SINGLE_BY_ARRAY.clear()
        _SINGLE_BY_ARRAY[id(masks)] = (masks, _SINGLE_SLOTS[key])
    return _SINGLE_SLOTS[key]


def _predictive_ratio(table: np.ndarray, loglik: np.ndarray) -> np.ndarray:
    """:func:`type_predictive` as probabilities (M, n), for type log weights (M, K, n) and the types'
    log-likelihoods (K, n): the hot path of an update, in few numpy steps."""
    top = table.max(axis=1, keepdims=True)
    w = np.exp(table - np.where(np.isfinite(top), top, 0.0))
    den = w.sum(axis=1)
    num = (w * np.exp(loglik)).sum(axis=1)
    ratio: np.ndarray = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    return ratio


def type_predictive(log_weights: np.ndarray, loglik: np.ndarray) -> np.ndarray:
    """``log(sum_k w_k L_k / sum_k w_k)`` per column: the predictive log-likelihood of an observation
    for each holding, from unnormalized type log weights (..., K, n) and the types' log-likelihoods (..., K, n).
    A holding whose weights are all ``-inf`` (already impossible) gets ``-inf``.

    >>> type_predictive(np.log([[0.5], [0.5]]), np.log([[0.2], [0.6]])).round(3)   # log(0.4)
    array([-0.916])
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        before = log_sum_exp(log_weights, -2)
        out = log_sum_exp(log_weights + loglik, -2) - before
    predictive: np.ndarray = np.where(np.isfinite(before), out, -np.inf)
    return predictive


def _synced(name: str) -> property:
    """An attribute of the posterior that is brought up to date (:meth:`TypedPosterior._sync`) when read."""
    raw = "_raw" + name

    def get(self: TypedPosterior) -> Any:
        if self._pending:
            self._sync()
        return self.__dict__[raw]

    def put(self: TypedPosterior, value: Any) -> None:
        self.__dict__[raw] = value

    return property(get, put)


class TypedPosterior(Posterior):
    """The exact posterior over assignments when every owner has an unknown type (see the module doc).

    ``type_log_prior`` is the population's log prior over the K types, the
    same for every owner (unnormalized allowed), ``type_names`` their names.
    It may also be a table (M, K): M populations the whole table may come
    from (say "a class of beginners", "a class of experts"), with
    ``population_log_prior`` (M,) (default uniform) and ``population_names``;
    then the owners' types are independent *given* the population, and the
    posterior is the exact mixture over populations. :meth:`update_actor`
    takes the observation's log-likelihoods per type and slot, shape (K,
    n_slots) (a vector (n_slots,) is the same for every type). Everything
    else is a :class:`~heimlich_lab.inference.core.Posterior`.

    **Actors and transitions.** By default the typed actors are the owners,
    and each owner's table is kept per holding. ``actors`` names other actors
    (say the players of a game whose owners are teams and whose slots are
    seats): their tables are kept per hypothesis, and :meth:`update_types`
    reads their choices with log-likelihoods per type and hypothesis, (K, H).
    A transition (:meth:`~heimlich_lab.inference.core.Posterior.transition`)
    moves the contents of slots, not the actors' types, so each hypothesis
    keeps its history apart: a transition that gives every new hypothesis one
    parent (one permutation, or a mixture with ``merge=False``) carries each
    table to the new hypotheses (owners' tables become per hypothesis too); a
    mixture that merges hypotheses is refused (it would mix histories).

    >>> from heimlich_lab.inference.transition import swap
    >>> seats = HypothesisSpace.assignments(["CIA", "KGB"], ["Ann", "Bob", "Cy"], {"CIA": 2, "KGB": 1})
    >>> teams = TypedPosterior(seats, np.log([0.8, 0.2]), ("team", "random"), actors=["Ann", "Bob", "Cy"])
    >>> helps = np.log([[0.9, 0.1, 0.1], [0.5, 0.5, 0.5]])   # Ann helps Bob: likely for a team player if allied
    >>> _ = teams.update_types([("Ann", helps)], label="Ann helps Bob")
    >>> round(teams.probability({"Cy": "KGB"}), 3), round(teams.type_probabilities("Ann")["team"], 3)
    (0.695, 0.746)
    >>> _ = teams.transition([swap(seats, "Ann", "Cy"), tuple(range(3))], [0.5, 0.5], merge=False)  # unseen swap?
    >>> len(teams), round(teams.probability({"Cy": "KGB"}), 3), round(teams.type_probabilities("Ann")["team"], 3)
    (6, 0.424, 0.746)

    >>> space = HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue"])
    >>> post = TypedPosterior(space, np.log([[0.9, 0.1], [0.1, 0.9]]), ("random", "loyal"),
    ...                       population_names=("beginners", "experts"))
    >>> red, blue = np.log([[0.5, 0.5], [0.9, 0.1]]), np.log([[0.5, 0.5], [0.1, 0.9]])
    >>> for who, move in (("Ann", red), ("Bob", blue), ("Ann", red), ("Bob", blue)):
    ...     _ = post.update_actor(who, move)
    >>> {k: round(p, 2) for k, p in post.population_probabilities().items()}    # both look loyal
    {'beginners': 0.2, 'experts': 0.8}
    """

    # Without update records (``keep_updates=False``), an observation whose likelihoods are all positive only
    # changes the actor's type table; the weights of the hypotheses are brought up to date when next read (one
    # pass for all the observations since, however many): the product of the predictive ratios telescopes to
    # the ratio of the table's sums over types, now and then.
    _logw, _summary, _log_evidence, _given = map(_synced, ("_logw", "_summary", "_log_evidence", "_given"))
    #: owner index -> its type table when the weights were last brought up to date (none pending: {})
    _pending: dict[int, np.ndarray] = {}
    #: owner index -> ((a type table, its sums over types (M, n)), ...): a cache for _sync, checked by identity
    #: (the table when the weights were last brought up to date first)
    #: (set in __init__ (and copied): _sync updates it in place, so never a shared default)
    _table_sums: dict[int, tuple[tuple[np.ndarray, np.ndarray], ...]]

    def __init__(self, space: HypothesisSpace, type_log_prior: Any, type_names: Iterable[str] | None = None,
                 log_prior: Any = None, *, population_log_prior: Any = None,
                 population_names: Iterable[str] | None = None, keep_updates: bool = True,
                 actors: Iterable[str] | None = None):
        if not isinstance(space, HypothesisSpace):
            raise ModelError(f"TypedPosterior needs a HypothesisSpace, got {type(space).__name__}")
        if space.n_slots > _MAX_SLOTS:
            raise ModelError(f"at most {_MAX_SLOTS} slots, not {space.n_slots}")
        lp = np.atleast_2d(_log_table(type_log_prior, "type_log_prior"))
        if lp.ndim != 2 or lp.size == 0:
            raise ModelError("type_log_prior must be log weights, one per type (or a table populations x types)")
        M, K = lp.shape
        if np.isposinf(lp).any() or np.isneginf(lp).all(axis=1).any():
            raise ModelError("type_log_prior must be finite or -inf, and not -inf for every type of a population")
        mp = np.zeros(M) if population_log_prior is None else _log_table(population_log_prior, "population_log_prior")
        mp = check_vector(mp, M, "population_log_prior", "one log weight per population")
        if np.isneginf(mp).all():
            raise ModelError("population_log_prior is -inf for every population")
        self.type_names = _names_for(type_names, K, "type")
        self.population_names = _names_for(population_names, M, "population")
        #: the typed actors: the owners (tables per holding), or ``actors`` (tables per hypothesis)
        self.actors = space.owners if actors is None else check_names(actors, "actors")
        self._owners_act = actors is None
        super().__init__(space, log_prior, keep_updates=keep_updates)
        self.type_log_prior = frozen(lp - log_sum_exp(lp, 1)[:, None])        # (M, K)
        self.population_log_prior = frozen(mp - log_sum_exp(mp, 0))
        #: P(population | hypothesis, everything seen) (M, H): how the posterior splits over populations
        self._given = frozen(np.repeat(np.exp(self.population_log_prior)[:, None], len(space), axis=1))
        #: actor index -> (holding masks (n,), unnormalized type log weights (M, K, n)); replaced, never changed.
        #: Kept per hypothesis instead (masks None, n = H) for ``actors`` and after a transition (``_by_row``).
        self._tables: dict[int, tuple[np.ndarray | None, np.ndarray]] = {}
        self._by_row = actors is not None
        if self._by_row:
            start = frozen(np.repeat(self.type_log_prior[:, :, None], len(space), axis=2))
            self._tables = {a: (None, start) for a in range(len(self.actors))}
        else:
            for o, masks in enumerate(_holdings(space)):
                self._tables[o] = (masks, frozen(np.repeat(self.type_log_prior[:, :, None], masks.size, axis=2)))
        #: actor index, or ("holdings", owner index) -> (the space, its columns or holdings) (a cache)
        self._columns_cache: dict[int | tuple[str, int], tuple[HypothesisSpace, np.ndarray]] = {}
        self._table_sums = {o: ((t, log_sum_exp(t, 1)),) for o, (_, t) in self._tables.items()}
        self._readers: dict[int, tuple[Any, ...]] = {}  # owner -> (the state's arrays, its latest reader): a cache
        self._joint: tuple[Any, ...] | None = None      # (given, logw, their joint) (a cache)
        #: owner -> (its type table, :class:`_TypeWeights` of it): shared by the readers of every state in which
        #: the owner's table is the same (other owners' decisions change the mass, not the table) (a cache)
        self._type_weights: dict[int, tuple[np.ndarray, _TypeWeights]] = {}
        #: owner -> (its columns, (M, n), the bincount's bins of every population's columns) (a cache)
        self._mass_bins: dict[int, tuple[np.ndarray, tuple[int, int], np.ndarray]] = {}

    @property
    def n_types(self) -> int:
        return len(self.type_names)

    def copy(self) -> TypedPosterior:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__, history=list(self.history), _tables=dict(self._tables),
                            _columns_cache=dict(self._columns_cache), _table_sums=dict(self._table_sums),
                            _readers={}, _joint=None, _type_weights={}, _mass_bins={})
        return new

    _RAW = ("_raw_logw", "_raw_summary", "_raw_log_evidence", "_raw_given")
    keeps_rows = True   # each hypothesis keeps its history: a transition must say where each row comes from

    def checkpoint(self) -> tuple[Any, ...]:
        # the stored values as they are (pending observations included): taking a mark brings nothing up to date
        d = self.__dict__
        return (self._space, len(self.history), *(d[k] for k in self._RAW), dict(self._tables), self._pending,
                self._by_row)

    def rewind(self, checkpoint: tuple[Any, ...]) -> None:
        by_row = self._by_row
        self._space, n_updates, *raw, tables, self._pending, self._by_row = checkpoint
        if by_row != self._by_row:     # back before a transition, maybe on the same space: columns by holding
            self._columns_cache = {}
        self.__dict__.update(zip(self._RAW, raw))
        del self.history[n_updates:]
        self._tables = dict(tables)

    def _sync(self) -> None:
        """Bring the weights up to date with the observations pending since the last time: for each owner
        whose table changed, the log of (sum over types now) / (sum over types then) of its holding, per
        population; then the core's normalization (marginals and entropy when read)."""
        pending, self._pending = self._pending, {}
        d = self.__dict__
        with np.errstate(divide="ignore", invalid="ignore"):
            joint = np.log(d["_raw_given"]) + d["_raw_logw"][None, :]               # (M, H)
            sums = self._table_sums
            for o, old in pending.items():
                table = self._tables[o][1]
                then, now = self._sums(o, old), self._sums(o, table)                 # (M, n)
                sums[o] = ((table, now),)    # the next sync's "then" (tables are replaced, never changed)
                joint = joint + np.where(np.isfinite(then), now - then, -np.inf)[:, self._columns(o)]
            total = log_sum_exp(joint, 0)                                                  # (H,)
            top = total.max()
            e = np.exp(total - top)
            z = e.sum()
            log_ev = float(top + math.log(z))
            post = frozen(total - log_ev)
            p = e / z
            given = np.exp(joint - np.where(np.isfinite(total), total, 0.0)[None, :])
        alive = np.isfinite(total)
        if not alive.all():  # hypotheses impossible before: keep their split (it no longer matters)
            given[:, ~alive] = d["_raw_given"][:, ~alive]
        d.update(_raw_logw=post, _raw_summary=Summary(self._space, p, post),
                 _raw_log_evidence=d["_raw_log_evidence"] + log_ev, _raw_given=frozen(given))

    def _sums(self, o: int, table: np.ndarray) -> np.ndarray:
        """``log sum_k exp(table)`` over types (M, n) of actor ``o``'s ``table``, from the cache if known."""
        for known, sums in self._table_sums.get(o, ()):
            if known is table:
                return sums
        return log_sum_exp(table, 1)

    def __repr__(self) -> str:
        return super().__repr__().replace("Posterior(", f"TypedPosterior({self.n_types} types, ", 1)

    # ---------------------------------------------------------------- holdings
    def _actor(self, actor: Any) -> int:
        """The index of a typed actor given by name or index."""
        if self._owners_act:
            return self._space.owner_index(actor)
        if isinstance(actor, str) and actor in self.actors:
            return self.actors.index(actor)
        if isinstance(actor, (int, np.integer)) and not isinstance(actor, bool) and 0 <= actor < len(self.actors):
            return int(actor)
        raise ModelError(f"unknown actor {actor!r} (actors: {', '.join(self.actors)})")

    def _columns(self, o: int) -> np.ndarray:
        """Column of actor ``o``'s table for every hypothesis of the current space (cached per space)."""
        hit = self._columns_cache.get(o)
        if hit is not None and hit[0] is self._space:
            return hit[1]
        masks = self._tables[o][0]
        if masks is None:   # a table per hypothesis
            col = frozen(np.arange(len(self._space)))
            self._columns_cache[o] = (self._space, col)
            return col
        single = self._space.single_slot(o)
        code = (1 << single.astype(np.int64)) if single is not None else \
            self._space.slots_of(o).astype(np.int64) @ (1 << np.arange(self._space.n_slots))
        col = np.minimum(np.searchsorted(masks, code), masks.size - 1)
        if not (masks[col] == code).all():  # a holding never seen (cannot happen through refine)
            raise ModelError(f"{self.owners[o]} has a holding the type table does not know")
        self._columns_cache[o] = (self._space, col)
        return col

    @staticmethod
    def _holding_loglik(masks: np.ndarray, values: np.ndarray) -> np.ndarray:
        """(K, n) log-likelihood of each holding: the mean of ``exp(values)`` over its slots."""
        single = _single_slots(masks)
        if single is not None:
            columns: np.ndarray = values[:, single]
            return columns
        member = (masks[:, None] >> np.arange(values.shape[1])) & 1 == 1          # (n, S)
        with np.errstate(divide="ignore"):
            vals = np.where(member[None, :, :], values[:, None, :], -np.inf)      # (K, n, S)
            mean: np.ndarray = logsumexp(vals, 2) - np.log(np.maximum(member.sum(axis=1), 1))
            return mean

    # ---------------------------------------------------------------- updates
    def _type_values(self, values: Any) -> tuple[np.ndarray, bool]:
        """``values`` checked, as a (K, S) table, and whether every entry is finite."""
        S, K = self._space.n_slots, self.n_types
        last, last_finite = _LAST_CHECKED[0]
        if values is last and values.shape == (K, S):   # the observers of one decision share it
            return values, last_finite
        arr = values if isinstance(values, np.ndarray) and values.shape == (K, S) and values.dtype == float \
            else _log_table(values, "values")
        if arr.shape == (S,):
            arr = np.broadcast_to(arr, (K, S))
        if arr.shape != (K, S):
            raise ModelError(f"values has shape {arr.shape}, expected ({K}, {S}): one log-likelihood per type "
                             f"and slot (or ({S},), the same for every type)")
        if not arr.max() < np.inf:  # one pass for the common case: the maximum is NaN if any entry is
            if np.isnan(arr).any():
                raise ModelError("values contains NaN")
            raise ModelError("values contains +inf; a log-likelihood must be finite or -inf")
        finite = bool(arr.min() > -np.inf)
        if arr is values and values.base is None and not values.flags.writeable:   # it cannot change
            _LAST_CHECKED[0] = (values, finite)
        return arr, finite

    def update_actor(self, actor: Any, values: Any, *, no_slot: float | None = None,
                     label: str | None = None, info: Any = None) -> Update | None:
        """Bayes' rule for one observation of ``actor``: ``values[k, s] = log P(obs | type k, plays for s)``.

        Each hypothesis is weighted by the predictive likelihood of the
        actor's holding in it (per population); the actor's type table
        learns from it. ``no_slot`` is not supported (an owner acts for a slot).
        """
        if no_slot is not None:
            raise ModelError("a TypedPosterior has no no_slot: every owner acting holds a slot")
        if not self._owners_act:
            raise ModelError("this posterior's typed actors are not its owners: read their choices with "
                             "update_types()")
        o = self._space.owner_index(actor)
        v, finite = self._type_values(values)
        masks, table = self._tables[o]
        held = masks if masks is not None else self._row_holdings(o)   # per hypothesis: each row's holding
        if not (held[0] if masks is not None else held.all()):   # masks are sorted: the empty holding first
            raise ModelError(f"{self.owners[o]} holds no slot in some hypotheses; it cannot act for one")
        lh = self._holding_loglik(held, v)                                     # (K, n)
        if not self.keep_updates and (finite or lh.min() > -np.inf):
            # positive for every type and holding: every hypothesis still possible stays possible, so nothing
            # can fail later; the weights follow when read (see _sync)
            self._defer(o, frozen(table + lh[None]))
            return None
        given = self._given * _predictive_ratio(table, lh)[:, self._columns(o)]   # (M, H), unnormalized
        total = given.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ll = np.log(total)
            given /= total
        rec = self._bayes(ll, label, actor, info, "observation")          # raises before any change
        if not total.all():  # hypotheses now impossible: keep their split (it no longer matters)
            given[:, total == 0] = self._given[:, total == 0]
        self._given = frozen(given)
        self._tables[o] = (masks, frozen(table + lh[None]))   # no NaN: neither holds +inf
        return rec

    def update_types(self, readings: Iterable[tuple[Any, Any]], *, label: str | None = None, actor: Any = None,
                     info: Any = None) -> Update | None:
        """Bayes' rule for one observation that shows the choices of one or more typed actors, each read through
        its type: ``readings`` holds ``(actor, loglik)`` pairs with ``loglik[k, h] = log P(the actor's choice |
        type k, hypothesis h)``, shape (K, H) (a vector (H,) is the same for every type). Each hypothesis is
        weighted by the product of the actors' predictive likelihoods (per population), one :class:`Update`
        for all; each actor's table learns from its own choices (an actor named twice, in order). Needs tables
        per hypothesis (``actors=``, or after a transition). Bad input raises :class:`ModelError` and leaves
        the posterior unchanged.

        >>> seats = HypothesisSpace.assignments(["CIA", "KGB"], ["Ann", "Bob", "Cy"], {"CIA": 2, "KGB": 1})
        >>> post = TypedPosterior(seats, np.log([0.8, 0.2]), ("team", "random"), actors=["Ann", "Bob", "Cy"])
        >>> gives = np.log([[0.9, 0.1, 0.1], [0.5, 0.5, 0.5]])   # Ann gives Bob a good card: likely if allied
        >>> _ = post.update_types([("Ann", gives)], label="Ann gives Bob a good card")
        >>> round(post.probability({"Cy": "KGB"}), 3), round(post.type_probabilities("Ann")["team"], 3)
        (0.695, 0.746)
        """
        if not self._by_row:
            raise ModelError("update_types() reads tables kept per hypothesis: build the posterior with actors= "
                             "(or use update_actor() for owners)")
        H, K = len(self._space), self.n_types
        tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}   # actor -> (new table, its sums over types)
        lr = None       # log of the product of the predictive ratios (M, H)
        for who, values in readings:
            a = self._actor(who)
            v = values
            if not (type(v) is np.ndarray and v.dtype == np.float64 and v.shape == (K, H) and v.max() < np.inf):
                v = _log_table(values, "loglik")
                if v.shape == (H,):
                    v = np.broadcast_to(v, (K, H))
                if v.shape != (K, H):
                    raise ModelError(f"loglik of {self.actors[a]} has shape {v.shape}, expected ({K}, {H}): "
                                     "one log-likelihood per type and hypothesis")
                if not v.max() < np.inf:
                    raise ModelError("loglik contains +inf; a log-likelihood must be finite or -inf")
            table, before = tables[a] if a in tables else (self._tables[a][1], self._row_sums(a))
            table = table + v[None]
            after = np.logaddexp.reduce(table, axis=1)                         # (M, H)
            if before.min() > -np.inf:
                step = after - before                       # the predictive log-likelihood
            else:       # a hypothesis every type already found impossible stays impossible (not -inf - -inf)
                step = np.full_like(after, -np.inf)
                np.subtract(after, before, out=step, where=before > -np.inf)
            lr = step if lr is None else lr + step
            tables[a] = (table, after)
        if lr is None:
            return None
        if lr.shape[0] == 1:    # one population: the split over populations stays
            ll, given = lr[0], None
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                joint = np.log(self._given) + lr
                ll = np.logaddexp.reduce(joint, axis=0)
                given = np.exp(joint - ll)
        rec = self._bayes(ll, label, actor, info, "observation")          # raises before any change
        if given is not None:
            dead = ~np.isfinite(ll)
            if dead.any():   # hypotheses now impossible: keep their split (it no longer matters)
                given[:, dead] = self._given[:, dead]
            self._given = frozen(given)
        for a, (table, sums) in tables.items():
            self._tables[a] = (None, frozen(table))
            self._table_sums[a] = ((self._tables[a][1], sums),)
        return rec

    def _row_sums(self, a: int) -> np.ndarray:
        """``log sum_k exp(table)`` over types (M, H) of actor ``a``'s table kept per hypothesis (cached)."""
        table = self._tables[a][1]
        for known, sums in self._table_sums.get(a, ()):
            if known is table:
                return sums
        with np.errstate(invalid="ignore"):
            row_sums: np.ndarray = np.logaddexp.reduce(table, axis=1)
        self._table_sums[a] = ((table, row_sums),)
        return row_sums

    def _row_holdings(self, o: int) -> np.ndarray:
        """Owner ``o``'s holding (a bit mask of slots) in each hypothesis (cached per space)."""
        key = ("holdings", o)
        hit = self._columns_cache.get(key)
        if hit is not None and hit[0] is self._space:
            return hit[1]
        single = self._space.single_slot(o)
        code = frozen((1 << single.astype(np.int64)) if single is not None else
                      self._space.slots_of(o).astype(np.int64) @ (1 << np.arange(self._space.n_slots)))
        self._columns_cache[key] = (self._space, code)
        return code

    def _defer(self, o: int, table: np.ndarray) -> None:
        """Owner ``o``'s type table becomes ``table`` after observations that keep every hypothesis possible;
        the weights follow when read (see :meth:`_sync`)."""
        if o not in self._pending:
            self._pending = {**self._pending, o: self._tables[o][1]}      # a new dict: checkpoints keep theirs
        self._tables[o] = (self._tables[o][0], table)

    def slot_columns(self, owner: Any) -> np.ndarray | None:
        """The slot of each column of ``owner``'s type table when each holding is one slot (else ``None``):
        a table kept over every slot, ``(M, K, n_slots)``, gives this posterior's by these columns. ``None`` too
        for tables kept per hypothesis."""
        masks = self._tables[self._actor(owner)][0]
        return None if masks is None else _single_slots(masks)

    def receive_table(self, owner: Any, table: np.ndarray) -> None:
        """``owner``'s type table after observations kept elsewhere: the columns :meth:`slot_columns` of a
        table over every slot, which started from this posterior's type prior and added the observations'
        log-likelihoods one by one (as :meth:`update_actor` does, so the numbers are the same), every one of
        them finite. Only without update records."""
        o = self._actor(owner)
        cols = self.slot_columns(o)
        if self.keep_updates or cols is None or table.shape[:2] != self.type_log_prior.shape:
            raise ModelError("receive_table() needs a posterior without update records, one slot per holding "
                             f"and a table (populations, types, slots); got shape {table.shape}")
        # the layout of update_actor's tables: numpy sums a table over types in an order that depends on it
        self._defer(o, frozen(np.ascontiguousarray(table[:, :, cols])))

    def refine(self, owner: Any, candidates: Iterable[Any] | None = None, *, merge: bool = True,
               label: str | None = "refine", info: Any = None) -> Update | None:
        """:meth:`Posterior.refine` (``owner`` takes a free slot); the owner's type table moves to the new
        holdings, each the sum of the weights of the holdings it can come from. With tables per hypothesis
        (after a transition), each child takes its parent's, and ``merge=True`` is refused (it would mix
        histories)."""
        o = self._space.owner_index(owner)
        old_space, old_logw, given = self._space, self._logw, self._given
        if self._by_row:
            if merge:
                raise ModelError("this posterior keeps a history per hypothesis (after a transition): refine() "
                                 "needs merge=False, as merged children would mix histories")
            rec = super().refine(owner, candidates, merge=False, label=label, info=info)
            _, parent, _ = old_space.refine(owner, candidates)            # the same children as above
            self._given = frozen(given[:, parent])     # a child's population split is its parent's
            self._tables = {a: (None, frozen(t[:, :, parent])) for a, (_, t) in self._tables.items()}
            return rec
        masks, table = self._tables[o]
        assert masks is not None    # tables by holding (not _by_row) always have their holdings' masks
        rec = super().refine(owner, candidates, merge=merge, label=label, info=info)
        space, parent, log_split = old_space.refine(owner, candidates)   # the same children as above
        with np.errstate(divide="ignore"):
            moved = np.log(given[:, parent]) + (old_logw[parent] + log_split)[None, :]
        if merge:   # a child of several parents: their populations mixed by their weights
            _, inverse = space.unique()
            moved = np.stack([group_logsumexp(inverse, row, len(self._space)) for row in moved])
        with np.errstate(invalid="ignore"):
            moved = np.exp(moved - log_sum_exp(moved, 0))
        self._given = frozen(np.where(np.isnan(moved), 1.0 / len(moved), moved))
        bits = 1 << np.arange(old_space.n_slots)
        held, slot = np.nonzero((masks[:, None] & bits) == 0)             # every (old holding, slot it lacks)
        new_masks, inverse = np.unique(masks[held] | bits[slot], return_inverse=True)
        inverse = inverse.reshape(-1)
        new = np.stack([logsumexp(table[:, :, held[inverse == j]], 2) for j in range(new_masks.size)], axis=2)
        self._tables[o] = (frozen(new_masks), frozen(new))
        self._columns_cache.pop(o, None)
        return rec

    def prune(self) -> TypedPosterior:
        keep = np.isfinite(self._logw)
        super().prune()
        if not keep.all():
            self._given = frozen(self._given[:, keep])
            if self._by_row:
                self._tables = {a: (None, frozen(t[:, :, keep])) for a, (_, t) in self._tables.items()}
        return self

    def move_to(self, space: HypothesisSpace, log_weights: np.ndarray, parents: np.ndarray | None = None, *,
                label: str | None = "transition", actor: Any = None, info: Any = None) -> Update | None:
        """:meth:`Posterior.move_to <heimlich_lab.inference.core.Posterior.move_to>`; every actor's type table
        goes with the hypotheses (each new one takes its parent's history), kept per hypothesis from then on.
        Needs ``parents``: moves that merge hypotheses would mix histories (use ``merge=False``)."""
        if parents is None:
            raise ModelError("a TypedPosterior keeps each hypothesis's history apart: a mixture of moves needs "
                             "merge=False (merged hypotheses would mix the histories of their parents)")
        parents = np.asarray(parents)
        if not np.issubdtype(parents.dtype, np.integer) or parents.shape != (len(space),) or \
                (parents.size and not (0 <= parents.min() and parents.max() < len(self._space))):
            raise ModelError(f"parents must be {len(space)} rows of the current space (0..{len(self._space) - 1})")
        given = self._given
        if self._by_row and len(space) == len(self._space) and (parents == np.arange(len(parents))).all():
            # each row stays where it is (a known swap, histories kept apart): the tables stay too
            rec = super().move_to(space, log_weights, parents, label=label, actor=actor, info=info)
            self._columns_cache = {}
            return rec
        tables: dict[int, tuple[np.ndarray | None, np.ndarray]] = {
            a: (None, frozen(t[:, :, parents if self._by_row else self._columns(a)[parents]]))
            for a, (_, t) in self._tables.items()}
        rec = super().move_to(space, log_weights, parents, label=label, actor=actor, info=info)   # checks first
        self._given = frozen(given[:, parents])
        self._tables, self._by_row, self._table_sums, self._columns_cache = tables, True, {}, {}
        return rec

    # ---------------------------------------------------------------- queries
    def population_posterior(self) -> np.ndarray:
        """``P(population | everything seen)`` (M,)."""
        out = self._given @ np.exp(self._logw)
        posterior: np.ndarray = out / out.sum()
        return posterior

    def population_probabilities(self) -> dict[str, float]:
        """:meth:`population_posterior` as ``{population name: probability}``."""
        return dict(zip(self.population_names, map(float, self.population_posterior())))

    def type_posterior(self, owner: Any) -> np.ndarray:
        """``P(type of owner | everything seen)`` (K,): over populations and hypotheses, the type
        posterior given the population and the owner's holding (or an actor's, see ``actors``)."""
        return self.type_posterior_reader(owner)()

    def type_posterior_reader(self, owner: Any) -> _TypeReader:
        """:meth:`type_posterior` of the posterior as it is now, finished when called (and remembered): a
        record of a step can hold the type posteriors before and after it at little cost until they are read
        (it keeps the owner's table and its mass per holding, not the posterior's arrays)."""
        o = self._actor(owner)
        table, given, logw, cols = self._tables[o][1], self._given, self._logw, self._columns(o)
        hit = self._readers.get(o)
        if hit is not None and hit[0] is table and hit[1] is given and hit[2] is logw and hit[3] is cols:
            known: _TypeReader = hit[4]
            return known
        M, _, n = table.shape
        p = self._joint_of(given, logw)                                            # (M, H) joint
        # each population's mass per holding (M, n): one bincount over every population's columns (their
        # index made once per columns: the owner's columns change with the space, not at every step)
        bins = self._mass_bins.get(o)
        if bins is None or bins[0] is not cols or bins[1] != (M, n):
            bins = (cols, (M, n), (cols + n * np.arange(M)[:, None]).ravel())
            self._mass_bins[o] = bins
        mass = np.bincount(bins[2], weights=p.ravel(), minlength=M * n)
        weights = self._type_weights.get(o)
        if weights is None or weights[0] is not table:
            weights = (table, _TypeWeights(table))
            self._type_weights[o] = weights
        reader = _TypeReader(weights[1], mass.reshape(M, n))
        self._readers[o] = (table, given, logw, cols, reader)
        return reader

    def _joint_of(self, given: np.ndarray, logw: np.ndarray) -> np.ndarray:
        """``given * exp(logw)`` (M, H), the joint of population and hypothesis (shared by every owner's type
        posterior in one state)."""
        hit = self._joint
        if hit is not None and hit[0] is given and hit[1] is logw:
            joint: np.ndarray = hit[2]
            return joint
        p: np.ndarray = given * np.exp(logw)
        self._joint = (given, logw, p)
        return p

    def type_probabilities(self, owner: Any) -> dict[str, float]:
        """:meth:`type_posterior` as ``{type name: probability}``."""
        return dict(zip(self.type_names, map(float, self.type_posterior(owner))))


class _TypeWeights:
    """An owner's type table (M, K, n) as probabilities of each type given the population and the holding
    (normalized over types, exponentiated), computed when first read: the same for every state of the posterior
    in which the owner's table is the same, whatever the other owners did."""

    __slots__ = ("table", "_value")

    def __init__(self, table: np.ndarray):
        self.table: np.ndarray | None = table
        self._value: np.ndarray | None = None

    def __call__(self) -> np.ndarray:
        if self._value is None:
            table = self.table
            assert table is not None        # dropped only once _value is set
            with np.errstate(invalid="ignore"):
                norm = table - logsumexp(table, 1, keepdims=True)                  # (M, K, n)
            norm = np.where(np.isfinite(norm), norm, -np.inf)
            self._value = frozen(np.exp(norm))
            self.table = None       # nothing more to keep
        return self._value


class _TypeReader:
    """:meth:`TypedPosterior.type_posterior` of one owner in one state of the posterior, from the owner's type
    weights (:class:`_TypeWeights`, (M, K, n)) and the state's mass per population and holding (M, n), finished
    when first called."""

    __slots__ = ("weights", "mass", "_value")

    def __init__(self, weights: _TypeWeights, mass: np.ndarray):
        self.weights: _TypeWeights | None = weights
        self.mass: np.ndarray | None = mass
        self._value: np.ndarray | None = None

    def __call__(self) -> np.ndarray:
        if self._value is None:
            assert self.weights is not None and self.mass is not None     # both dropped only once _value is set
            out = np.einsum("mkn,mn->k", self.weights(), self.mass)
            self._value = frozen(out / out.sum())
            self.weights = self.mass = None       # nothing more to keep
        return self._value.copy()


def population_tables(type_names: tuple[str, ...], prior: Any = None, table_prior: Any = None,
                      table_names: Iterable[str] | None = None
                      ) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """A population's prior, checked: the types' names (different), their weights (one per type, default
    uniform, or a table: kinds of table x types), the kinds of table's weights (default uniform) and names.
    Returns the table normalized per row (M, K), the kinds' prior normalized (M,) and their names (the games'
    populations share it).

    >>> rows, kinds, names = population_tables(("random", "team"), [[1, 3], [3, 1]], table_prior=[1, 1])
    >>> rows.tolist(), kinds.tolist(), names
    ([[0.25, 0.75], [0.75, 0.25]], [0.5, 0.5], ('table 0', 'table 1'))
    """
    if len(set(type_names)) != len(type_names):
        raise ModelError(f"two types of the population have the same name: {list(type_names)}")
    K = len(type_names)
    p = np.full(K, 1.0 / K) if prior is None else np.asarray(prior, dtype=float)
    rows = np.atleast_2d(p)
    if rows.ndim != 2 or rows.shape[1] != K or not np.isfinite(rows).all() or (rows < 0).any() \
            or (rows.sum(axis=1) <= 0).any():
        raise ModelError(f"prior must be {K} non-negative weights, one per type (or one such row per "
                         f"kind of table), not {prior!r}")
    M = len(rows)
    t = np.full(M, 1.0 / M) if table_prior is None else np.asarray(table_prior, dtype=float)
    if t.shape != (M,) or not np.isfinite(t).all() or (t < 0).any() or t.sum() <= 0:
        raise ModelError(f"table_prior must be {M} non-negative weights, one per kind of table, not {table_prior!r}")
    names = (("any table",) if M == 1 else tuple(f"table {m}" for m in range(M))) if table_names is None \
        else tuple(table_names)
    if len(names) != M or len(set(names)) != M:
        raise ModelError(f"table_names must be {M} different names, not {table_names!r}")
    tables: np.ndarray = rows / rows.sum(axis=1, keepdims=True)
    kinds: np.ndarray = t / t.sum()
    return tables, kinds, names


def _log_table(values: Any, what: str) -> np.ndarray:
    if isinstance(values, (str, bytes)):
        raise ModelError(f"{what} must be numbers, not a string")
    try:
        arr = np.array(values, dtype=float)
    except (TypeError, ValueError) as e:
        raise ModelError(f"{what} must be numbers: {e}") from None
    if np.isnan(arr).any():
        raise ModelError(f"{what} contains NaN")
    return arr


def _names_for(names: Iterable[str] | None, n: int, what: str) -> tuple[str, ...]:
    out = tuple(f"{what} {k}" for k in range(n)) if names is None else tuple(names)
    if len(out) != n or len(set(out)) != n:
        raise ModelError(f"{what}_names must be {n} different names, got {out!r}")
    return out
