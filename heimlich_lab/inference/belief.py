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
than if Ann does not (P: 0.20 -> 0.74).

Information rule: a belief refuses a view of another player (and an
omniscient view), and never reads a dossier entry, a drawn card or a taken
agent card that its observer did not see. See ``notes`` in
:meth:`Belief.observe` for what is ignored.
"""
from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, is_dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from ..errors import HeimlichError, InformationRuleError, ModelError, RecordError
from ..rules.actions import DECISION_KINDS, HIDDEN, Action
from ..rules.board import CHURCH, DOSSIER_MARK, N_BUILDINGS, RUINS, building_name, index_of, value_of
from ..rules.game import CHANCE, Game, Position
from ..rules.records import GameRecord
from ..rules.replay import Decision, ViewReader, check_reader, public_decisions
from ..rules.views import View
from .core import (FREE_LABEL, HypothesisSpace, IndependentPosterior, Posterior, Update, explain,
                   likelihood_from_owner_values)

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
    "public_decisions",
]

_LOG2 = math.log(2.0)


# =========================================================================== models


def default_model():
    """``BoltzmannModel()`` from :mod:`heimlich_lab.inference.model` (the kit's default player model)."""
    from .model import BoltzmannModel
    return BoltzmannModel()


def _model_name(model) -> str:
    return type(model).__name__


class PushModel:
    """A tiny, exact player model (a teaching example of a user-defined model).

    At a die move of ``k`` points, each point independently goes to the
    actor's own agent with probability ``q``, otherwise to an agent chosen
    uniformly among all agents in play. Every other decision is taken to carry
    no information (``None``). A bot that plays exactly this way makes this
    model exact, which the calibration tests use.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> v = PushModel(q=0.5).agent_log_likelihoods(g.view(None), "Ann", Action.parse("move grey+2"))
    >>> np.round(np.exp(v - v.max()), 3)            # relative: grey 36 times likelier than the others
    array([1.   , 0.028, 0.028, 0.028, 0.028])
    """

    def __init__(self, q: float = 0.5):
        if not 0.0 <= q < 1.0:
            raise ModelError(f"q must be in [0, 1), got {q!r}")
        self.q = float(q)

    @property
    def cache_key(self):
        return ("PushModel", self.q)

    def agent_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        if action.kind != "move":
            return None
        agents = view.agents
        n = len(agents)
        k = np.zeros(n)
        ix = {c: i for i, c in enumerate(agents)}
        for c, s in action.args:
            k[ix[c]] = s
        other = (1.0 - self.q) / n
        # log P(allocation | own agent a), dropping the multinomial coefficient (the same for every a)
        return k.sum() * math.log(other) + k * (math.log(self.q + other) - math.log(other))

    def __repr__(self):
        return f"PushModel(q={self.q})"


_LOGLIK_TOL = 1e-9  # rounding allowance: log-likelihoods above this are probabilities > 1


def _check_values(values: Any, n_agents: int, model, actor: str, action: Action) -> np.ndarray:
    """The model's answer as a float vector, or a clear :class:`ModelError`."""
    what = f"{_model_name(model)}.agent_log_likelihoods(view, {actor!r}, {str(action)!r})"
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError) as e:
        raise ModelError(f"{what} must return real numbers or None: {e}") from None
    if raw.dtype.kind == "c":
        raise ModelError(f"{what} returned complex numbers ({raw.dtype}): log-likelihoods must be real")
    if raw.dtype.kind not in "biuf":
        raise ModelError(f"{what} must return real numbers or None, not an array of {raw.dtype} "
                         f"({type(values).__name__})")
    arr = raw.astype(float)
    if arr.shape != (n_agents,):
        raise ModelError(f"{what} returned shape {arr.shape}; expected ({n_agents},): "
                         "one log-likelihood per agent in view.agents")
    if np.isnan(arr).any():
        raise ModelError(f"{what} returned NaN at agent index {int(np.flatnonzero(np.isnan(arr))[0])}")
    if np.isposinf(arr).any():
        raise ModelError(f"{what} returned +inf at agent index {int(np.flatnonzero(np.isposinf(arr))[0])}; "
                         "a log-likelihood must be finite or -inf")
    if (arr > _LOGLIK_TOL).any():
        i = int(np.flatnonzero(arr > _LOGLIK_TOL)[0])
        raise ModelError(f"{what} returned log-likelihood {arr[i]:g} > 0 at agent index {i} (probability "
                         f"{math.exp(min(arr[i], 700.0)):g} > 1): a log-likelihood must be <= 0")
    if np.isneginf(arr).all():
        raise ModelError(f"{what} returned -inf for every agent: the decision is impossible under the model")
    return arr


