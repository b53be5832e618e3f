"""Heimlich beliefs: who controls which agent, as one observer can know it.

A :class:`Belief` is the exact Bayesian posterior of one *observer* (a player,
or ``None`` for a spectator who knows no card) over every assignment of
players to agents that fits the observer's private knowledge: their own agent
card(s); at 7 players there are no free agents; after a second-agent card the
taker holds one more agent (the taker knows which). It is built on the
game-agnostic :mod:`heimlich_lab.inference.core` (players are *owners*, agents
are *slots*) and fed with a *player model*: anything with

``agent_log_likelihoods(view, actor, action) -> array | None``

returning ``log P(action | actor plays for agent a)`` for every agent of
``view.agents`` (``-inf`` allowed), or ``None`` when the decision says
nothing about agents. ``view`` is the public state just before the decision;
a model may use only its public fields. A player holding two agents is
assumed to play for one of them chosen at random (the mean likelihood, as
:func:`~heimlich_lab.inference.core.likelihood_from_owner_values`).

Ways to build one (each uses only what the observer may know):

* ``Belief(players, agents, observer, model, own_agents=...)`` then
  :meth:`Belief.observe` one decision at a time, with the observer's own view;
* :meth:`Belief.for_game` / :meth:`Belief.from_view`: from the event log of
  ``game.view(observer)`` (the public history is re-enacted on a *shadow game*
  whose hidden parts are made up, so the model sees views with exactly the
  public fields of the real ones); :meth:`Belief.sync` follows a live game;
* :meth:`Belief.from_record`: a full record is replayed with the engine and
  the observer's view is taken before every decision; a ``public`` record
  serves only a spectator, a ``player:NAME`` record only NAME (or a spectator).

:class:`BeliefSet` keeps the beliefs of several observers (say, all seven
players) and computes the model's likelihood once per decision, from the
spectator view. :class:`IndependentBelief` and :class:`PointsShareBelief` are
teaching baselines with the same :meth:`~Belief.marginals` shape.

Example with a tiny model of one's own (any object with the method above):

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], chance="manual")
>>> g.apply("deal Ann=red Bob=blue Cy=green"); g.apply("roll 4")
>>> b = Belief.for_game(g, "Cy", model=PushModel(q=0.2))
>>> b.observe(g.view("Cy"), "Ann", Action.parse("move red+3 blue+1")) is not None
True
>>> m = b.marginals()
>>> sorted(m), round(m["Ann"]["red"], 3), round(m["Cy"]["green"], 3)
(['Ann', 'Bob', 'Cy', 'free'], 0.74, 1.0)
>>> import textwrap; print(textwrap.fill(b.last_explanation(), 100))
Ann moved red from church to 3 and blue from church to 1: 11 times more likely if Ann controls red
than if Ann does not (probability 0.20 -> 0.74).

Information rule: a belief refuses a view of another player (and an
omniscient view), and never reads a dossier entry, a drawn card or a taken
agent card that its observer did not see. See ``notes`` in
:meth:`Belief.observe` for what is ignored.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from ...._lazy import lazy_exports
from ....errors import HeimlichError, InformationRuleError, ModelError, RecordError
from ....inference.core import FREE_LABEL, HypothesisSpace, Marginals, Posterior, Update, explain
from ....inference.mixture import TypedPosterior
from ....inference.plots import plot_belief_history, plot_marginals
from ..rules.actions import DECISION_KINDS, HIDDEN, Action
from ..rules.game import Game
from ..rules.records import GameRecord
from ..rules.replay import Decision, ViewReader, check_reader, public_decisions
from ..rules.views import View
from .likelihoods import (
    LIKELIHOOD_CACHE,
    LikelihoodCache,
    PushModel,
    ask_model,
    default_model,
    game_answers,
    is_typed,
    model_cache_key,
    model_name,
)
from .model import HAND_DECISIONS
from .player_types import group_types
from .wording import card_moves, describe_action

__all__ = [
    "Belief",
    "BeliefSet",
    "BeliefStep",
    "IndependentBelief",
    "InformationRuleError",
    "PointsShareBelief",
    "PushModel",
    "card_moves",
    "default_model",
    "describe_action",
    "marginals_dict",
    "plot_marginals",
    "public_decisions",
]

#: names whose home is another module (they build on Belief), importable from here as before
__getattr__, __dir__ = lazy_exports(globals(), {"BeliefSet": "belief_set", "IndependentBelief": "baselines",
                                                "PointsShareBelief": "baselines"})


def marginals_dict(table: np.ndarray, players, agents) -> dict[str, dict[str, float]]:
    """A marginal table (players + free x agents) as ``{player or "free": {agent: probability}}``."""
    rows = [*players, FREE_LABEL]
    return {r: {a: float(table[i, j]) for j, a in enumerate(agents)} for i, r in enumerate(rows)}


@lru_cache(maxsize=64)
def _initial_space(players: tuple, agents: tuple, observer, own: tuple) -> HypothesisSpace:
    """Every assignment the observer cannot rule out at the start (cached: a space keeps its lookups). A player
    holding one card: the spectator's assignments in which it holds that card, the same rows in the same order as
    enumerating them with the card pinned (tested), without the enumeration (an evaluation's first games build one
    space per player and card)."""
    if observer is None:
        return HypothesisSpace.assignments(players, agents)
    if len(own) == 1 and observer in players and own[0] in agents:
        every = _initial_space(players, agents, None, ())
        held = every.table[:, every.slot_index(own[0])] == every.owner_index(observer)
        return HypothesisSpace.unchecked(every.owners, every.slots, every.table[held])
    counts = {p: (len(own) if p == observer else 1) for p in players}
    return HypothesisSpace.assignments(players, agents, counts, known_owned={observer: list(own)})


#: what a starting posterior depends on -> that posterior, copied for each new belief (its arrays are replaced, never
#: changed in place): an evaluation starts several beliefs per game from a few spaces, and each
#: ``Belief.from_record(rec, p)`` makes its model afresh (a new default population with the same prior)
_STARTS: dict = {}


def _start_key(space: HypothesisSpace, model, keep_updates: bool) -> tuple:
    """The space (itself), whether the model has types, and what of the model the start reads (its prior tables
    and names, by value: equal models share their start)."""
    if not is_typed(model):
        return (space, False, keep_updates)
    tables = getattr(model, "log_tables", model.log_prior)
    pop_prior = getattr(model, "table_log_prior", None)
    return (space, True, keep_updates, np.asarray(tables, dtype=float).tobytes(), np.shape(tables),
            tuple(model.type_names), None if pop_prior is None else np.asarray(pop_prior, dtype=float).tobytes(),
            tuple(getattr(model, "table_names", None) or ()))


def _initial_posterior(space: HypothesisSpace, model, keep_updates: bool) -> Posterior:
    """The posterior before anything is seen: over ``space``, with ``model``'s types if it has them."""
    key = _start_key(space, model, keep_updates)
    hit = _STARTS.get(key)
    if hit is not None:      # keys hold the space itself: equal keys are the same space
        return hit.copy()
    if is_typed(model):  # each player's type is learned with their agent, exactly
        post = TypedPosterior(space, getattr(model, "log_tables", model.log_prior), model.type_names,
                              population_log_prior=getattr(model, "table_log_prior", None),
                              population_names=getattr(model, "table_names", None), keep_updates=keep_updates)
    else:
        post = Posterior(space, keep_updates=keep_updates)
    if len(_STARTS) > 64:
        _STARTS.clear()
    _STARTS[key] = post.copy()
    return post


