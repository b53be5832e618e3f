"""The beliefs of several observers of one game, updated together from one replay of a full record."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from functools import lru_cache

import numpy as np

from ....errors import InformationRuleError, ModelError, RecordError
from ....inference.core import HypothesisSpace, log_sum_exp, logsumexp
from ..rules.actions import DECISION_KINDS
from ..rules.game import Game
from ..rules.records import GameRecord
from ..rules.replay import Decision, public_decisions
from .baselines import IndependentBelief, PointsShareBelief
from .belief import Belief, BeliefStep
from .likelihoods import ask_model, batch_answers_stacked, default_model, own_pool_answers
from .model import HAND_DECISIONS
from .wording import describe_action

__all__ = ["BeliefSet"]


class BeliefSet:
    """The beliefs of several observers of one game, sharing each decision's likelihood.

    The model is asked once per decision, with the spectator view (public
    information only), and every observer's exact posterior is updated with
    the same per-agent values; each observer's private knowledge (own card,
    the agent they took) goes only into their own belief. A decision that
    depends on a hidden hand (announce, a card play, pass, done) is read by
    each player with their own view too: the actor's hand comes from the cards
    that player has not seen (their own hand left out), as in
    :meth:`Belief.from_record`. ``baselines=True``
    also keeps an :class:`IndependentBelief` and a :class:`PointsShareBelief`
    per observer (:attr:`independent`, :attr:`points_share`).

    >>> import numpy as np
    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> from heimlich_lab.games.heimlich.inference.likelihoods import PushModel
    >>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=3)
    >>> bs = BeliefSet.from_record(rec, model=PushModel(0.5), until="dossier")
    >>> sorted(bs.beliefs), bs.at_mark
    (['Ann', 'Bob', 'Cy'], True)
    >>> b = Belief.from_record(rec, "Bob", model=PushModel(0.5), until="dossier")
    >>> bool(np.array_equal(bs["Bob"].marginals_array(), b.marginals_array()))
    True
    """

    def __init__(self, players, agents, observers: Mapping[str | None, Iterable[str]], model=None, *,
                 baselines: bool = False, keep_updates: bool = True, alpha: float = 1.0):
        self.players, self.agents = tuple(players), tuple(agents)
        self.model = default_model() if model is None else model
        self.independent: dict[str | None, IndependentBelief] = {}
        self.points_share: dict[str | None, PointsShareBelief] = {}
        #: observer -> the agents it holds at the start; the beliefs themselves are made when first read (below)
        self._owns = {o: tuple([own] if isinstance(own, str) else (own or ())) for o, own in observers.items()}
        self._keep_updates = keep_updates
        # Each belief starts as a copy of a start made once per arguments (Belief.at_start). While nothing reads
        # the beliefs (the evaluator's replay, whose shared type tables give every marginal table), the starts
        # themselves answer what the replay asks of them and no copy is made: :attr:`_beliefs` makes them when
        # first read. A start not made yet is made now (and checks the arguments); a model whose starts are not
        # kept (its prior tables can be written to) has every belief made now.
        starts = Belief.cached_starts(self.players, self.agents, self._owns, self.model, keep_updates=keep_updates)
        if starts is None and not baselines:
            # the starts not made yet made now (Belief.at_start keeps each for later calls; the copy it gives is
            # not needed yet)
            for o, own in self._owns.items():
                if Belief.cached_start(self.players, self.agents, o, self.model, own, keep_updates=keep_updates) \
                        is None:
                    Belief.at_start(self.players, self.agents, o, self.model, own, keep_updates=keep_updates)
            starts = Belief.cached_starts(self.players, self.agents, self._owns, self.model,
                                          keep_updates=keep_updates)
        self._made: dict[str | None, Belief] | None = None
        if baselines or starts is None:
            self._made = {o: Belief.at_start(self.players, self.agents, o, self.model, own,
                                             keep_updates=keep_updates) for o, own in self._owns.items()}
            starts = dict(self._made)
        #: observer -> a belief as it starts (the start itself, or the belief made), read by the shared type tables
        #: (:class:`_SharedTypeTables`: while they are shared, the beliefs read nothing themselves)
        self._starts: dict[str | None, Belief] = starts   # type: ignore[assignment]
        for obs, own in self._owns.items():
            if baselines:
                self.independent[obs] = IndependentBelief(self.players, self.agents, obs, self.model, own or None)
                self.points_share[obs] = PointsShareBelief(self.players, self.agents, obs, own or None, alpha)
        self.at_mark = False
        #: player -> agents to score against: the final owners of a finished game, else the owners at the stop
        self.truth: dict[str, list[str]] | None = None
        self.truth_at_stop: dict[str, list[str]] | None = None  # owners when the replay stopped
        self.final_owners: dict[str, str | None] | None = None  # agent -> final owner (finished games only)
        self.index = 0
        self._shared: _SharedTypeTables | None = None   # during from_record (see there)
        self._stacked_answers: tuple | None = None      # (answered items, their answers stacked): see _answers

    @property
    def _beliefs(self) -> dict[str | None, Belief]:
        """Observer -> :class:`Belief`, each made (copied from its start) when first asked for."""
        made = self._made
        if made is None:
            made = self._made = {o: Belief.at_start(self.players, self.agents, o, self.model, own,
                                                    keep_updates=self._keep_updates) for o, own in self._owns.items()}
        return made

    @property
    def starts(self) -> dict[str | None, Belief]:
        """Observer -> a belief as that observer started (to be read, never updated): what a replay asks of the
        beliefs before any of them is made (their type prior, whose decisions they read, their hypotheses).

        >>> from heimlich_lab.games.heimlich.inference.likelihoods import PushModel
        >>> bs = BeliefSet(["Ann", "Bob"], ["red", "blue"], {"Bob": "blue", None: ()}, PushModel(0.5))
        >>> sorted(bs.starts, key=str), bs.starts["Bob"].own_agents, len(bs.starts["Bob"].space)
        (['Bob', None], ('blue',), 1)
        """
        return self._starts

    @property
    def beliefs(self) -> dict[str | None, Belief]:
        """Observer -> :class:`Belief` (each belief given its type tables first, if a replay kept them shared)."""
        self._end_sharing()
        return self._beliefs

    def __getitem__(self, observer) -> Belief:
        return self.beliefs[observer]

    @property
    def own_agents(self) -> dict[str | None, tuple[str, ...]]:
        """Observer -> the agent card(s) the observer holds now (a take adds one; none for a spectator)."""
        if self._made is None:      # (nothing read: what each holds at the start)
            return dict(self._owns)
        return {o: b.own_agents for o, b in self._made.items()}

    def marginals_arrays(self) -> dict[str | None, np.ndarray]:
        """Observer -> :meth:`Belief.marginals_array`. After a replay whose beliefs kept their type tables
        shared (:meth:`from_record` with ``keep_updates=False`` and a model with player types), every
        observer's table is computed from the shared tables at once, without handing them to the beliefs
        (the same numbers to rounding: within 1e-12, tested).

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
        >>> bs = BeliefSet.from_record(rec, keep_updates=False)
        >>> at_once = bs.marginals_arrays()
        >>> max(float(np.abs(at_once[p] - bs[p].marginals_array()).max()) for p in rec.players) < 1e-12
        True
        """
        if self._shared is not None:
            return self._shared.marginals(lambda: self._beliefs)
        return {o: b.marginals_array() for o, b in self._beliefs.items()}

    def marginals_stack(self, observers: Iterable[str | None] | None = None) -> np.ndarray:
        """:meth:`marginals_arrays` of ``observers`` (default: every observer, in order) as one array (observers,
        players + 1, agents), the same numbers (computed at once for all of them after a replay that kept the
        type tables shared).

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
        >>> bs = BeliefSet.from_record(rec, keep_updates=False)
        >>> stack, each = bs.marginals_stack(["Cy", "Ann"]), bs.marginals_arrays()
        >>> stack.shape, bool(np.array_equal(stack[0], each["Cy"]) and np.array_equal(stack[1], each["Ann"]))
        ((2, 4, 6), True)
        """
        wanted = list(self._owns) if observers is None else list(observers)
        for o in wanted:
            if o not in self._owns:
                raise ModelError(f"{o!r} is not an observer of this set (observers: {list(self._owns)})")
        if self._shared is not None:
            keys, table = self._shared.marginals_stack(lambda: self._beliefs)
            if keys == wanted:
                return table
            at = {o: i for i, o in enumerate(keys)}
            return table[[at[o] for o in wanted]]
        each = self.marginals_arrays()
        return np.stack([each[o] for o in wanted])

    def __repr__(self):
        who = ", ".join(o or "spectator" for o in self._owns)
        return f"<BeliefSet of {who}: {self.index} log entries>"

    @classmethod
    def from_record(cls, record: GameRecord, observers="all", model=None, until=None, *, spectator: bool = False,
                    baselines: bool = False, keep_updates: bool = True, alpha: float = 1.0,
                    decisions: list[Decision] | None = None) -> BeliefSet:
        """Replay a FULL record once and update every observer's belief.

        ``observers``: ``"all"`` (every player) or a list of player names
        (``None`` for a spectator); ``spectator=True`` adds a spectator.
        ``until`` as in :meth:`Belief.from_record`.

        :attr:`truth` is what a belief is scored against: for a finished game
        (the record has a result, even when the replay stops at the dossier
        mark) the final owners, as the dossier sheet is scored (a player who
        ended with two agents keeps only the farther one, the other counts
        as free; :attr:`final_owners` is the record's agent -> player or
        ``None``); for an unfinished game, who controlled which agent when
        the replay stopped. :attr:`truth_at_stop` is always the latter.

        ``decisions``: the record's public decisions up to ``until`` as the spectator saw them while the game was
        played (:class:`~heimlich_lab.games.heimlich.rules.replay.Decision` items with the spectator's views, the
        last one's ``at_mark`` set), read instead of replaying the record (the tournament's evaluator keeps them
        as the game is played); for games without Top Secret cards and without a take.
        """
        if not isinstance(record, GameRecord):
            raise ModelError(f"from_record() takes a GameRecord, not {type(record).__name__}")
        if not record.is_full:
            raise InformationRuleError(f"a BeliefSet follows several players at once and needs the full record, "
                                       f"not a {record.view} one (use Belief.from_record for one observer)")
        obs = list(record.players) if observers == "all" else list(observers)
        if spectator and None not in obs:
            obs.append(None)
        for o in obs:
            if o is not None and o not in record.players:
                raise ModelError(f"unknown observer {o!r}: players of this record are {', '.join(record.players)}")
        if record.start is not None:
            own_of = {p: ([c] if isinstance(c, str) else list(c)) for p, c in record.start.owners.items()}
        elif record.deal:
            own_of = {p: [c] for p, c in record.deal.items()}
        else:
            raise RecordError("the record has no deal yet")
        agents = record.rules.agents_for(len(record.players))
        self = cls(record.players, agents, {o: (own_of[o] if o is not None else ()) for o in obs}, model,
                 baselines=baselines, keep_updates=keep_updates, alpha=alpha)
        stop = None
        if decisions is not None and (record.rules.top_secret or any(e.action.kind == "take" for e in record.log)):
            raise ModelError("decisions as played can be read only for games without Top Secret cards or a take: "
                             "leave decisions out (the record is replayed)")
        # a decision that depends on a hidden hand reads each player's pool without that player's own hand:
        # their views come from a twin of the game (the full record holds every secret)
        twin = Game(record.players, record.rules, chance="manual", start=record.start) \
            if record.rules.top_secret and any(o is not None for o in obs) else None
        self._shared = _SharedTypeTables.for_beliefs(self)
        took = any(e.action.kind == "take" for e in record.log)
        if callable(getattr(self.model, "batch_type_log_likelihoods", None)) and not took:
            # every decision's likelihoods computed at once over the game's tables (the evaluator's path; beliefs
            # that keep their own type tables read the same answers), then the beliefs read them in order below
            # (the spectator's answers; with Top Secret cards each observer's own pool from the twin's views)
            items = list(public_decisions(record, None, until)) if decisions is None else list(decisions)
            if twin is None:
                stop = self._read_at_once(items, record)
            else:
                stop = self._read(items, record, twin, self._answers(items))
        else:
            stop = self._read(public_decisions(record, None, until) if decisions is None else decisions, record,
                              twin, None)
        # the shared type tables are handed to the beliefs when a belief is first read (:attr:`beliefs`), and
        # marginals_arrays() reads them without that
        if stop is not None:
            # only a take changes who controls what: in a game without one, the owners are the deal's (no second
            # replay; with one, the engine's replay says, as its automatic chance may take right after the stop)
            self._set_truth(record.replay(until=stop.index + 1).owners if took else None, own_of,
                            (record.result or {}).get("final_owners"))
        return self

    @classmethod
    def from_played(cls, players, agents, deal: Mapping[str, str], decisions: list[Decision], model=None, *,
                    final_owners: Mapping[str, str | None] | None = None, keep_updates: bool = True,
                    raw: list | None = None) -> BeliefSet:
        """Every player's belief (observers ``"all"``, no spectator, no foils) read from a game's public decisions
        as the spectator saw them while the game was played, without its record: ``from_record(game.record,
        model=model, until=..., keep_updates=..., decisions=decisions)`` with the same numbers (the tournament's
        evaluator, which watched the game; tested). For games without Top Secret cards, a take or a start from a
        position (the caller knows: it watched the game): ``deal`` is player -> the dealt agent card;
        ``final_owners`` the finished game's agent -> owner (``None`` for a game not over: the truth is then the
        deal). ``raw``: the model's answers to the decisions, asked with other games'
        (:func:`~heimlich_lab.games.heimlich.inference.likelihoods.games_read_at_once`).

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
        >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
        >>> items = list(public_decisions(rec, None, None))
        >>> bs = BeliefSet.from_played(rec.players, rec.rules.agents_for(3), rec.deal, items,
        ...                            final_owners=rec.result["final_owners"], keep_updates=False)
        >>> plain = BeliefSet.from_record(rec, keep_updates=False)
        >>> bs.truth == plain.truth and all(np.array_equal(bs[p].marginals_array(), plain[p].marginals_array())
        ...                                 for p in rec.players)
        True
        """
        own_of = {p: [deal[p]] for p in players}
        self = cls(players, agents, own_of, model, keep_updates=keep_updates)
        self._shared = _SharedTypeTables.for_beliefs(self)
        if callable(getattr(self.model, "batch_type_log_likelihoods", None)):
            stop = self._read_at_once(decisions, None, at_once=True, raw=raw)
        else:
            stop = self._read(decisions, None, None, None)
        if stop is not None:
            self._set_truth(None, own_of, final_owners)
        return self

    def _answers(self, items: list[Decision], raw: list | None = None) -> dict | None:
        """The model's answers to a game's decisions at once
        (:func:`~heimlich_lab.games.heimlich.inference.likelihoods.batch_answers`); whether every one of them is
        finite goes to the shared tables (checked once here, not per decision)."""
        batch, finite, self._stacked_answers = batch_answers_stacked(self.model, items, len(self.agents), raw=raw)
        if batch and self._shared is not None:
            if finite is None:      # not seen while checking them
                given = [v for v in batch.values() if v is not None]
                finite = bool(given) and len({v.shape for v in given}) == 1 and bool(np.stack(given).min() > -np.inf)
            self._shared.finite = finite
        return batch

    def _read_at_once(self, items: list[Decision], record: GameRecord | None, at_once: bool = False,
                      raw: list | None = None) -> Decision | None:
        """:meth:`_read` of a game's decisions (no Top Secret twin) with their answers at once; while the
        beliefs share their type tables, a decision whose answer is finite everywhere is added to them here
        directly (what :meth:`_consume` does with it). The last item read. ``at_once`` (:meth:`from_played`):
        when every item is a decision and every answer was checked at once, all of them are added to the shared
        tables in one operation per game (:meth:`_SharedTypeTables.add_all`: the same numbers)."""
        batch = self._answers(items, raw)
        shared = self._shared
        if batch is None or shared is None or not shared.finite:
            return self._read(items, record, None, batch)
        stacked = self._stacked_answers
        self._stacked_answers = None
        kinds = DECISION_KINDS
        if at_once and stacked is not None and items and not shared.tables \
                and all(item.action.kind in kinds for item in items):
            shared.add_all(*stacked)
            if any(item.at_mark for item in items):
                self.at_mark = True
            return self._passed(items[-1])
        stop = None
        for item in items:
            if self._shared is shared and item.action.kind in kinds:
                values = batch.get(item.index)
                # no answer: nothing to read (sharing beliefs keep no foils); one that cannot be shared: read
                if values is not None and not shared.add(item.actor, values, item):
                    self._consume(item, record, None, batch)
            else:
                self._consume(item, record, None, batch)
            stop = self._passed(item)
        return stop

    def _read(self, stream: Iterable[Decision], record: GameRecord | None, twin: Game | None,
              batch: dict | None) -> Decision | None:
        """Every observer reads ``stream`` (:meth:`_consume`); the last item read."""
        stop = None
        for item in stream:
            views = None
            if twin is not None:
                if item.action.kind in HAND_DECISIONS:
                    views = {o: twin.view(o) for o, b in self._beliefs.items()
                             if o is not None and b.reads_decisions_of(item.actor)}
                entry = record.log[item.index]
                twin.apply(entry.action, player=entry.actor)
            self._consume(item, record, views, batch)
            stop = self._passed(item)
        return stop

    def _passed(self, item: Decision) -> Decision:
        """After ``item`` is read: the log entries read so far, whether the dossier mark was reached; ``item``."""
        self.index = item.index + 1
        if item.at_mark:
            self.at_mark = True
        return item

    def _set_truth(self, owners_at_stop: dict | None, own_of: Mapping, final: Mapping | None) -> None:
        """:attr:`truth_at_stop` (``owners_at_stop``, else the deal's ``own_of``), :attr:`final_owners` and
        :attr:`truth` (see :meth:`from_record`)."""
        self.truth_at_stop = owners_at_stop if owners_at_stop is not None \
            else {p: list(own_of[p]) for p in self.players}
        if final is not None:
            self.final_owners = dict(final)
            held: dict = {}
            for c in self.agents:       # each player's agents, in the agents' order
                held.setdefault(final.get(c), []).append(c)
            self.truth = {p: held.get(p, []) for p in self.players}
        else:
            self.truth = {p: list(c) for p, c in self.truth_at_stop.items()}

    def _consume(self, item: Decision, record: GameRecord | None, views: dict | None = None,
                 batch: dict | None = None) -> None:
        """One log entry for every observer, all or nothing: the model's answer is validated before any
        belief changes, and if one observer's update fails (an impossible observation, a second take)
        every belief and baseline is restored to its state before the entry. ``views``: observer -> their
        own view before a decision that depends on a hidden hand (their exact pool of cards)."""
        k = item.action.kind
        if k == "take":
            self._end_sharing()     # the taker's holdings change: each belief goes on by itself
            if record is None:
                raise ModelError("a take is read from the game's full record (from_record)")
            agent = record.log[item.index].action.args[0]  # the full record: given only to the taker
            with self._all_or_nothing():
                for o, b in self._beliefs.items():
                    b.take(item.to, agent if o == item.to else None, index=item.index, turn=item.turn)
            return
        if k not in DECISION_KINDS:
            return
        if batch is not None:       # answered already, for the whole game at once
            values = batch.get(item.index)
        else:
            values = ask_model(self.model, item.view, item.actor, item.action, len(self.agents))  # spectator view
        # observer -> values from the observer's own pool (hand decisions)
        own = own_pool_answers(self.model, views, item.actor, item.action, len(self.agents)) if views else {}
        shared = self._shared
        if shared is not None and values is not None:
            if not own and shared.add(item.actor, values, item):
                return
            self._end_sharing()     # a decision each reads in their own way: each belief goes on by itself
        with self._all_or_nothing():
            for pb in self.points_share.values():
                pb.count_move(item.actor, item.action)
            if values is None:
                return
            desc = describe_action(item.view, item.actor, item.action)
            for o, b in self._beliefs.items():
                if b.reads_decisions_of(item.actor):
                    b.update_with(item.actor, item.action, own.get(o, values), desc, item.index, item.turn)
            if self.independent and values.ndim == 2:  # the foils read every player through the prior mixture
                values = logsumexp(values + self.model.log_prior[:, None], axis=0)
            for ib in self.independent.values():
                ib.update_with(item.actor, values, desc)

    def _end_sharing(self) -> None:
        """Give every belief its type tables from the shared ones, and stop sharing."""
        if self._shared is not None:
            self._shared.deliver(self._beliefs)
            self._shared = None

    @contextmanager
    def _all_or_nothing(self):
        # the arrays of beliefs and foils are replaced on update, never changed in place: snapshots are cheap
        readers = [*self._beliefs.values(), *self.independent.values(), *self.points_share.values()]
        snaps = [r.snapshot() for r in readers]
        try:
            yield
        except BaseException:
            for r, snap in zip(readers, snaps):
                r.restore(snap)
            raise


@lru_cache(maxsize=16)
def _single_slots(space: HypothesisSpace) -> np.ndarray:
    """Each owner's slot in every hypothesis of ``space`` (owners, H), where each owner holds one (cached per
    space; read-only)."""
    out = np.stack([space.single_slot(o) for o in range(space.n_owners)])
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _factor_rows(space: HypothesisSpace, actors: tuple) -> np.ndarray:
    """Row ``q A + a`` of :meth:`_SharedTypeTables.marginals`' factors for every hypothesis of ``space`` (an
    assignment of one agent to each player) and every actor ``q`` holding agent ``a`` there: (actors, H), cached per
    space and order of actors (read-only)."""
    singles = _single_slots(space)
    out = singles[[space.owner_index(a) for a in actors]] + (space.n_slots * np.arange(len(actors)))[:, None]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _product_plan(space: HypothesisSpace, actors: tuple) -> tuple[np.ndarray, tuple, np.ndarray | None,
                                                                  np.ndarray | None]:
    """How :func:`_factor_products` multiplies the factors of :func:`_factor_rows` (``rows``, (actors, H)) player by
    player over the hypotheses' prefixes (the rows of the first actors, each prefix once): the rows of the first
    actor's distinct prefixes (``start``); per next actor but the last, each of its prefixes' parent prefix and its
    factor row; each hypothesis's prefix before the last actor, and the last actor's row (with one actor: its rows,
    ``None``, ``None``; cached per space and order of actors, read-only)."""
    rows = _factor_rows(space, actors)
    if len(rows) == 1:
        return rows[0], (), None, None
    base = int(rows.max()) + 1
    code = rows[0].astype(np.int64)
    _, first, inv = np.unique(code, return_index=True, return_inverse=True)
    start = rows[0][first]
    levels = []
    for q in range(1, len(rows) - 1):
        code = code * base + rows[q]
        _, first_q, inv_q = np.unique(code, return_index=True, return_inverse=True)
        levels.append((inv[first_q], rows[q][first_q]))
        inv = inv_q
    for a in (start, inv, *(x for level in levels for x in level)):
        a.setflags(write=False)
    return start, tuple(levels), inv, rows[-1]


def _factor_products(factors: np.ndarray, plan: tuple) -> np.ndarray:
    """``np.take(factors, rows, axis=0).prod(axis=0)`` (rows: :func:`_factor_rows`, (actors, H)) for every hypothesis
    (H, M), each product over the actors in their order (the same numbers, bit for bit: tested), multiplied prefix
    by prefix (:func:`_product_plan`): each shared prefix's product once, a fraction of the gathers.

    >>> space = _spectator_space(("Ann", "Bob", "Cy"), ("red", "blue", "green", "grey"))
    >>> factors = np.random.default_rng(1).random((3 * 4, 2))
    >>> rows = _factor_rows(space, ("Bob", "Ann", "Cy"))
    >>> bool(np.array_equal(_factor_products(factors, _product_plan(space, ("Bob", "Ann", "Cy"))),
    ...                     np.take(factors, rows, axis=0).prod(axis=0)))
    True
    """
    start, levels, inv, last = plan
    if inv is None or last is None:     # one actor
        return factors.take(start, axis=0)
    p = factors.take(start, axis=0)
    for parent, row in levels:
        p = p.take(parent, axis=0)
        p *= factors.take(row, axis=0)
    p = p.take(inv, axis=0)
    p *= factors.take(last, axis=0)
    return p


@lru_cache(maxsize=16)
def _spectator_space(players: tuple, agents: tuple) -> HypothesisSpace:
    """Every assignment of one agent to each player (a spectator's hypotheses; cached: a space keeps its
    lookups)."""
    return HypothesisSpace.assignments(players, agents)


@lru_cache(maxsize=16)
def _canonical_rows(space: HypothesisSpace) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`_observer_rows` reads of ``space`` (an assignment of one agent to each player; cached, read-only):
    the one-hot cells (hypotheses, (owners + 1) slots) of the hypotheses where owner 0 holds slot 0 (in ``space``'s
    order) and their owner codes (free: ``n_owners``), each row of ``space`` as a number (its codes in base
    ``n_owners + 1``) sorted, the order that sorts them and the base's powers."""
    n_o, n_s = space.n_owners, space.n_slots
    codes = np.where(space.table < 0, n_o, space.table).astype(np.int64)                  # (H, slots)
    powers = (n_o + 1) ** np.arange(n_s, dtype=np.int64)
    keys = codes @ powers
    order = np.argsort(keys, kind="stable")
    mine = codes[_single_slots(space)[0] == 0]
    cells = np.zeros((len(mine), (n_o + 1) * n_s))
    cells[np.arange(len(mine))[:, None], mine * n_s + np.arange(n_s)] = 1.0
    out = (cells, mine, keys[order], order, powers)
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=256)
def _observer_rows(space: HypothesisSpace, owner: int, slot: int) -> tuple[np.ndarray, np.ndarray]:
    """The hypotheses of ``space`` (an assignment of one agent to each player) in which ``owner`` holds ``slot``, in
    the order of the canonical ones (owner 0 holding slot 0, :func:`_canonical_rows`) with owners 0 and ``owner``
    and slots 0 and ``slot`` swapped: their indices in ``space`` (rows), and where each cell of their marginal table
    (owners + 1, slots), flattened, is in the canonical table: ``sums[cells]`` (cached, read-only).

    So every observer's marginal table is one product with the same one-hot matrix (the canonical rows'), its
    weights gathered in this order (:meth:`_SharedTypeTables.marginals`)."""
    onehot, mine, keys, order, powers = _canonical_rows(space)
    swap_o = np.arange(space.n_owners + 1)
    swap_o[[0, owner]] = swap_o[[owner, 0]]
    swap_s = np.arange(space.n_slots)
    swap_s[[0, slot]] = swap_s[[slot, 0]]
    want = swap_o[mine[:, swap_s]] @ powers          # slot c held by swap_o(the canonical owner of slot swap_s(c))
    at = np.searchsorted(keys, want)
    if not np.array_equal(keys[np.minimum(at, len(keys) - 1)], want):
        raise ModelError("an observer's hypotheses are not all in the spectator's space")   # (not a space of one each)
    rows = order[at]
    cells = (swap_o[:, None] * space.n_slots + swap_s[None, :]).ravel()
    rows.setflags(write=False)
    cells.setflags(write=False)
    return rows, cells