def _model_key(model):
    """A hashable identity of the model's parameters, for sharing cached likelihoods (``None``: do not cache).

    A model may define ``cache_key`` (an attribute or a method); otherwise only the kit's
    BoltzmannModel and dataclass models are cached (an object's id could be reused by another model).
    """
    key = getattr(model, "cache_key", None)
    if callable(key):
        key = key()
    if key is not None:
        return key
    if type(model).__name__ == "BoltzmannModel" and type(model).__module__ == "heimlich_lab.inference.model":
        return ("BoltzmannModel", model.beta, model.epsilon, model.weights)
    if is_dataclass(model):
        return (type(model).__qualname__, repr(model))
    return None


class _LikelihoodCache:
    """A small LRU cache: (model key, public history hash) -> log-likelihood vector (or None)."""

    def __init__(self, size: int = 8192):
        self.size = size
        self._d: OrderedDict = OrderedDict()

    def get(self, key):
        try:
            v = self._d[key]
        except KeyError:
            return False, None
        self._d.move_to_end(key)
        return True, v

    def put(self, key, value):
        self._d[key] = value
        if len(self._d) > self.size:
            self._d.popitem(last=False)


#: Shared by every belief that follows a game through :meth:`Belief.sync` (several bots in one game
#: compute each public decision's likelihood once).
LIKELIHOOD_CACHE = _LikelihoodCache()


# =========================================================================== Heimlich words


def _b(v: int) -> str:
    return building_name(v)


def _move_to(frm: int, steps: int) -> int:
    return value_of((index_of(frm) + steps) % N_BUILDINGS)


def card_moves(view, action: Action) -> dict[str, tuple[int, int]]:
    """Agent colour -> (from, to) building values that a card play makes, from the view before it.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> card_moves(g.view(None), Action.parse("play ruins red"))
    {'red': (0, -3)}
    """
    if action.kind != "play":
        return {}
    pos = view.positions
    code, t = action.args[0], action.args[1:]
    new: dict[str, int] = {}
    if code in ("back12", "step1", "fwd123", "safestep"):
        new[t[0]] = _move_to(pos[t[0]], t[1])
    elif code == "twoback":
        new = {c: _move_to(pos[c], -1) for c in t}
    elif code == "twofwd":
        new = {c: _move_to(pos[c], 1) for c in t}
    elif code == "ruins":
        new[t[0]] = RUINS
    elif code == "church":
        new = {c: CHURCH for c in view.agents}
    elif code == "swap":
        new = {t[0]: pos[t[1]], t[1]: pos[t[0]]}
    elif code == "join":
        new[t[0]] = pos[t[1]]
    elif code == "rescue":
        new = {c: CHURCH for c in t}
    elif code == "tosafe":
        new[t[0]] = view.safe
    return {c: (pos[c], to) for c, to in new.items() if pos[c] != to}


def _moves_text(moves: Mapping[str, tuple[int, int]]) -> str:
    parts = [f"{c} from {_b(a)} to {_b(b)}" for c, (a, b) in moves.items()]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_action(view, actor: str, action: Action) -> str:
    """A decision in Heimlich words, from the view just before it.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], chance="manual")
    >>> g.apply("deal Ann=red Bob=green"); g.apply("roll 6")
    >>> describe_action(g.view(None), "Ann", Action.parse("move red+3 green+3"))
    'Ann moved red from church to 3 and green from church to 3'
    >>> describe_action(g.view(None), "Ann", Action.parse("move green+5 grey+1"))
    'Ann moved grey from church to 1 and green from church to 5'
    >>> describe_action(g.view(None), "Ann", Action.parse("move yellow+7"))
    'Ann moved yellow from church to 7 and made a scoring (yellow at the safe)'
    """
    k = action.kind
    if k == "take":
        return f"{actor} took a free agent card" + (f" ({action.args[0]})" if action.args[0] != HIDDEN else "")
    ts = bool(getattr(view.rules, "top_secret", False))
    scoring_word = "a scoring situation" if ts else "a scoring"
    if k == "move":
        pos, safe = view.positions, view.safe
        moves = {c: (pos[c], _move_to(pos[c], n)) for c, n in action.args}
        text = f"{actor} moved {_moves_text(moves)}"
        hit = [c for c, (_, to) in moves.items() if to == safe]
        if hit:
            text += f" and made {scoring_word} ({', '.join(hit)} at the safe)"
        return text
    if k == "safe":
        return f"{actor} moved the safe from {_b(view.safe)} to {_b(action.args[0])}"
    if k == "points":
        n = action.args[0]
        return f"{actor} chose 0 points (no move, draws a card)" if n == 0 else f"{actor} chose {n} point(s)"
    if k == "announce":
        return f"{actor} {'wants' if action.args[0] else 'does not want'} to play a Top Secret card"
    if k == "pass":
        return f"{actor} passed"
    if k == "done":
        return f"{actor} stopped playing cards"
    if k == "play":
        code, t = action.args[0], action.args[1:]
        text = f"{actor} played {code}"
        moves = card_moves(view, action)
        if code == "placesafe":
            text += f": the safe from {_b(view.safe)} to {_b(t[0])}"
        elif code == "bonus":
            text += f": {t[0]} and {t[1]} markers +3"
        elif code == "second":
            text += " (second agent)"
        elif code == "church":
            text += ": every agent to the church"
        elif moves:
            text += ": " + _moves_text(moves)
        else:
            text += " " + " ".join(map(str, t))
        hit = [c for c, (_, to) in moves.items() if to == view.safe]
        if hit:
            text += f" and made a scoring situation ({', '.join(hit)} at the safe)"
        return text
    return f"{actor}: {action}"