#: (class, players, agents, observer, own agents, keep_updates, id(model)) -> (the model, :func:`_start_marks` of it, a
#: belief at that start): :meth:`Belief.at_start`'s cache
_AT_START: dict = {}


#: the same as :data:`_AT_START`, keyed by what of a model with player types a start reads (its values, instead of the
#: model's identity): a new model equal to one seen (each evaluator makes its own default model) copies that start
_AT_START_VALUES: dict = {}
#: id(model) -> (the model, its marks, :func:`_model_values` of it)
_MODEL_VALUES: dict = {}


def _model_values(model, marks: tuple) -> tuple | None:
    """What of ``model`` (with player types) a belief's start reads, by value (:func:`_start_key` without the space),
    with its class; ``None`` for a model without player types. Computed once per model (its marks, as found, the
    same objects)."""
    hit = _MODEL_VALUES.get(id(model))
    if hit is not None and hit[0] is model and len(hit[1]) == len(marks) and all(a is b for a, b in zip(marks, hit[1])):
        return hit[2]
    if not is_typed(model):
        return None
    values = (type(model), *_start_key(None, model, False)[3:])   # type: ignore[arg-type]
    if len(_MODEL_VALUES) > 64:
        _MODEL_VALUES.clear()
    _MODEL_VALUES[id(model)] = (model, marks, values)
    return values


def _start_marks(model) -> tuple | None:
    """What of ``model`` a belief's start reads (its prior tables and names, as found: compared by identity), or
    ``None`` if an array of them can be written to (then a start is not cached)."""
    marks = tuple(getattr(model, name, None) for name in ("log_tables", "log_prior", "table_log_prior", "type_names",
                                                           "table_names"))
    if any(isinstance(m, np.ndarray) and m.flags.writeable for m in marks):
        return None
    return marks


@dataclass(frozen=True, eq=False)
class BeliefStep:
    """One change of a belief: an observed decision (``kind="observation"``) or a
    second-agent take (``kind="refine"``).

    ``index`` is the log entry (or the running count of :meth:`Belief.observe`
    calls), ``marginals`` the table after the step (players + free x agents;
    ``None``, like ``entropy``, for an observation of a belief without update records),
    ``update`` the :class:`~heimlich_lab.inference.core.Update` record (``None``
    when the belief keeps no update records).
    """

    index: int
    turn: int | None
    actor: str
    action: Action
    description: str
    kind: str
    marginals: np.ndarray | None = field(repr=False)
    entropy: float | None = 0.0
    update: Update | None = field(default=None, repr=False)
    #: the actor's type probabilities before and after the step (a typed model's belief: a pair, each computed
    #: when first read), else None
    types: Sequence[np.ndarray] | None = field(default=None, repr=False)


class _TypeReadings(Sequence):
    """A step's ``types``: the actor's type probabilities before and after it, computed when first read (most
    steps' never are: a replay keeps them for the explanations)."""

    __slots__ = ("_readers",)

    def __init__(self, before, after):
        self._readers = (before, after)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(r() for r in self._readers[i])
        return self._readers[i]()

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return repr(tuple(self))


def _as_action(action) -> Action:
    try:
        return Action.parse(action)
    except HeimlichError as e:
        raise ModelError(f"not an action: {e}") from None