@lru_cache(maxsize=64)
def _owners_at(space: HypothesisSpace, observers: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The owner index in ``space`` of each of ``observers`` (players), and the rows ``0..len - 1`` as a column,
    what :meth:`_SharedTypeTables.marginals_stack` gathers with (cached per space and observers, read-only).

    >>> space = _spectator_space(("Ann", "Bob", "Cy"), ("red", "blue", "green"))
    >>> [a.tolist() for a in _owners_at(space, ("Cy", "Ann"))]
    [[2, 0], [[0], [1]]]
    """
    out = (np.array([space.owner_index(o) for o in observers], dtype=np.intp),
           np.arange(len(observers), dtype=np.intp)[:, None])
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def _every_observers_rows(space: HypothesisSpace) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_observer_rows` of every owner and slot of ``space``, as two arrays: rows (owners, slots, hypotheses
    of one observer) and cells (owners, slots, cells), so that a game's observers' are one look-up (cached,
    read-only)."""
    each = [[_observer_rows(space, o, s) for s in range(space.n_slots)] for o in range(space.n_owners)]
    rows = np.array([[r for r, _ in by_slot] for by_slot in each])
    cells = np.array([[c for _, c in by_slot] for by_slot in each])
    rows.setflags(write=False)
    cells.setflags(write=False)
    return rows, cells


#: (id, id) of two type priors -> (the two, whether they are equal): what :meth:`_SharedTypeTables.for_beliefs` asks
#: of the starts of every game (each space's start has its own prior array, all of them equal)
_SAME_PRIORS: dict = {}


def _same_prior(a: np.ndarray, b: np.ndarray) -> bool:
    """``np.array_equal(a, b)``, remembered for arrays that cannot be written to (the starts' priors)."""
    if a.flags.writeable or b.flags.writeable:
        return bool(np.array_equal(a, b))
    hit = _SAME_PRIORS.get((id(a), id(b)))
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2]
    same = bool(np.array_equal(a, b))
    if len(_SAME_PRIORS) > 256:
        _SAME_PRIORS.clear()
    _SAME_PRIORS[(id(a), id(b))] = (a, b, same)
    return same