# =========================================================================== spaces


class _SpaceCache:
    """Precomputed lookups for fast updates on one hypothesis space."""

    __slots__ = ("space", "slot_of", "onehot", "n_rows", "n_slots")

    def __init__(self, space: HypothesisSpace):
        self.space = space
        t = space.table.astype(np.intp)
        n_o, n_s = space.n_owners, space.n_slots
        self.n_rows, self.n_slots = n_o + 1, n_s
        held = [(t == o) for o in range(n_o)]
        self.slot_of = tuple(h.argmax(axis=1) if (h.sum(axis=1) == 1).all() else None for h in held)
        code = np.where(t < 0, n_o, t)
        oh = np.zeros((len(space), (n_o + 1) * n_s))
        oh[np.arange(len(space))[:, None], code * n_s + np.arange(n_s)] = 1.0
        self.onehot = oh

    def loglik(self, actor: int, values: np.ndarray) -> np.ndarray:
        s = self.slot_of[actor]
        if s is not None:
            return values[s]
        return likelihood_from_owner_values(self.space, actor, values)

    def marginals(self, p: np.ndarray) -> np.ndarray:
        m = (p @ self.onehot).reshape(self.n_rows, self.n_slots)
        m.setflags(write=False)
        return m


@lru_cache(maxsize=64)
def _initial_cache(players: tuple, agents: tuple, observer, own: tuple) -> _SpaceCache:
    if observer is None:
        space = HypothesisSpace.assignments(players, agents)
    else:
        counts = {p: (len(own) if p == observer else 1) for p in players}
        space = HypothesisSpace.assignments(players, agents, counts, known_owned={observer: list(own)})
    return _SpaceCache(space)


@dataclass(frozen=True)
class _Ratios:
    """Deferred likelihood ratios of one observation (computed with core.Posterior when asked)."""

    space: HypothesisSpace
    log_prior: np.ndarray
    loglik: np.ndarray

    def __call__(self) -> np.ndarray:
        return Posterior(self.space, self.log_prior).update(self.loglik).log_likelihood_ratios()


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


# =========================================================================== steps


@dataclass(frozen=True, eq=False)
class BeliefStep:
    """One change of a belief: an observed decision (``kind="observation"``) or a
    second-agent take (``kind="refine"``).

    ``index`` is the log entry (or the running count of :meth:`Belief.observe`
    calls), ``marginals`` the table after the step (players + free x agents),
    ``update`` the :class:`~heimlich_lab.inference.core.Update` record (``None``
    when the belief keeps no update records).
    """

    index: int
    turn: int | None
    actor: str
    action: Action
    description: str
    kind: str
    marginals: np.ndarray = field(repr=False)
    entropy: float = 0.0
    update: Update | None = field(default=None, repr=False)


def _as_action(action) -> Action:
    try:
        return Action.parse(action)
    except HeimlichError as e:
        raise ModelError(f"not an action: {e}") from None


# =========================================================================== Belief