class Belief:
    """The exact posterior of one observer over who controls which agent.

    ``players`` and ``agents`` as in the game; ``observer`` a player name or
    ``None`` (spectator); ``model`` a player model (default
    :func:`default_model`); ``own_agents`` the observer's agent card(s)
    (required for a player). ``keep_updates=False`` keeps the current belief
    only: no :class:`~heimlich_lab.inference.core.Update` records (so no
    explanations) and no table per observation (:meth:`marginals_history`
    leaves them out); much lighter for long evaluations, as a belief with types
    then brings its table up to date only when it is read.

    :meth:`marginals` is a :class:`~heimlich_lab.inference.core.Marginals` table, read as
    ``{player or "free": {agent: probability}}``.
    Invalid input raises :class:`~heimlich_lab.errors.ModelError` and leaves
    the belief as it was.
    """

    #: (the start's space, :meth:`type_table_prior` there) on the beliefs :meth:`at_start` copies, else ``None``
    _start_table_prior: tuple[HypothesisSpace, np.ndarray | None] | None = None

    def __init__(self, players: Iterable[str], agents: Iterable[str], observer: str | None = None, model=None,
                 own_agents: str | Iterable[str] | None = None, *, keep_updates: bool = True):
        if isinstance(players, str) or isinstance(agents, str):
            raise ModelError("players and agents must be lists of names, not a single string")
        players = tuple(players)
        agents = tuple(agents)
        if len(players) < 2 or len(set(players)) != len(players):
            raise ModelError(f"players must be at least two different names, got {players!r}")
        if len(set(agents)) != len(agents) or len(agents) < len(players):
            raise ModelError(f"agents must be different colours, at least one per player; got {agents!r}")
        if observer is not None and observer not in players:
            raise ModelError(f"unknown observer {observer!r}: players are {', '.join(players)} "
                             "(or None for a spectator)")
        if isinstance(own_agents, str):
            own_agents = (own_agents,)
        own = tuple(own_agents or ())
        if observer is None and own:
            raise ModelError("a spectator (observer=None) holds no agent card; leave own_agents out")
        if observer is not None:
            if not 1 <= len(own) <= 2:
                raise ModelError(f"{observer}'s own agent card is needed: pass own_agents= "
                                 "(or use Belief.for_game / Belief.from_record)")
            bad = [c for c in own if c not in agents]
            if bad or len(set(own)) != len(own):
                raise ModelError(f"own_agents {list(own)} must be different agents of {', '.join(agents)}")
        if model is None:
            model = default_model()
        if not callable(getattr(model, "agent_log_likelihoods", None)):
            raise ModelError(f"the model ({type(model).__name__}) has no agent_log_likelihoods(view, actor, action)")
        self.players, self.agents, self.observer = players, agents, observer
        self.own_agents = own
        self.model = model
        self.keep_updates = keep_updates
        self._posterior = _initial_posterior(_initial_space(players, agents, observer, own), model, keep_updates)
        self._initial_marginals, self._initial_entropy = self._posterior.marginals(), self._posterior.entropy()
        #: the observer's own decisions are evidence too when the model has several kinds of table: players at
        #: one table tend to be alike, so how the observer plays (with its agent known) hints at the others
        self.learns_from_own = observer is not None and isinstance(self._posterior, TypedPosterior) \
            and len(self._posterior.population_names) > 1
        self.history: list[BeliefStep] = []
        self._count = 0
        self._took: set[str] = set()
        self.at_mark = False  # True once a marker reached 29 (beliefs built from a game or record)
        # following a game through sync()
        self._reader: ViewReader | None = None
        self._manual = False  # fed by observe()
        self._added = False  # fed by add()

    @classmethod
    def at_start(cls, players: Iterable[str], agents: Iterable[str], observer: str | None = None, model=None,
                 own_agents: str | Iterable[str] | None = None, *, keep_updates: bool = True) -> Belief:
        """``Belief(players, agents, observer, model, own_agents, keep_updates=...)``, built once per arguments
        and copied after (an evaluation starts the same few beliefs in every game): the copy shares the start's
        read-only arrays (a belief's arrays are replaced when it changes, never changed in place) and has its
        own posterior and history. A model is recognised by identity, and what its start reads (its prior
        tables and names) too; a model whose prior tables can be written to is not cached. A new model with player
        types equal to one seen (those tables and names by value) copies that model's start, with itself as the
        model (:meth:`cached_starts`).

        >>> b = Belief.at_start(["Ann", "Bob", "Cy"], ["red", "blue", "green"], "Bob", PushModel(0.5), "blue")
        >>> again = Belief.at_start(["Ann", "Bob", "Cy"], ["red", "blue", "green"], "Bob", b.model, "blue")
        >>> again is b, bool(np.array_equal(again.marginals_array(), b.marginals_array()))
        (False, True)
        """
        start = cls.cached_start(players, agents, observer, model, own_agents, keep_updates=keep_updates)
        if start is not None:
            return start.unread_copy()
        own = (own_agents,) if isinstance(own_agents, str) else tuple(own_agents or ())
        args = (cls, tuple(players), tuple(agents), observer, own, keep_updates)
        marks = _start_marks(model)
        made = cls(players, agents, observer, model, own_agents, keep_updates=keep_updates)
        if marks is not None and model is not None:
            if len(_AT_START) > 128:
                _AT_START.clear()
            start = made.unread_copy(start=True)
            _AT_START[(*args, id(model))] = (model, marks, start)
            values = _model_values(model, marks)
            if values is not None:
                if len(_AT_START_VALUES) > 128:
                    _AT_START_VALUES.clear()
                _AT_START_VALUES[(*args, values)] = start
        return made

    @classmethod
    def cached_start(cls, players: Iterable[str], agents: Iterable[str], observer: str | None = None, model=None,
                     own_agents: str | Iterable[str] | None = None, *, keep_updates: bool = True) -> Belief | None:
        """The start that :meth:`at_start` copies for these arguments, if it has one (else ``None``): a belief that
        has read nothing, shared by every later call, to be read only (never updated; :meth:`at_start` gives a
        copy to update). A :class:`BeliefSet <heimlich_lab.games.heimlich.inference.belief_set.BeliefSet>` asks it
        what a belief at the start says (its type prior, whose decisions it reads) without copying it.

        >>> m = PushModel(0.5)
        >>> Belief.cached_start(["Ann", "Bob"], ["red", "blue"], "Bob", m, "blue") is None
        True
        >>> b = Belief.at_start(["Ann", "Bob"], ["red", "blue"], "Bob", m, "blue")
        >>> start = Belief.cached_start(["Ann", "Bob"], ["red", "blue"], "Bob", m, "blue")
        >>> start is not b and bool(np.array_equal(start.marginals_array(), b.marginals_array()))
        True
        """
        starts = cls.cached_starts(players, agents, {observer: own_agents}, model, keep_updates=keep_updates)
        return None if starts is None else starts[observer]

    @classmethod
    def cached_starts(cls, players: Iterable[str], agents: Iterable[str], owns: Mapping, model=None, *,
                      keep_updates: bool = True) -> dict | None:
        """:meth:`cached_start` of several observers at once (``owns``: observer -> own agents), the model's marks
        read once: observer -> start, or ``None`` if one of them has none. A model with player types that has no
        start of its own yet gets a copy of the start of an equal model (the same prior tables and names: the same
        starting posterior), with itself as its model.

        >>> m = PushModel(0.5)
        >>> for o, own in (("Ann", "red"), ("Bob", "blue")):
        ...     _ = Belief.at_start(["Ann", "Bob"], ["red", "blue"], o, m, own)
        >>> starts = Belief.cached_starts(["Ann", "Bob"], ["red", "blue"], {"Ann": "red", "Bob": "blue"}, m)
        >>> [(o, b.observer, b.own_agents) for o, b in starts.items()]
        [('Ann', 'Ann', ('red',)), ('Bob', 'Bob', ('blue',))]
        >>> Belief.cached_starts(["Ann", "Bob"], ["red", "blue"], {"Ann": "blue"}, m) is None
        True
        """
        players, agents = tuple(players), tuple(agents)
        marks = None
        out = {}
        for observer, own_agents in owns.items():
            own = (own_agents,) if isinstance(own_agents, str) else tuple(own_agents or ())
            if marks is None:
                marks = _start_marks(model)
                if marks is None or model is None:
                    return None
            hit = _AT_START.get((cls, players, agents, observer, own, keep_updates, id(model)))
            if hit is None or hit[0] is not model:
                # a start made for an equal model (by value): copied for this one, and kept as its own
                values = _model_values(model, marks)
                other = None if values is None else \
                    _AT_START_VALUES.get((cls, players, agents, observer, own, keep_updates, values))
                if other is None:
                    return None
                start = other.unread_copy(start=True)
                start.model = model
                if len(_AT_START) > 128:
                    _AT_START.clear()
                hit = _AT_START[(cls, players, agents, observer, own, keep_updates, id(model))] = (model, marks, start)
            if len(marks) != len(hit[1]) or not all(a is b for a, b in zip(marks, hit[1])):
                return None
            out[observer] = hit[2]
        return out

    def unread_copy(self, start: bool = False) -> Belief:
        """A copy of a belief that has read nothing yet (its start: see :meth:`at_start`); raises
        :class:`~heimlich_lab.errors.ModelError` for one that has. ``start=True``: the copy keeps what
        :meth:`type_table_prior` says at the start, for its own copies (asked of each belief of a game)."""
        if self.history or self._count or self._took or self._reader is not None or self._manual or self._added \
                or self.at_mark:
            raise ModelError("unread_copy() copies a belief that has read nothing yet")
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__, _posterior=self._posterior.copy(), history=[], _took=set())
        if start:
            new.__dict__["_start_table_prior"] = (new.space, new.type_table_prior())
        return new

    # ---------------------------------------------------------------- construction from games and records
    @classmethod
    def for_game(cls, game: Game, observer: str | None = None, model=None, **kw) -> Belief:
        """The belief of ``observer`` after the game so far, from ``game.view(observer)`` only.

        Follow the game on with :meth:`sync` (or :meth:`observe`). A game that
        started from a :class:`~heimlich_lab.Position` (which views do not
        describe) is read from ``game.record.as_player(observer)`` (or the
        public record for a spectator): the engine's redaction, the same
        information.
        """
        if not isinstance(game, Game):
            raise ModelError(f"for_game() takes a Game, not {type(game).__name__}")
        if observer is not None and observer not in game.players:
            raise ModelError(f"unknown observer {observer!r}: players are {', '.join(game.players)}")
        if game.start is not None:
            rec = game.record
            rec = rec.as_player(observer) if observer is not None else rec.public()
            return cls.from_record(rec, observer=observer, model=model, **kw)
        return cls.from_view(game.view(observer), model=model, **kw)

    @classmethod
    def from_view(cls, view: View, model=None, **kw) -> Belief:
        """The belief of ``view.viewer`` from the view's event log (see :meth:`sync`)."""
        if not isinstance(view, View):
            raise ModelError(f"from_view() takes a View, not {type(view).__name__}")
        if view.kind == "omniscient":
            raise InformationRuleError("an omniscient view holds every secret; use a player's or the spectator's view")
        own = ()
        if view.viewer is not None:
            if not view.own_agents:
                raise ModelError(f"{view.viewer} holds no agent card yet (the deal has not happened)")
            own = tuple(view.own_agents[:1])  # the dealt card; a taken second agent comes from the log
        b = cls(view.players, view.agents, view.viewer, model, own, **kw)
        b.sync(view)
        return b

    @classmethod
    def from_record(cls, record: GameRecord, observer: str | None = None, model=None, until=None, **kw) -> Belief:
        """Replay ``record`` and update with every decision ``observer`` saw.

        A full record is replayed with the engine; the observer's view before
        each decision goes to the model. A ``public`` record serves only a
        spectator (``observer=None``), a ``player:NAME`` record NAME or a
        spectator; anything else raises :class:`InformationRuleError`.
        ``until``: ``None`` (the whole record), ``"dossier"`` (stop when the
        first marker reaches 29, the dossier mark) or a number of log entries.
        """
        if not isinstance(record, GameRecord):
            raise ModelError(f"from_record() takes a GameRecord, not {type(record).__name__}")
        if observer is not None and observer not in record.players:
            raise ModelError(f"unknown observer {observer!r}: players of this record are {', '.join(record.players)}")
        check_reader(record, observer)
        own = ()
        if observer is not None:
            if record.start is not None:
                c = record.start.owners[observer]
                own = ((c,) if isinstance(c, str) else tuple(c))
            elif record.deal and observer in record.deal:
                own = (record.deal[observer],)
            elif record.is_full or record.view == f"player:{observer}":
                raise RecordError("the record has no deal yet")
        if own and HIDDEN in own:
            raise InformationRuleError(f"this record does not show {observer}'s agent card")
        agents = record.rules.agents_for(len(record.players))
        self = cls(record.players, agents, observer, model, own, **kw)
        items: Iterable[Decision] = public_decisions(record, observer, until)
        answers = None
        if is_typed(self.model) and not any(e.action.kind == "take" for e in record.log):
            # a population of types reads the whole game's decisions at once (array code over their tables; Top
            # Secret's hand decisions from this observer's pool), and the next observer of the same record finds the
            # answers (those to hand decisions asked again from its own pool)
            items = list(items)
            answers = game_answers(self.model, record, items, len(agents), until)
        for d in items:
            self._consume(d, answers=answers)
        return self

    def _consume(self, decision: Decision, cache: LikelihoodCache | None = None, answers: dict | None = None) -> None:
        """One decision of the stream: a take refines, a player decision updates (not the observer's own).
        ``answers``: the model's answers to the game's decisions by log index, computed already."""
        d = decision
        if d.action.kind == "take":
            agent = d.action.args[0]
            self.take(d.to, None if agent == HIDDEN else agent, index=d.index, turn=d.turn)
        elif d.action.kind in DECISION_KINDS and self.reads_decisions_of(d.actor):
            values = answers[d.index] if answers is not None \
                else self._likelihoods(d.view, d.actor, d.action, cache, d.history_key)
            if values is not None:
                self.update_with(d.actor, d.action, values, describe_action(d.view, d.actor, d.action), d.index,
                                  d.turn)
        if d.at_mark:
            self.at_mark = True

    def reads_decisions_of(self, actor: str) -> bool:
        """Whether ``actor``'s decisions are evidence for this belief: every other player's, and the observer's
        own when they tell the kind of table (:attr:`learns_from_own`)."""
        return actor != self.observer or self.learns_from_own

    def _likelihoods(self, view, actor, action, cache=None, key=None):
        """The model's checked log-likelihoods of one decision (``None``: no evidence), shared through
        ``cache`` by every belief that saw the same public history ``key``."""
        mkey = model_cache_key(self.model) if (cache is not None and key is not None) else None
        if mkey is not None:
            if action.kind in HAND_DECISIONS and view.viewer is not None:
                # a hidden hand comes from what this viewer cannot see; the actor's own hand is known to it
                key = (key, tuple(sorted(view.hand)), view.viewer == actor)
            hit, v = cache.get((mkey, key))
            if hit:
                return v
        v = ask_model(self.model, view, actor, action, len(self.agents))
        if mkey is not None:
            cache.put((mkey, key), v)
        return v

    # ---------------------------------------------------------------- following a live game
    def sync(self, view: View) -> Belief:
        """Catch up with a live game from ``view`` (the observer's own view): every new decision in its log.

        The public history is re-enacted on a shadow game (see
        :mod:`heimlich_lab.games.heimlich.rules.replay`), so the model sees the public state
        before each decision. A
        spectator's belief (``observer=None``) may follow any player's view:
        it takes only the public part (others' secrets are not in the view,
        the viewer's own are dropped). Use either :meth:`sync` or
        :meth:`observe` on one belief, not both. Returns the belief.

        An error while catching up (say, the model rejects a decision, or
        the log cannot be followed) leaves the belief exactly as it was
        before the call: marginals, history, step indices and the shadow game
        are restored (the shadow by re-enacting the entries it had followed).
        """
        if self._manual or self._added:
            fed = "observe()" if self._manual else "add()"
            raise ModelError(f"this belief is fed by {fed}; sync() would count decisions twice")
        self._check_view(view, public_part=self.observer is None)
        if self._reader is None:
            self._reader = ViewReader(self.players, self.observer, self.own_agents[:1])
        snap = self.snapshot()
        try:
            for d in self._reader.read(view, public=view.viewer != self.observer):
                self._consume(d, LIKELIHOOD_CACHE)
                self._count += 1
        except BaseException:
            self.restore(snap)
            raise
        return self

    def snapshot(self) -> tuple:
        """The belief's state now, for :meth:`restore`: cheap (its arrays are replaced, never changed in place;
        the reader of a live game rewinds by re-enacting its entries, which is deterministic). Use it to make
        several changes all or nothing, as :class:`~heimlich_lab.inference.belief_set.BeliefSet` does.

        >>> from heimlich_lab import Game
        >>> g = Game(["Ann", "Bob", "Cy"], seed=5)
        >>> b = Belief.for_game(g, "Bob", model=PushModel(0.5))
        >>> mark = b.snapshot()
        >>> g.apply("move grey+5"); _ = b.sync(g.view("Bob"))
        >>> len(b.history)
        1
        >>> b.restore(mark); len(b.history)
        0
        """
        return (self._posterior.checkpoint(), len(self.history), self._count,
                frozenset(self._took), self.own_agents, self.at_mark, self._manual, self._added, self._reader,
                self._reader.mark() if self._reader is not None else None)

    def restore(self, snap: tuple) -> None:
        """Back to the state of :meth:`snapshot` (the steps since leave :attr:`history`)."""
        (checkpoint, n_hist, self._count, took, self.own_agents,
         self.at_mark, self._manual, self._added, self._reader, mark) = snap
        self._posterior.rewind(checkpoint)
        del self.history[n_hist:]
        self._took = set(took)
        if self._reader is not None:
            self._reader.rewind(mark)

    def add(self, decision: Decision) -> BeliefStep | None:
        """Update with the next decision of the one public stream, as the observer saw it.

        ``decision`` comes from :func:`~heimlich_lab.games.heimlich.rules.replay.public_decisions` or a
        :class:`~heimlich_lab.games.heimlich.rules.replay.DecisionStream` read for this belief's observer (a
        spectator's belief reads the spectator's stream: another observer's views hold their
        secrets). Feed every decision in order; use one way of feeding a belief (:meth:`add`,
        :meth:`sync` or :meth:`observe`). Returns the new :class:`BeliefStep`, or ``None`` when
        nothing changed; an error leaves the belief as it was.

        >>> from heimlich_lab import Game
        >>> from heimlich_lab.games.heimlich.rules.replay import DecisionStream
        >>> g = Game(["Ann", "Bob", "Cy"], seed=5)
        >>> b = Belief(g.players, g.agents, "Bob", PushModel(0.5), g.view("Bob").own_agents)
        >>> stream = DecisionStream(g, "Bob")
        >>> g.apply("move grey+5")
        >>> [b.add(d) is not None for d in stream.new()]    # deal, roll, Ann's move, roll
        [False, False, True, False]
        """
        if self._manual or self._reader is not None:
            fed = "observe()" if self._manual else "sync()"
            raise ModelError(f"this belief is fed by {fed}; add() would count decisions twice")
        if decision.view is not None:
            self._check_view(decision.view)  # a named take of another player is refused by _take
        n_steps = len(self.history)
        snap = self.snapshot()
        try:
            self._consume(decision, LIKELIHOOD_CACHE)
        except BaseException:
            self.restore(snap)
            raise
        self._added = True
        self._count += 1
        return self.history[-1] if len(self.history) > n_steps else None

    # ---------------------------------------------------------------- observing one decision
    def _check_view(self, view, public_part: bool = False) -> None:
        if not isinstance(view, View):
            raise ModelError(f"expected a View (game.view(player)), not {type(view).__name__}")
        if view.kind == "omniscient":
            raise InformationRuleError("an omniscient view holds every secret; a belief may not use it")
        if view.viewer != self.observer and not public_part:
            who = f"{self.observer}'s belief" if self.observer else "a spectator's belief"
            whose = f"{self.observer}'s" if self.observer else "the spectator"
            raise InformationRuleError(f"this is {view.label}: {who} may use only {whose} view "
                                       "(the information rule, docs/rules.md#information-rule)")
        if tuple(view.players) != self.players or tuple(view.agents) != self.agents:
            raise ModelError(f"this view is of another game (players {', '.join(view.players)}, agents "
                             f"{', '.join(view.agents)}); the belief is about {', '.join(self.players)} and "
                             f"{', '.join(self.agents)}")

    def observe(self, view_before: View, actor: str, action: Action | str) -> BeliefStep | None:
        """Update with one decision: ``actor`` chose ``action`` in the state of ``view_before``.

        ``view_before`` must be the observer's own view (a spectator's for
        ``observer=None``), taken just before the decision. Returns the new
        :class:`BeliefStep`, or ``None`` when nothing changed. Notes:

        * chance events (``roll``, ``draw``, ``deal``) are ignored;
        * a second-agent take is ``observe(view, taker, "take ?")`` (the
          taker's own belief may name the agent: ``"take blue"``): every
          hypothesis splits over the free agents the taker may have drawn;
        * ``dossier`` entries are private to their writer and are never used;
        * the observer's own decisions tell the observer nothing about who controls which agent; with a
          model of several kinds of table (the default population) they tell which kind of table this is
          (:attr:`learns_from_own`).
        """
        self._check_view(view_before)
        act = _as_action(action)
        if actor not in self.players:
            raise ModelError(f"unknown actor {actor!r}: players are {', '.join(self.players)}")
        if act.kind == "take":
            agent = act.args[0]
            if agent != HIDDEN and actor != self.observer:
                raise InformationRuleError(f"{self.observer or 'a spectator'} cannot know which free agent card "
                                           f"{actor} took; observe it as 'take ?'")
            step = self.take(actor, None if agent == HIDDEN else agent, index=self._count, turn=view_before.turn)
            self._manual = True
            self._count += 1
            return step
        if act.is_chance or act.kind == "dossier":
            return None
        if view_before.current_player != actor:
            raise ModelError(f"the view shows {view_before.current_player or 'nobody'} to decide "
                             f"({view_before.phase}), not {actor}: pass the view from just before {actor}'s decision")
        step = None
        if self.reads_decisions_of(actor):
            # everything that may fail comes before the step is counted (update_with commits last)
            values = self._likelihoods(view_before, actor, act)
            if values is not None:
                step = self.update_with(actor, act, values, describe_action(view_before, actor, act), self._count,
                                         view_before.turn)
        self._manual = True
        self._count += 1
        return step

    def update_with(self, actor: str, action: Action, values: np.ndarray, description: str = "",
                    index: int | None = None, turn: int | None = None) -> BeliefStep:
        """Bayes' rule with the model's log-likelihoods of ``actor``'s decision ``action``, already checked (the
        answer of :func:`~heimlich_lab.inference.likelihoods.ask_model`: per agent, or per type and agent for a
        typed model), as :class:`~heimlich_lab.inference.belief_set.BeliefSet` gives the one answer to every
        observer. ``description`` says what was seen; ``index`` and ``turn`` place the step (default: the
        running count of decisions, no turn). Returns the new :class:`BeliefStep`; an impossible observation
        raises :class:`~heimlich_lab.errors.ModelError` and leaves the belief as it was.

        >>> from heimlich_lab import Game
        >>> g = Game(["Ann", "Bob", "Cy"], seed=5)
        >>> b = Belief.for_game(g, "Bob", model=PushModel(0.5))
        >>> v = ask_model(b.model, g.view("Bob"), "Ann", Action.parse("move grey+5"), len(b.agents))
        >>> step = b.update_with("Ann", Action.parse("move grey+5"), v, "Ann moved grey")
        >>> step.kind, step.actor, round(step.update.log_evidence, 3)
        ('observation', 'Ann', -4.304)
        """
        if index is None:
            index = self._count
        if np.shape(values)[-1:] != (len(self.agents),):
            raise ModelError(f"values must hold one log-likelihood per agent ({len(self.agents)}), "
                             f"not shape {np.shape(values)}")
        typed = self.keep_updates and isinstance(self._posterior, TypedPosterior)
        before = self._posterior.type_posterior_reader(actor) if typed else None
        try:
            upd = self._posterior.update_actor(actor, values, label=description, info=index)
        except ModelError:  # the values are valid: the only failure left is an impossible observation
            raise ModelError(f"{description}: impossible under every hypothesis still possible "
                             f"({model_name(self.model)} gives it probability 0 for every agent "
                             f"{actor} may control)") from None
        post = self._posterior
        if not self.keep_updates:   # no table per step: reading it now would undo a typed belief's laziness
            step = BeliefStep(index, turn, actor, action, description, "observation", None, None)
            self.history.append(step)
            return step
        # the update record holds the posterior's own read-only table: no copy needed on the hot path
        marg = upd.marginals_after if upd is not None else post.marginals()
        readings = _TypeReadings(before, post.type_posterior_reader(actor)) if typed else None
        step = BeliefStep(index, turn, actor, action, description, "observation", marg, post.entropy(), upd, readings)
        self.history.append(step)
        return step

    def take(self, taker: str, agent: str | None = None, index: int = 0, turn: int | None = None) -> BeliefStep:
        """``taker`` took a free agent card at random (``agent`` given only if the observer is the taker): every
        hypothesis splits over the free agents the taker may have drawn. Returns the new :class:`BeliefStep`
        (``kind="refine"``); bad input raises and leaves the belief as it was."""
        if taker not in self.players:
            raise ModelError(f"unknown player {taker!r} takes a free agent card")
        if taker in self._took:
            raise ModelError(f"{taker} already took a second agent")
        if agent is not None and taker != self.observer:
            raise InformationRuleError(f"{self.observer or 'a spectator'} cannot know which card {taker} took")
        if agent is not None and agent not in self.agents:
            raise ModelError(f"unknown agent {agent!r}")
        post = self._posterior
        checkpoint = post.checkpoint()
        try:
            upd = post.refine(taker, label=f"{taker} took a free agent card", info=index)
            known = None if agent is None else post.restrict({agent: taker}, label=f"{taker} took {agent}",
                                                             info=index)
        except ModelError:
            post.rewind(checkpoint)
            raise
        if known is not None:  # the taker's own belief: fold refine and restrict into one step
            if upd is not None:
                upd = Update(label=f"{taker} took the free agent card {agent}", actor=taker,
                             log_evidence=upd.log_evidence + known.log_evidence,
                             marginals_before=upd.marginals_before, marginals_after=known.marginals_after,
                             entropy_before=upd.entropy_before, entropy_after=known.entropy_after,
                             owners=upd.owners, slots=upd.slots, info=index, kind="refine")
        self._took.add(taker)
        if agent is not None:
            self.own_agents = self.own_agents + (agent,)
        act = Action("take", (agent or HIDDEN,))
        step = BeliefStep(index, turn, taker, act, describe_action(None, taker, act), "refine",
                          post.marginals(), post.entropy(), upd)
        self.history.append(step)
        return step

    # ---------------------------------------------------------------- queries
    def __repr__(self) -> str:
        who = self.observer or "spectator"
        return (f"<Belief of {who}: {len(self.players)} players, {len(self.agents)} agents, "
                f"{len(self.space)} hypotheses, {len(self.history)} updates, entropy {self.entropy():.2f} bits>")

    @property
    def space(self) -> HypothesisSpace:
        return self._posterior.space

    @property
    def log_weights(self) -> np.ndarray:
        """Normalized log posterior over :attr:`space` (read-only)."""
        return self._posterior.log_weights

    def type_table_prior(self) -> np.ndarray | None:
        """The type log prior (populations, types) of a belief that can take type tables kept elsewhere
        (:meth:`receive_type_table`): one with player types, without update records, each player holding one
        agent in every hypothesis. ``None`` for any other belief."""
        post = self._posterior
        start = self._start_table_prior     # a copy of a start (at_start): found there while it has read nothing
        if start is not None and start[0] is post.space and not (self.history or self._count or self._took):
            return start[1]
        if not isinstance(post, TypedPosterior) or post.keep_updates or \
                any(post.slot_columns(p) is None for p in self.players):
            return None
        return post.type_log_prior

    def receive_type_table(self, player: str, table: np.ndarray) -> None:
        """``player``'s type table after decisions kept elsewhere: a table (populations, types, agents) that
        started from :meth:`type_table_prior` and added each decision's log-likelihoods, all finite, in order
        (:meth:`TypedPosterior.receive_table <heimlich_lab.inference.mixture.TypedPosterior.receive_table>`).
        The belief brings its weights up to date when next read."""
        post = self._posterior
        # (the posterior checks that each holding is one agent: the rest of type_table_prior's checks, cheaply)
        if not isinstance(post, TypedPosterior) or post.keep_updates or post.slot_columns(player) is None:
            raise ModelError("this belief cannot take type tables kept elsewhere (it has no player types, keeps "
                             "update records, or a player may hold two agents)")
        post.receive_table(player, table)

    def posterior(self) -> Posterior:
        """A copy of the :class:`~heimlich_lab.inference.core.Posterior` this belief holds (for core queries)."""
        return self._posterior.copy()

    def marginals(self) -> Marginals:
        """P(player controls agent), a :class:`~heimlich_lab.inference.core.Marginals` table: rows the players
        and "free", columns the agents, read as ``m[player][agent]`` (each agent's column sums to 1)."""
        return Marginals(self._posterior.marginals(), (*self.players, FREE_LABEL), self.agents)

    def marginals_array(self) -> np.ndarray:
        """Array (players + 1, agents): rows in :attr:`players` order, then "free"."""
        return self._posterior.marginals()

    def marginals_table(self) -> pd.DataFrame:
        """:meth:`marginals_array` as a DataFrame (index players + "free", columns agents)."""
        return self._posterior.marginals_table()

    def probability(self, assignment: Mapping[str, Any]) -> float:
        """P(all of ``assignment``): ``{agent: player or "free"}`` or ``{player: agent(s)}``.

        Keys that are all agents are read agent -> owner (the core's
        convention, also when a player happens to be named like a colour).
        """
        if not isinstance(assignment, Mapping):
            raise ModelError("assignment must be a dict {agent: player/'free'} or {player: agent}")
        if all(k in self.agents for k in assignment):
            partial = dict(assignment)
        elif all(k in self.players for k in assignment):
            partial = {}
            for p, cols in assignment.items():
                for c in ([cols] if isinstance(cols, str) else cols):
                    if c in partial and partial[c] != p:
                        return 0.0
                    partial[c] = p
        else:
            raise ModelError(f"assignment keys must all be agents ({', '.join(self.agents)}) or all players "
                             f"({', '.join(self.players)}), got {list(assignment)}")
        for c, who in partial.items():
            if c not in self.agents:
                raise ModelError(f"unknown agent {c!r}")
            if who not in (*self.players, FREE_LABEL, None):
                raise ModelError(f"unknown player {who!r}")
        return self._posterior.probability(partial)

    def entropy(self) -> float:
        """Entropy of the joint posterior, in bits."""
        return self._posterior.entropy()

    def most_probable(self) -> tuple[dict[str, str], float]:
        """The most probable assignment ``{agent: player or "free"}`` and its probability."""
        return self._posterior.most_probable()

    # ---------------------------------------------------------------- history
    def marginals_history(self) -> np.ndarray:
        """Array (T+1, players+1, agents): the prior, then the marginals after each step (a belief without
        update records keeps no table for its observations: they are left out)."""
        return np.stack([self._initial_marginals, *(s.marginals for s in self.history if s.marginals is not None)])

    def entropy_history(self) -> np.ndarray:
        return np.array([self._initial_entropy, *(s.entropy for s in self.history if s.entropy is not None)])

    def history_frame(self) -> pd.DataFrame:
        """Tidy table of :meth:`marginals_history`: one row per (step, player or free, agent).

        Columns: step (0 = prior), index, turn, actor, action, description, player, agent, probability.
        """
        rows = [*self.players, FREE_LABEL]
        hist = self.marginals_history()
        t, r, s = hist.shape
        meta = [(0, None, None, None, None, "prior")] + [
            (i + 1, st.index, st.turn, st.actor, str(st.action), st.description)
            for i, st in enumerate(self.history) if st.marginals is not None]   # as marginals_history
        df = pd.DataFrame({
            "step": np.repeat([m[0] for m in meta], r * s),
            "index": np.repeat(np.array([m[1] for m in meta], dtype=object), r * s),
            "turn": np.repeat(np.array([m[2] for m in meta], dtype=object), r * s),
            "actor": np.repeat(np.array([m[3] for m in meta], dtype=object), r * s),
            "action": np.repeat(np.array([m[4] for m in meta], dtype=object), r * s),
            "description": np.repeat(np.array([m[5] for m in meta], dtype=object), r * s),
            "player": np.tile(np.repeat(rows, s), t),
            "agent": np.tile(list(self.agents), t * r),
            "probability": hist.ravel(),
        })
        return df

    # ---------------------------------------------------------------- explanations
    def explain_step(self, step: BeliefStep, k: int = 1, *, actor_only: bool = True) -> list[str]:
        """Plain sentences for the ``k`` largest changes of one step (the actor's row by default)."""
        if step.update is None:
            raise ModelError("this belief keeps no update records (keep_updates=False)")
        owner = step.actor if (actor_only and step.kind == "observation") else None
        lines = explain(step.update, step.description, k, verb="controls", owner=owner)
        if step.types is not None:
            lines.append(self._type_reading(step))
        return lines

    def _type_reading(self, step: BeliefStep) -> str:
        """How the actor's type coloured the reading of a step, in words."""
        if step.actor == self.observer:
            top, p = next(iter(self.table_kinds().items()))
            return (f"{step.description}: the observer's own decision says nothing about who controls which "
                    f"agent, only what kind of table this is (players at one table tend to be alike; "
                    f"now most likely {top}, {p:.2f}).")
        top, p = next(iter(self._by_label(step.types[1]).items()))
        if top == "random" and p >= 0.5:
            why = f"this move is typical of a random player ({p:.2f}), so it says little about {step.actor}'s agent"
        else:
            why = f"read through {step.actor}'s type: most likely {top} ({p:.2f})"
        return f"{step.description}: {why}."

    def player_types(self) -> dict[str, dict[str, float]]:
        """Each other player's posterior over the model's types, grouped by label, likeliest first
        (``{"Bob": {"random": 0.71, "careful (β≈3)": 0.24, "bluffer": 0.05}, ...}``); ``{}`` for a model
        without types. ``describe_types()`` says it in words.
        """
        if not isinstance(self._posterior, TypedPosterior):
            return {}
        return {p: self._by_label(self._posterior.type_posterior(p)) for p in self.players if p != self.observer}

    def table_kinds(self) -> dict[str, float]:
        """The posterior over the model's kinds of table (``{"random players": 0.9, ...}``), likeliest first;
        ``{}`` for a model without types."""
        if not isinstance(self._posterior, TypedPosterior):
            return {}
        return group_types(self._posterior.population_names, self._posterior.population_posterior())

    def _by_label(self, probabilities) -> dict[str, float]:
        return group_types(getattr(self.model, "labels", self._posterior.type_names), probabilities)

    def describe_types(self) -> list[str]:
        """:meth:`player_types` in words, one line per player, the likeliest types first:
        ``"Bob plays like: random 0.71, careful (β≈3) 0.24, bluffer 0.05"``."""
        return [f"{p} plays like: " + ", ".join(f"{k} {v:.2f}" for k, v in t.items())
                for p, t in self.player_types().items()]

    def explanations(self, k: int = 1, *, actor_only: bool = True) -> list[str]:
        """One sentence (or ``k``) per step, oldest first."""
        return [line for st in self.history for line in self.explain_step(st, k, actor_only=actor_only)]

    def last_explanation(self, k: int = 1, *, actor_only: bool = True) -> str | None:
        """The explanation of the latest step (``None`` before any)."""
        if not self.history:
            return None
        return "\n".join(self.explain_step(self.history[-1], k, actor_only=actor_only))

    def likelihood_ratios(self, step: int | BeliefStep = -1) -> pd.DataFrame:
        """Likelihood ratios of one step (default: the latest) as a DataFrame (players + free x agents)."""
        st = self.history[step] if isinstance(step, int) else step
        if st.update is None:
            raise ModelError("this belief keeps no update records (keep_updates=False)")
        return pd.DataFrame(st.update.likelihood_ratios(), index=[*self.players, FREE_LABEL],
                            columns=list(self.agents))

    # ---------------------------------------------------------------- plots
    def plot_marginals(self, ax=None, *, title: str | None = None):
        """Heatmap of the marginals (players and "free" x agents) with the numbers printed. Returns the Axes."""
        return plot_marginals(self.marginals_array(), self.players, self.agents, ax=ax,
                              title=title or f"{self.observer or 'Spectator'}'s belief")

    def plot_history(self, player_or_agent: str, ax=None):
        """Belief over time: a player's row or an agent's column (see :func:`~.plots.plot_belief_history`)."""
        return plot_belief_history(self, player_or_agent, ax)