#: a start's type prior (by identity) -> (that prior, the population log prior, the prior summed over types):
#: what :meth:`_SharedTypeTables.marginals` reads of the starts of every game (kept with the arrays they came from)
_PRIOR_SUMS: dict = {}


def _prior_sums(prior: np.ndarray, start: Belief) -> tuple[np.ndarray, np.ndarray]:
    """The population log prior of ``start`` (a belief at its start, whose type table prior is ``prior``) and
    ``log_sum_exp(prior, 1)``, computed once per start's prior (cached by identity: copies of one start share it)."""
    hit = _PRIOR_SUMS.get(id(prior))
    if hit is not None and hit[0] is prior and hit[1] is start:
        return hit[2], hit[3]
    pop, then = start.posterior().population_log_prior, log_sum_exp(prior, 1)
    if len(_PRIOR_SUMS) > 64:
        _PRIOR_SUMS.clear()
    _PRIOR_SUMS[id(prior)] = (prior, start, pop, then)
    return pop, then


class _SharedTypeTables:
    """The type tables of a replay whose beliefs all learn types lazily (no update records, no baselines).

    Each belief's posterior keeps, per player, a table of type log weights per agent that player may hold
    (:class:`~heimlich_lab.inference.mixture.TypedPosterior`); every belief that reads a decision adds the
    same log-likelihoods to it. Kept here once per player over every agent instead, and added to once per
    decision, the tables are handed to the beliefs when the replay ends (or before anything else changes
    them): each belief's columns of them, the same additions in the same order, so the same numbers. A
    decision with an impossible option for some type or agent, or that each observer reads with their own
    hand, ends the sharing first. While the tables are shared, the beliefs are asked only what they say at their
    start (:attr:`beliefs`, the BeliefSet's starts: no belief needs to be made until one is read).
    """

    def __init__(self, starts: dict, prior: np.ndarray, n_agents: int):
        #: observer -> the belief as it starts (read only: the beliefs read nothing while the tables are shared)
        self.beliefs: dict = starts
        self.readers: dict[str, list] = {}     # actor -> the observers that read its decisions
        self.tables: dict[str, np.ndarray] = {}
        self.steps: list = []      # the decisions added (Decision items), their steps made on delivery
        self.prior = prior
        self.n_agents = n_agents
        #: every log-likelihood that :meth:`add` will be given is known to be finite (checked at once by the
        #: caller): add checks none of them again
        self.finite = False
        self._stacked: tuple | None = None     # (actors, their tables stacked) when added at once (add_all)

    @classmethod
    def for_beliefs(cls, bs: BeliefSet) -> _SharedTypeTables | None:
        """Sharing for ``bs``'s beliefs, or ``None`` where it does not apply."""
        starts = bs.starts
        priors = [b.type_table_prior() for b in starts.values()]
        if bs.independent or bs.points_share or not priors or any(p is None for p in priors):
            return None
        if not all(p is priors[0] or _same_prior(p, priors[0]) for p in priors):    # (copies of a start share it)
            return None
        return cls(starts, priors[0], len(bs.agents))

    def _readers_of(self, actor: str) -> list:
        readers = self.readers.get(actor)
        if readers is None:
            readers = self.readers[actor] = [o for o, b in self.beliefs.items() if b.reads_decisions_of(actor)]
        return readers

    def add(self, actor: str, values: np.ndarray, item) -> bool:
        """Add one decision's log-likelihoods (types, agents) for every belief that reads it; ``False`` (nothing
        done) if one of them is impossible somewhere (then each belief must read it itself). The decision's
        step in the readers' histories (with its description) is made when the tables are handed over."""
        if values.ndim != 2 or not (self.finite or values.min() > -np.inf):
            return False
        self._readers_of(actor)
        table = self.tables.get(actor)
        if table is None:   # a new table of this replay's own, added to in place (handed over only at the end)
            table = self.tables[actor] = np.repeat(self.prior[:, :, None], self.n_agents, axis=2)
        np.add(table, values, out=table)        # table + values, without a new array per decision
        self.steps.append(item)
        return True

    def add_all(self, items: list, values: np.ndarray) -> None:
        """:meth:`add` of every decision of ``items`` in order, to tables that have none yet (``values``: their
        log-likelihoods stacked, (items, types, agents), all finite): every player's table in one operation, the
        start's prior then the player's decisions added one by one in order (a cumulative sum over decisions;
        the players with fewer decisions add zeros after theirs), so the numbers of :meth:`add`.

        >>> from heimlich_lab import Rules, play
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
        >>> from heimlich_lab.games.heimlich.inference.likelihoods import batch_answers_stacked
        >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
        >>> bs = BeliefSet(rec.players, rec.rules.agents_for(3), {p: rec.deal[p] for p in rec.players},
        ...                keep_updates=False)
        >>> items = list(public_decisions(rec, None, None))
        >>> answers, finite, (answered, table) = batch_answers_stacked(bs.model, items, 6)
        >>> at_once, one_by_one = _SharedTypeTables.for_beliefs(bs), _SharedTypeTables.for_beliefs(bs)
        >>> at_once.add_all(answered, table)
        >>> all(one_by_one.add(it.actor, answers[it.index], it) for it in answered)
        True
        >>> list(at_once.tables) == list(one_by_one.tables) and at_once.steps == one_by_one.steps
        True
        >>> all(np.array_equal(at_once.tables[p], one_by_one.tables[p]) for p in rec.players)
        True
        """
        if self.tables or not items:
            for item, v in zip(items, values):
                self.add(item.actor, v, item)
            return
        at: dict[str, int] = {}
        counts: list[int] = []
        who, nth = [], []
        for item in items:
            q = at.get(item.actor)
            if q is None:
                q = at[item.actor] = len(counts)
                counts.append(0)
            who.append(q)
            nth.append(counts[q])
            counts[q] += 1
        M, T = self.prior.shape
        sums = np.zeros((max(counts) + 1, len(counts), M, T, self.n_agents))
        sums[0] = self.prior[:, :, None]
        sums[np.array(nth) + 1, np.array(who)] = values[:, None]
        # (players, M, T, agents): numpy adds the slices of an outer axis one after the other, in order (its
        # pairwise sums are along the innermost axis only); the same numbers as add(), tested
        tables = np.add.reduce(sums, axis=0)
        self.tables = {a: tables[q] for a, q in at.items()}
        self._stacked = (tuple(at), tables)
        for a in at:
            self._readers_of(a)
        self.steps.extend(items)

    def marginals(self, made: Callable[[], dict]) -> dict:
        """Observer -> marginal table (players + free, agents) of every belief, from the shared tables, without
        handing them over (:meth:`marginals_stack` as a dict)."""
        observers, table = self.marginals_stack(made)
        return {o: table[i] for i, o in enumerate(observers)}

    def marginals_stack(self, made: Callable[[], dict]) -> tuple[list, np.ndarray]:
        """The observers and their marginal tables (observers, players + free, agents), from the shared tables,
        without handing them over (``made()``: observer -> belief, made if need be; read where the beliefs are
        read themselves).

        Each belief's posterior is its start (a uniform prior over its hypotheses, the type prior per kind of
        table) with the decisions it read. As :meth:`TypedPosterior._sync
        <heimlich_lab.inference.mixture.TypedPosterior>` brings it up to date, a hypothesis weighs the sum over
        kinds of table ``m`` of ``P(m)`` times the product, over the players whose decisions the belief read, of
        their *gain* at the agent they hold there: the player's table summed over types, over the same sum at the
        start. An observer's hypotheses are the spectator's in which the observer holds its own agent, so when
        every belief reads the same players (or leaves out only its own observer's decisions, which then weigh
        its hypotheses alike) the weights are computed once, over the spectator's hypotheses, as products of the
        gains (a few ``exp`` per player and agent instead of one per hypothesis), and every player's table is
        one product of those weights gathered at its hypotheses (:func:`_observer_rows`) with one one-hot matrix;
        an observer whose hypotheses all weigh too little there for that (under 1e-200 of the largest product)
        has its own computed in logs. Beliefs that read different players are handed their tables and read."""
        starts = list(self.beliefs.items())
        observers = [o for o, _ in starts]
        first = starts[0][1]
        actors = list(self.tables)
        if not actors:
            return observers, np.stack([b.marginals_array() for b in made().values()])
        pop, then = _prior_sums(self.prior, first)                                  # (M,), (M,)
        # what Belief.reads_decisions_of gives: every player's, the observer's own too with several kinds of table
        # (with one, its own decisions would weigh the observer's hypotheses alike)
        # (each actor's readers are observers, once each: those left out are all observers but the ones read)
        n_obs, own_ok = len(observers), len(pop) == 1
        if not all(len(r) == n_obs or (own_ok and len(r) == n_obs - 1 and a in self.beliefs and a not in r)
                   for a, r in ((a, self.readers[a]) for a in actors)):
            beliefs = made()
            self.deliver(beliefs)
            return observers, np.stack([b.marginals_array() for b in beliefs.values()])
        stacked = self._stacked
        tables = stacked[1] if stacked is not None and stacked[0] == tuple(actors) \
            else np.stack([self.tables[a] for a in actors])
        gains = log_sum_exp(tables, 2) - then[None, :, None]                       # (Q, M, A)
        Q, M, A = gains.shape
        full = _spectator_space(first.players, first.agents)
        # the gains as factors of at most 1 (each player's largest taken out), player q's of agent a at row q A + a
        factors = np.exp(gains - gains.max(axis=(1, 2), keepdims=True)).transpose(0, 2, 1).reshape(Q * A, M)
        weights = _factor_products(factors, _product_plan(full, tuple(actors))) @ np.exp(pop)     # (H,)
        # each player's weights: the spectator's where it holds its own agent (:func:`_observer_rows`), summed
        # over those rows only, for every player at once
        seen = [i for i, o in enumerate(observers) if o is not None]
        out = None
        every_ok = True
        if seen:
            every_rows, every_cells = _every_observers_rows(full)
            o_at, o_rows = _owners_at(full, tuple([observers[i] for i in seen]))
            slot_of = full.slot_index
            s_at = [slot_of(starts[i][1].own_agents[0]) for i in seen]
            w = weights.take(every_rows[o_at, s_at])                              # (O, h)
            z = w.sum(axis=1)
            ok = z > 1e-200
            every_ok = bool(ok.all())
            sums = (w / (z if every_ok else np.where(ok, z, 1.0))[:, None]) @ _canonical_rows(full)[0]  # (O, cells)
            # (each observer's cells gathered from its own row: np.take_along_axis's gather, without its set-up)
            table = sums[o_rows, every_cells[o_at, s_at]].reshape(len(seen), full.n_owners + 1, full.n_slots)
            if len(seen) == len(starts):    # (every observer a player: the tables are the whole answer)
                out = table
        if out is None:
            out = np.empty((len(starts), full.n_owners + 1, full.n_slots))
            if seen:
                out[seen] = table
        if not every_ok:    # (its rows there are not normalised, underflowed even: the observer's own, in logs)
            for j in np.flatnonzero(~ok):
                i = seen[j]
                out[i] = self._marginals_of(starts[i][1], actors, gains, pop)
        if None in self.beliefs:       # the spectator: every hypothesis
            i = observers.index(None)
            z_o = weights.sum()
            out[i] = full.event_sums(weights / z_o) if z_o > 1e-200 \
                else self._marginals_of(starts[i][1], actors, gains, pop)
        return observers, out

    @staticmethod
    def _marginals_of(b: Belief, actors: list, gains: np.ndarray, pop: np.ndarray) -> np.ndarray:
        """One belief's marginal table from the players' gains in logs (:meth:`marginals`), over its own
        hypotheses."""
        space = b.space
        read = [q for q, a in enumerate(actors) if b.reads_decisions_of(a)]
        joint = pop[None, :]
        if read:
            cols = np.stack([space.single_slot(actors[q]) for q in read])        # (Q', H)
            joint = joint + gains[np.array(read)[:, None], :, cols].sum(axis=0)   # (H, M)
        total = log_sum_exp(np.broadcast_to(joint, (len(space), len(pop))), 1)  # (H,)
        e = np.exp(total - total.max())
        return space.event_sums(e / e.sum())

    def deliver(self, beliefs: dict) -> None:
        """Each belief's columns of the shared tables, and the steps of the decisions added, in order, in the
        histories of the beliefs that read them (``beliefs``: observer -> belief)."""
        for actor, table in self.tables.items():
            for o in self.readers[actor]:
                beliefs[o].receive_type_table(actor, table)
        for item in self.steps:
            step = BeliefStep(item.index, item.turn, item.actor, item.action,
                              describe_action(item.view, item.actor, item.action), "observation", None, None)
            for o in self.readers[item.actor]:
                beliefs[o].history.append(step)
        self.tables, self.steps, self._stacked = {}, [], None