class Belief:
    """The exact posterior of one observer over who controls which agent.

    ``players`` and ``agents`` as in the game; ``observer`` a player name or
    ``None`` (spectator); ``model`` a player model (default
    :func:`default_model`); ``own_agents`` the observer's agent card(s)
    (required for a player). ``keep_updates=False`` keeps marginals only (no
    :class:`~heimlich_lab.inference.core.Update` records, so no explanations):
    lighter for long evaluations.

    :meth:`marginals` is ``{player or "free": {agent: probability}}``.
    Invalid input raises :class:`~heimlich_lab.errors.ModelError` and leaves
    the belief as it was.
    """

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
        self._pidx = {p: i for i, p in enumerate(players)}
        self._sc = _initial_cache(players, agents, observer, own)
        n = len(self._sc.space)
        self._logw = _frozen(np.full(n, -math.log(n)))
        self._marg = self._sc.marginals(np.full(n, 1.0 / n))
        self._entropy = math.log2(n)
        self._initial_marg, self._initial_entropy = self._marg, self._entropy
        self.history: list[BeliefStep] = []
        self._count = 0
        self._took: set[str] = set()
        self.at_mark = False  # True once a marker reached 29 (beliefs built from a game or record)
        # following a game through sync()
        self._reader: ViewReader | None = None
        self._manual = False

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
        b = cls(record.players, agents, observer, model, own, **kw)
        for d in public_decisions(record, observer, until):
            b._consume(d)
        return b

    def _consume(self, item: Decision, cache: _LikelihoodCache | None = None) -> None:
        k = item.action.kind
        if k == "take":
            agent = item.action.args[0]
            self._take(item.to, None if agent == HIDDEN else agent, index=item.index, turn=item.turn)
        elif k in DECISION_KINDS and item.actor != self.observer:
            values = self._values(item.view, item.actor, item.action, cache, item.history_key)
            if values is not None:
                self._apply(item.actor, item.action, values, describe_action(item.view, item.actor, item.action),
                            item.index, item.turn)
        if item.at_mark:
            self.at_mark = True

    def _values(self, view, actor, action, cache=None, key=None):
        mkey = _model_key(self.model) if (cache is not None and key is not None) else None
        if mkey is not None:
            hit, v = cache.get((mkey, key))
            if hit:
                return v
        raw = self.model.agent_log_likelihoods(view, actor, action)
        v = None if raw is None else _frozen(_check_values(raw, len(self.agents), self.model, actor, action))
        if mkey is not None:
            cache.put((mkey, key), v)
        return v

    # ---------------------------------------------------------------- following a live game
    def sync(self, view: View) -> Belief:
        """Catch up with a live game from ``view`` (the observer's own view): every new decision in its log.

        The public history is re-enacted on a shadow game (see
        :mod:`heimlich_lab.rules.replay`), so the model sees the public state
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
        if self._manual:
            raise ModelError("this belief is fed by observe(); sync() would count decisions twice")
        self._check_view(view, public_part=self.observer is None)
        if self._reader is None:
            self._reader = ViewReader(self.players, self.observer, self.own_agents[:1])
        snap = self._snapshot()
        try:
            for d in self._reader.read(view, public=view.viewer != self.observer):
                self._consume(d, LIKELIHOOD_CACHE)
                self._count += 1
        except BaseException:
            self._restore(snap)
            raise
        return self

    def _snapshot(self) -> tuple:
        """The belief's state, for :meth:`_restore` after a failed update (arrays are frozen, never changed
        in place; the reader rewinds by re-enacting its entries, which is deterministic)."""
        return (self._sc, self._logw, self._marg, self._entropy, len(self.history), self._count,
                frozenset(self._took), self.own_agents, self.at_mark, self._manual, self._reader,
                self._reader.mark() if self._reader is not None else None)

    def _restore(self, snap: tuple) -> None:
        (self._sc, self._logw, self._marg, self._entropy, n_hist, self._count, took, self.own_agents,
         self.at_mark, self._manual, self._reader, mark) = snap
        del self.history[n_hist:]
        self._took = set(took)
        if self._reader is not None:
            self._reader.rewind(mark)

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
        * the observer's own decisions tell the observer nothing.
        """
        self._check_view(view_before)
        act = _as_action(action)
        if actor not in self._pidx:
            raise ModelError(f"unknown actor {actor!r}: players are {', '.join(self.players)}")
        if act.kind == "take":
            agent = act.args[0]
            if agent != HIDDEN and actor != self.observer:
                raise InformationRuleError(f"{self.observer or 'a spectator'} cannot know which free agent card "
                                           f"{actor} took; observe it as 'take ?'")
            step = self._take(actor, None if agent == HIDDEN else agent, index=self._count, turn=view_before.turn)
            self._manual = True
            self._count += 1
            return step
        if act.is_chance or act.kind == "dossier":
            return None
        if view_before.current_player != actor:
            raise ModelError(f"the view shows {view_before.current_player or 'nobody'} to decide "
                             f"({view_before.phase}), not {actor}: pass the view from just before {actor}'s decision")
        step = None
        if actor != self.observer:
            # everything that may fail comes before the step is counted (_apply commits last)
            values = self._values(view_before, actor, act)
            if values is not None:
                step = self._apply(actor, act, values, describe_action(view_before, actor, act), self._count,
                                   view_before.turn)
        self._manual = True
        self._count += 1
        return step

    def _apply(self, actor: str, action: Action, values: np.ndarray, description: str, index: int,
               turn) -> BeliefStep:
        """Bayes' rule with per-agent log-likelihoods ``values`` of ``actor`` (validated)."""
        a = self._pidx[actor]
        sc = self._sc
        ll = sc.loglik(a, values)
        prior = self._logw
        joint = prior + ll
        top = joint.max()
        if not np.isfinite(top):
            raise ModelError(f"{description}: impossible under every hypothesis still possible "
                             f"({_model_name(self.model)} gives it probability 0 for every agent "
                             f"{actor} may control)")
        e = np.exp(joint - top)
        z = e.sum()
        log_ev = float(top + math.log(z))
        logw = _frozen(joint - log_ev)
        p = e / z
        marg = sc.marginals(p)
        pos = p > 0
        ent = float(-(p[pos] * logw[pos]).sum() / _LOG2)
        upd = None
        if self.keep_updates:
            upd = Update(label=description, actor=actor, log_evidence=log_ev, marginals_before=self._marg,
                         marginals_after=marg, entropy_before=self._entropy, entropy_after=ent,
                         owners=self.players, slots=self.agents, info=index, kind="observation",
                         _ratios=_Ratios(sc.space, prior, _frozen(ll)))
        step = BeliefStep(index, turn, actor, action, description, "observation", marg, ent, upd)
        self._logw, self._marg, self._entropy = logw, marg, ent
        self.history.append(step)
        return step

    def _take(self, taker: str, agent: str | None, index: int = 0, turn=None) -> BeliefStep:
        """``taker`` took a free agent card at random (``agent`` given only if the observer is the taker)."""
        if taker not in self._pidx:
            raise ModelError(f"unknown player {taker!r} takes a free agent card")
        if taker in self._took:
            raise ModelError(f"{taker} already took a second agent")
        if agent is not None and taker != self.observer:
            raise InformationRuleError(f"{self.observer or 'a spectator'} cannot know which card {taker} took")
        if agent is not None and agent not in self.agents:
            raise ModelError(f"unknown agent {agent!r}")
        post = Posterior(self._sc.space, self._logw)
        post.refine(taker, label=f"{taker} took a free agent card")
        if agent is not None:
            post.restrict({agent: taker}, label=f"{taker} took {agent}")
        upd = post.history[0]
        if len(post.history) > 1:  # the taker's own belief: fold refine and restrict into one step
            last = post.history[-1]
            upd = Update(label=f"{taker} took the free agent card {agent}", actor=taker,
                         log_evidence=upd.log_evidence + last.log_evidence,
                         marginals_before=upd.marginals_before, marginals_after=last.marginals_after,
                         entropy_before=upd.entropy_before, entropy_after=last.entropy_after,
                         owners=upd.owners, slots=upd.slots, info=index, kind="refine")
        self._sc = _SpaceCache(post.space)
        self._logw = _frozen(np.array(post.log_weights))
        self._marg = _frozen(np.array(post.marginals()))
        self._entropy = post.entropy()
        self._took.add(taker)
        if agent is not None:
            self.own_agents = self.own_agents + (agent,)
        act = Action("take", (agent or HIDDEN,))
        step = BeliefStep(index, turn, taker, act, describe_action(None, taker, act), "refine", self._marg,
                          self._entropy, upd if self.keep_updates else None)
        self.history.append(step)
        return step

    # ---------------------------------------------------------------- queries
    def __repr__(self) -> str:
        who = self.observer or "spectator"
        return (f"<Belief of {who}: {len(self.players)} players, {len(self.agents)} agents, "
                f"{len(self._sc.space)} hypotheses, {len(self.history)} updates, entropy {self._entropy:.2f} bits>")

    @property
    def space(self) -> HypothesisSpace:
        return self._sc.space

    @property
    def log_weights(self) -> np.ndarray:
        """Normalized log posterior over :attr:`space` (read-only)."""
        return self._logw

    def posterior(self) -> Posterior:
        """The current belief as a fresh :class:`~heimlich_lab.inference.core.Posterior` (for core queries)."""
        return Posterior(self._sc.space, self._logw)

    def marginals(self) -> dict[str, dict[str, float]]:
        """``{player or "free": {agent: P(player controls agent)}}``; each agent's column sums to 1."""
        rows = [*self.players, FREE_LABEL]
        return {r: {a: float(self._marg[i, j]) for j, a in enumerate(self.agents)} for i, r in enumerate(rows)}

    def marginals_array(self) -> np.ndarray:
        """Array (players + 1, agents): rows in :attr:`players` order, then "free"."""
        return self._marg.copy()

    def marginals_table(self) -> pd.DataFrame:
        """:meth:`marginals_array` as a DataFrame (index players + "free", columns agents)."""
        return pd.DataFrame(self._marg, index=[*self.players, FREE_LABEL], columns=list(self.agents))

    def probability(self, assignment: Mapping[str, Any]) -> float:
        """P(all of ``assignment``): ``{agent: player or "free"}`` or ``{player: agent(s)}``.

        Keys that are all agents are read agent -> owner (the core's
        convention, also when a player happens to be named like a colour).
        """
        if not isinstance(assignment, Mapping):
            raise ModelError("assignment must be a dict {agent: player/'free'} or {player: agent}")
        if all(k in self.agents for k in assignment):
            partial = dict(assignment)
        elif all(k in self._pidx for k in assignment):
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
        m = self._sc.space.matching(partial)
        return float(np.exp(self._logw[m]).sum())

    def entropy(self) -> float:
        """Entropy of the joint posterior, in bits."""
        return self._entropy

    def most_probable(self) -> tuple[dict[str, str], float]:
        """The most probable assignment ``{agent: player or "free"}`` and its probability."""
        h = int(np.argmax(self._logw))
        return self._sc.space.hypothesis(h), float(np.exp(self._logw[h]))

    # ---------------------------------------------------------------- history
    def marginals_history(self) -> np.ndarray:
        """Array (T+1, players+1, agents): the prior, then the marginals after each step."""
        return np.stack([self._initial_marg, *(s.marginals for s in self.history)])

    def entropy_history(self) -> np.ndarray:
        return np.array([self._initial_entropy, *(s.entropy for s in self.history)])

    def history_frame(self) -> pd.DataFrame:
        """Tidy table of :meth:`marginals_history`: one row per (step, player or free, agent).

        Columns: step (0 = prior), index, turn, actor, action, description, player, agent, probability.
        """
        rows = [*self.players, FREE_LABEL]
        hist = self.marginals_history()
        t, r, s = hist.shape
        meta = [(0, None, None, None, None, "prior")] + [
            (i + 1, st.index, st.turn, st.actor, str(st.action), st.description) for i, st in enumerate(self.history)]
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
        return explain(step.update, step.description, k, verb="controls", owner=owner)

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
        """Belief over time: a player's row (one line per agent) or an agent's column (one line per
        player and free). A name that is both a player and an agent is read as the player. Returns the Axes."""
        import matplotlib.pyplot as plt
        hist = self.marginals_history()
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 3.5))
        x = np.arange(hist.shape[0])
        rows = [*self.players, FREE_LABEL]
        if player_or_agent in self._pidx or player_or_agent == FREE_LABEL:
            r = rows.index(player_or_agent)
            for j, a in enumerate(self.agents):
                ax.plot(x, hist[:, r, j], label=a, color=_COLOUR_HEX.get(a))
            ax.set_title(f"P({player_or_agent} controls ...), {self.observer or 'spectator'}'s belief")
        elif player_or_agent in self.agents:
            j = self.agents.index(player_or_agent)
            for r, p in enumerate(rows):
                ax.plot(x, hist[:, r, j], label=p, linestyle="--" if p == FREE_LABEL else "-")
            ax.set_title(f"P(... controls {player_or_agent}), {self.observer or 'spectator'}'s belief")
        else:
            raise ModelError(f"{player_or_agent!r} is neither a player ({', '.join(self.players)}), 'free', "
                             f"nor an agent ({', '.join(self.agents)})")
        ax.set_xlabel("update")
        ax.set_ylabel("probability")
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize="small", ncol=2)
        return ax


_COLOUR_HEX = {"grey": "#808080", "yellow": "#d4b000", "orange": "#ff8c00", "red": "#d62728",
               "green": "#2ca02c", "blue": "#1f77b4", "violet": "#8a2be2"}


def plot_marginals(marginals: np.ndarray, players, agents, ax=None, title: str | None = None):
    """Heatmap of a (players + free) x agents table with the probabilities printed. Returns the Axes."""
    import matplotlib.pyplot as plt
    m = np.asarray(marginals, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(1 + 0.8 * len(agents), 0.9 + 0.5 * (len(players) + 1)))
    ax.imshow(m, vmin=0, vmax=1, cmap="Blues", aspect="auto")
    rows = [*players, FREE_LABEL]
    ax.set_xticks(range(len(agents)), list(agents))
    ax.set_yticks(range(len(rows)), rows)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center",
                    color="white" if m[i, j] > 0.6 else "black", fontsize="small")
    if title:
        ax.set_title(title)
    return ax


# =========================================================================== baselines


def _baseline_seat(players, agents, observer, own_agents) -> tuple[tuple, tuple, tuple]:
    """The teaching baselines' arguments, checked: players and agents as tuples, the observer's own agents."""
    players, agents = tuple(players), tuple(agents)
    own = (own_agents,) if isinstance(own_agents, str) else tuple(own_agents or ())
    if observer is not None and observer not in players:
        raise ModelError(f"unknown observer {observer!r}: players are {', '.join(players)}")
    return players, agents, own


class IndependentBelief:
    """Baseline: :class:`~heimlich_lab.inference.core.IndependentPosterior` fed with the same model
    likelihoods. Each player's "which agent is mine?" is updated on its own, ignoring that two
    players cannot control the same agent. A second-agent take is ignored (one agent per player).

    :meth:`marginals` has the shape of :meth:`Belief.marginals`; its columns need not sum to 1
    (``normalize=True`` rescales them).
    """

    def __init__(self, players, agents, observer: str | None = None, model=None, own_agents=None):
        players, agents, own = _baseline_seat(players, agents, observer, own_agents)
        if observer is not None and len(own) != 1:
            raise ModelError(f"{observer}'s own agent card is needed: pass own_agents=")
        self.players, self.agents, self.observer, self.own_agents = players, agents, observer, own
        self.model = default_model() if model is None else model
        self._foil = IndependentPosterior(players, agents, known_owned={observer: own[0]} if observer else None)
        self._initial = self._foil.marginals()

    @classmethod
    def from_record(cls, record: GameRecord, observer: str | None = None, model=None, until=None):
        """Like :meth:`Belief.from_record`."""
        own = (record.deal[observer],) if observer is not None and record.deal else None
        b = cls(record.players, record.rules.agents_for(len(record.players)), observer, model, own)
        for item in public_decisions(record, observer, until):
            if item.action.kind in DECISION_KINDS and item.actor != observer:
                raw = b.model.agent_log_likelihoods(item.view, item.actor, item.action)
                if raw is not None:
                    b._apply(item.actor, _check_values(raw, len(b.agents), b.model, item.actor, item.action),
                             describe_action(item.view, item.actor, item.action))
        return b

    def _apply(self, actor: str, values: np.ndarray, description: str = "") -> None:
        if actor != self.observer:
            self._foil.update(actor, values, label=description)

    def _take(self, taker, agent) -> None:
        pass

    def marginals_array(self, normalize: bool = False) -> np.ndarray:
        return self._foil.marginals(normalize=normalize)

    def marginals(self, normalize: bool = False) -> dict[str, dict[str, float]]:
        return _as_dict(self.marginals_array(normalize), self.players, self.agents)

    def initial_marginals_array(self) -> np.ndarray:
        return self._initial.copy()

    def entropy(self) -> float:
        return self._foil.entropy()


class PointsShareBelief:
    """Baseline heuristic: "a player controls the agents they push".

    Each player's row is the share of die-movement points they gave each
    agent, plus ``alpha`` pseudo-points per agent (so an agent never pushed
    keeps some probability), normalized to a distribution over the agents they
    may control. The observer's own knowledge is applied: their own row is
    certain, and nobody else controls their agents. The free row is
    ``prod(1 - p)`` over players (0 when there are no free agents). Card moves
    and second-agent takes are ignored.

    >>> pb = PointsShareBelief(["Ann", "Bob"], ["grey", "yellow", "orange"], observer="Ann", own_agents="grey")
    >>> pb._push("Bob", Action.parse("move yellow+3 orange+1"))
    >>> {c: round(p, 2) for c, p in pb.marginals()["Bob"].items()}
    {'grey': 0.0, 'yellow': 0.67, 'orange': 0.33}
    """

    def __init__(self, players, agents, observer: str | None = None, own_agents=None, alpha: float = 1.0):
        players, agents, own = _baseline_seat(players, agents, observer, own_agents)
        if alpha < 0:
            raise ModelError("alpha must be >= 0")
        self.players, self.agents, self.observer, self.own_agents = players, agents, observer, own
        self.alpha = float(alpha)
        self._aix = {c: i for i, c in enumerate(agents)}
        self.points = np.zeros((len(players), len(agents)))

    @classmethod
    def from_record(cls, record: GameRecord, observer: str | None = None, until=None, alpha: float = 1.0):
        own = (record.deal[observer],) if observer is not None and record.deal else None
        b = cls(record.players, record.rules.agents_for(len(record.players)), observer, own, alpha)
        for item in public_decisions(record, observer, until):
            b._push(item.actor, item.action)
        return b

    def _push(self, actor: str, action: Action) -> None:
        if action.kind == "move" and actor in self.players:
            i = self.players.index(actor)
            for c, n in action.args:
                self.points[i, self._aix[c]] += n

    def _take(self, taker, agent) -> None:
        pass

    def marginals_array(self, normalize: bool = False) -> np.ndarray:
        n_p, n_a = self.points.shape
        allowed = np.ones((n_p, n_a), dtype=bool)
        own_ix = [self._aix[c] for c in self.own_agents]
        if self.observer is not None:
            o = self.players.index(self.observer)
            allowed[:, own_ix] = False
            allowed[o, :] = False
            allowed[o, own_ix] = True
        w = np.where(allowed, self.points + self.alpha, 0.0)
        w = np.where(allowed & (w.sum(axis=1, keepdims=True) == 0), 1.0, w)
        rows = w / w.sum(axis=1, keepdims=True)
        if self.observer is not None:
            rows[o] = 0.0
            rows[o, own_ix] = 1.0
        free = np.prod(1.0 - rows, axis=0) if n_a > n_p else np.zeros(n_a)
        m = np.vstack([rows, free])
        if normalize:
            m = m / m.sum(axis=0, keepdims=True)
        return m

    def marginals(self, normalize: bool = False) -> dict[str, dict[str, float]]:
        return _as_dict(self.marginals_array(normalize), self.players, self.agents)


def _as_dict(m: np.ndarray, players, agents) -> dict[str, dict[str, float]]:
    rows = [*players, FREE_LABEL]
    return {r: {a: float(m[i, j]) for j, a in enumerate(agents)} for i, r in enumerate(rows)}


# =========================================================================== several observers


class BeliefSet:
    """The beliefs of several observers of one game, sharing each decision's likelihood.

    The model is asked once per decision, with the spectator view (public
    information only), and every observer's exact posterior is updated with
    the same per-agent values; each observer's private knowledge (own card,
    the agent they took) goes only into their own belief. ``baselines=True``
    also keeps an :class:`IndependentBelief` and a :class:`PointsShareBelief`
    per observer (:attr:`independent`, :attr:`points_share`).

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=3)
    >>> bs = BeliefSet.from_record(rec, model=PushModel(0.5), until="dossier")
    >>> sorted(bs.beliefs), bs.at_mark
    (['Ann', 'Bob', 'Cy'], True)
    >>> b = Belief.from_record(rec, "Bob", model=PushModel(0.5), until="dossier")
    >>> bool(np.allclose(bs["Bob"].marginals_array(), b.marginals_array()))
    True
    """

    def __init__(self, players, agents, observers: Mapping[str | None, Iterable[str]], model=None, *,
                 baselines: bool = False, keep_updates: bool = True, alpha: float = 1.0):
        self.players, self.agents = tuple(players), tuple(agents)
        self.model = default_model() if model is None else model
        self.beliefs: dict[str | None, Belief] = {}
        self.independent: dict[str | None, IndependentBelief] = {}
        self.points_share: dict[str | None, PointsShareBelief] = {}
        for obs, own in observers.items():
            own = tuple([own] if isinstance(own, str) else (own or ()))
            self.beliefs[obs] = Belief(self.players, self.agents, obs, self.model, own, keep_updates=keep_updates)
            if baselines:
                self.independent[obs] = IndependentBelief(self.players, self.agents, obs, self.model, own or None)
                self.points_share[obs] = PointsShareBelief(self.players, self.agents, obs, own or None, alpha)
        self.at_mark = False
        #: player -> agents to score against: the final owners of a finished game, else the owners at the stop
        self.truth: dict[str, list[str]] | None = None
        self.truth_at_stop: dict[str, list[str]] | None = None  # owners when the replay stopped
        self.final_owners: dict[str, str | None] | None = None  # agent -> final owner (finished games only)
        self.index = 0

    def __getitem__(self, observer) -> Belief:
        return self.beliefs[observer]

    def __repr__(self):
        who = ", ".join(o or "spectator" for o in self.beliefs)
        return f"<BeliefSet of {who}: {self.index} log entries>"

    @classmethod
    def from_record(cls, record: GameRecord, observers="all", model=None, until=None, *, spectator: bool = False,
                    baselines: bool = False, keep_updates: bool = True, alpha: float = 1.0) -> BeliefSet:
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
        bs = cls(record.players, agents, {o: (own_of[o] if o is not None else ()) for o in obs}, model,
                 baselines=baselines, keep_updates=keep_updates, alpha=alpha)
        stop = None
        for item in public_decisions(record, None, until):
            bs._consume(item, record)
            bs.index = item.index + 1
            if item.at_mark:
                bs.at_mark = True
            stop = item
        if stop is not None:
            game = record.replay(until=stop.index + 1)
            bs.truth_at_stop = game.owners
            final = (record.result or {}).get("final_owners")
            if final is not None:
                bs.final_owners = dict(final)
                bs.truth = {p: [c for c in agents if final.get(c) == p] for p in record.players}
            else:
                bs.truth = game.owners
        return bs

    def _consume(self, item: Decision, record: GameRecord) -> None:
        """One log entry for every observer, all or nothing: the model's answer is validated before any
        belief changes, and if one observer's update fails (an impossible observation, a second take)
        every belief and baseline is restored to its state before the entry."""
        k = item.action.kind
        if k == "take":
            agent = record.log[item.index].action.args[0]  # the full record: given only to the taker
            with self._all_or_nothing():
                for o, b in self.beliefs.items():
                    b._take(item.to, agent if o == item.to else None, index=item.index, turn=item.turn)
            return
        if k not in DECISION_KINDS:
            return
        raw = self.model.agent_log_likelihoods(item.view, item.actor, item.action)  # spectator view
        values = None if raw is None else _frozen(_check_values(raw, len(self.agents), self.model, item.actor,
                                                                item.action))
        with self._all_or_nothing():
            for pb in self.points_share.values():
                pb._push(item.actor, item.action)
            if values is None:
                return
            desc = describe_action(item.view, item.actor, item.action)
            for o, b in self.beliefs.items():
                if o != item.actor:
                    b._apply(item.actor, item.action, values, desc, item.index, item.turn)
            for o, ib in self.independent.items():
                ib._apply(item.actor, values, desc)

    @contextmanager
    def _all_or_nothing(self):
        # the arrays of beliefs and foils are replaced on update, never changed in place: shallow copies do
        snaps = {o: b._snapshot() for o, b in self.beliefs.items()}
        foils = {o: (dict(vars(ib._foil)), len(ib._foil.history)) for o, ib in self.independent.items()}
        points = {o: pb.points.copy() for o, pb in self.points_share.items()}
        try:
            yield
        except BaseException:
            for o, b in self.beliefs.items():
                b._restore(snaps[o])
            for o, (state, n) in foils.items():
                foil = self.independent[o]._foil
                hist = foil.history
                vars(foil).clear()
                vars(foil).update(state)
                del hist[n:]
            for o, pts in points.items():
                self.points_share[o].points = pts
            raise
