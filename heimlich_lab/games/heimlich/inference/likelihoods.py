"""Asking a player model: its answers checked, identified and cached.

A *player model* is anything with ``agent_log_likelihoods(view, actor, action)``
returning ``log P(action | actor plays for agent a)`` for every agent of
``view.agents``, or ``None`` when the decision says nothing about agents (see
:mod:`heimlich_lab.games.heimlich.inference.belief`). Here: the kit's default model, a tiny
exact one for teaching (:class:`PushModel`), the check of a model's answer, and
the cache that lets several beliefs of one game share each answer.
"""
from __future__ import annotations

import inspect
import math
from collections import OrderedDict
from dataclasses import is_dataclass
from typing import Any

import numpy as np

from ....errors import ModelError
from ..rules.actions import DECISION_KINDS, Action
from .model import HAND_DECISIONS

__all__ = ["LIKELIHOOD_CACHE", "LikelihoodCache", "PushModel", "ask_model", "checked_likelihoods", "default_model",
           "is_typed", "model_cache_key", "model_name", "own_pool_answers"]


def default_model():
    """The kit's default player model: :func:`~heimlich_lab.games.heimlich.inference.player_types.default_population`,
    which reads every player through a population of types and learns each player's type (robust when players are not
    what a single model assumes). ``BoltzmannModel()`` is one of its types, and the model for teaching."""
    from .player_types import default_population
    return default_population()


def model_name(model) -> str:
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


def checked_likelihoods(values: Any, n_agents: int, model, actor: str, action: Action) -> np.ndarray:
    """The model's answer as a read-only float vector, or a clear :class:`ModelError`."""
    what = f"{model_name(model)}.agent_log_likelihoods(view, {actor!r}, {str(action)!r})"
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
    arr.setflags(write=False)  # shared by every observer of the decision, and cached
    return arr


def is_typed(model) -> bool:
    """Whether ``model`` reads each player through a population of types (it has
    ``type_log_likelihoods``, ``type_names`` and ``log_prior``, optionally ``log_tables``, ``table_log_prior``
    and ``table_names``, as a
    :class:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation`)."""
    return callable(getattr(model, "type_log_likelihoods", None)) and hasattr(model, "type_names")


def ask_model(model, view, actor: str, action: Action, n_agents: int) -> np.ndarray | None:
    """The model's checked log-likelihoods of one decision: (agents,) for a player model, (types, agents)
    for a typed one (:func:`is_typed`), ``None`` when the decision tells nothing."""
    if not is_typed(model):
        raw = model.agent_log_likelihoods(view, actor, action)
        return None if raw is None else checked_likelihoods(raw, n_agents, model, actor, action)
    return checked_type_rows(model, model.type_log_likelihoods(view, actor, action), actor, action, n_agents)


def checked_type_rows(model, raw, actor: str, action: Action, n_agents: int) -> np.ndarray | None:
    """A typed model's answer ``raw`` (types, agents) for one decision, checked as :func:`ask_model` checks it
    (for answers computed for many decisions at once, as
    :meth:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation.batch_type_log_likelihoods`)."""
    if raw is None:
        return None
    rows = np.asarray(raw, dtype=float)
    k = len(model.type_names)
    if rows.shape != (k, n_agents):
        raise ModelError(f"{model_name(model)}.type_log_likelihoods(view, {actor!r}, {str(action)!r}) returned "
                         f"shape {rows.shape}; expected ({k}, {n_agents}): one row per type")
    out = rows
    if not (rows <= _LOGLIK_TOL).all():   # NaN, +inf or a probability above 1 somewhere: say where
        for r in rows:
            if not np.isneginf(r).all():
                checked_likelihoods(r, n_agents, model, actor, action)
        raise ModelError(f"{model_name(model)}: {action}: a type's log-likelihoods are NaN or above 0")
    if np.isneginf(out).all(axis=1).all():   # a type may find the decision impossible, but not every type
        raise ModelError(f"{model_name(model)}: {action} is impossible for every type and agent")
    out.setflags(write=False)
    return out


def own_pool_answers(model, views: dict, actor: str, action: Action, n_agents: int) -> dict:
    """Each observer's checked answer to one decision that depends on a hand, from their own view (``views``:
    observer -> view just before it; each reads the actor's hand from their own pool): a typed model's
    ``pool_type_log_likelihoods`` (every observer at once, as a
    :class:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation` has) where it has one, else one
    :func:`ask_model` per hand."""
    pool = getattr(model, "pool_type_log_likelihoods", None)
    if callable(pool) and is_typed(model):
        raw = pool(views, actor, action)
        return {o: checked_type_rows(model, raw[o], actor, action, n_agents) for o in views}
    own, by_hand = {}, {}
    for o, v in views.items():
        hand = (tuple(sorted(v.hand)), o == actor)   # the actor's own hand is known to it
        if hand not in by_hand:
            by_hand[hand] = ask_model(model, v, actor, action, n_agents)
        own[o] = by_hand[hand]
    return own


def model_cache_key(model):
    """A hashable identity of the model's parameters, for sharing cached likelihoods (``None``: do not cache).

    A model may define ``cache_key`` (an attribute or a method); otherwise only the kit's
    BoltzmannModel and dataclass models are cached (an object's id could be reused by another model).
    """
    key = getattr(model, "cache_key", None)
    if callable(key):
        key = key()
    if key is not None:
        return key
    if (type(model).__name__ == "BoltzmannModel"
            and type(model).__module__ == "heimlich_lab.games.heimlich.inference.model"):
        return ("BoltzmannModel", model.beta, model.epsilon, model.weights)
    if is_dataclass(model):
        return (type(model).__qualname__, repr(model))
    return None


class LikelihoodCache:
    """A small LRU cache: (model key, public history hash) -> log-likelihood vector (or None)."""

    def __init__(self, size: int = 8192):
        self.size = size
        self._entries: OrderedDict = OrderedDict()

    def get(self, key):
        try:
            v = self._entries[key]
        except KeyError:
            return False, None
        self._entries.move_to_end(key)
        return True, v

    def put(self, key, value):
        self._entries[key] = value
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)


#: Shared by every belief that follows a game (:meth:`~heimlich_lab.games.heimlich.inference.belief.Belief.sync`,
#: :meth:`~heimlich_lab.games.heimlich.inference.belief.Belief.add`): several bots in one game compute each public
#: decision's likelihood once.
LIKELIHOOD_CACHE = LikelihoodCache()


def batch_answers(model, items, n_agents: int) -> dict | None:
    """The model's checked answers to every decision of ``items`` (one game's
    :class:`~heimlich_lab.games.heimlich.rules.replay.Decision` s from its start, in order): log index -> (types,
    agents) or ``None``, computed for the whole game at once (``model.batch_type_log_likelihoods``, a
    :class:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation`'s); ``None`` where the model or
    the game's decisions cannot be read that way (then each decision is asked in turn). Decisions that depend on a
    hand (Top Secret) are read as the items' views' viewer reads them (``hands=True``)."""
    return batch_answers_checked(model, items, n_agents)[0]


_FLOAT = np.dtype(float)     # (a float array's dtype is this one: compared by identity, cheaper than == float)


def batch_answers_checked(model, items, n_agents: int) -> tuple[dict | None, bool | None]:
    """:func:`batch_answers`, and whether every answer given (not ``None``) is finite everywhere, when that was
    seen while checking them (every answer a (types, agents) array, checked at once); else ``None``.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import BoltzmannBot
    >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
    >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
    >>> answers, finite = batch_answers_checked(default_model(), list(public_decisions(rec, None, None)), 6)
    >>> finite, all(v is None or bool(np.isfinite(v).all()) for v in answers.values())
    (True, True)
    """
    answers, finite, _ = batch_answers_stacked(model, items, n_agents)
    return answers, finite


def asked_decisions(items) -> list:
    """The items a model's answers are asked for: decisions seen in a view (:func:`batch_answers_stacked`'s, and
    what :func:`games_read_at_once` reads)."""
    return [it for it in items if it.action.kind in DECISION_KINDS and it.view is not None]


def games_read_at_once(model, games: list) -> list | None:
    """The model's raw answers (``batch_type_log_likelihoods``' result) to several games' decisions read together
    (``model.batch_games``: one array for the games' tables, the same numbers), each game's items as
    :func:`batch_answers_stacked` takes them; for each game the ``raw`` to hand it (``None`` where that game is
    asked by itself). ``None`` if the model reads no games together.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import BoltzmannBot
    >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
    >>> bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}
    >>> games = [list(public_decisions(play(Rules(), bots, seed=s), None, None)) for s in (4, 5)]
    >>> raw = games_read_at_once(default_model(), games)
    >>> got = batch_answers_stacked(default_model(), games[1], 6, raw=raw[1])[0]
    >>> alone = batch_answers_stacked(default_model(), games[1], 6)[0]
    >>> got.keys() == alone.keys() and all(np.array_equal(got[k], alone[k]) for k in got if got[k] is not None)
    True
    """
    together = getattr(model, "batch_games", None)
    if not callable(together) or not is_typed(model) or len(games) < 2:
        return None
    asked = [asked_decisions(items) for items in games]
    if any(it.action.kind in HAND_DECISIONS for a in asked for it in a):
        return None
    return together([[(it.view, it.actor, it.action) for it in a] for a in asked])


def batch_answers_stacked(model, items, n_agents: int, raw: list | None = None
                          ) -> tuple[dict | None, bool | None, tuple | None]:
    """:func:`batch_answers_checked`, and the answers given as one array when they were checked at once: the items
    answered (not ``None``), in order, and their answers stacked, (items, types, agents) (the same numbers as the
    answers' values); else ``None``.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import BoltzmannBot
    >>> from heimlich_lab.games.heimlich.rules.replay import public_decisions
    >>> rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
    >>> items = list(public_decisions(rec, None, None))
    >>> answers, finite, (answered, table) = batch_answers_stacked(default_model(), items, 6)
    >>> all(np.array_equal(answers[it.index], row) for it, row in zip(answered, table))
    True
    >>> len(answered) == sum(v is not None for v in answers.values()) == len(table)
    True

    ``raw``: the model's answers to these items' decisions already asked (:func:`games_read_at_once`).
    """
    batch = getattr(model, "batch_type_log_likelihoods", None)
    if not callable(batch) or not is_typed(model):
        return None, None, None
    asked = asked_decisions(items)
    decisions = [(it.view, it.actor, it.action) for it in asked]
    if raw is not None:
        if len(raw) != len(asked):
            raise ModelError(f"{len(raw)} answers given for {len(asked)} decisions")
    elif any(it.action.kind in HAND_DECISIONS for it in asked):
        if "hands" not in inspect.signature(batch).parameters:     # a model that reads no hand decision at once
            return None, None, None
        raw = batch(decisions, hands=True)
    else:
        raw = batch(decisions)
    if raw is None:
        return None, None, None
    rows = [r for r in raw if r is not None]
    shape = (len(model.type_names), n_agents)
    if rows and all(isinstance(r, np.ndarray) and r.shape == shape and r.dtype is _FLOAT for r in rows):
        # every answer checked at once (as checked_type_rows checks each); one that fails is checked by itself below
        table = np.concatenate(rows).reshape(len(rows), *shape)       # np.stack(rows), without its per-row calls
        # (every entry at most the tolerance, and no answer -inf everywhere: a NaN fails the first; with no -inf at
        # all, as usual, the second needs no pass of its own)
        finite = bool(table.min() > -np.inf)
        if table.max() <= _LOGLIK_TOL and (finite or not np.isneginf(table).all(axis=(1, 2)).any()):
            for r in rows:
                r.setflags(write=False)
            table.setflags(write=False)
            answered = [it for it, r in zip(asked, raw) if r is not None]
            return {it.index: r for it, r in zip(asked, raw)}, finite, (answered, table)
    return {it.index: checked_type_rows(model, r, it.actor, it.action, n_agents) for it, r in zip(asked, raw)}, \
        None, None


#: The answers of the last few games read at once (:func:`game_answers`): every observer of a record reads the
#: same public decisions, so the second observer's belief looks them up.
_GAME_ANSWERS: OrderedDict = OrderedDict()


def clear_game_answers() -> None:
    """Forget the remembered answers of :func:`game_answers` (for benchmarks that time them being computed)."""
    _GAME_ANSWERS.clear()


def game_answers(model, record, items, n_agents: int, until) -> dict | None:
    """:func:`batch_answers` of a record's public decisions ``items``, remembered for the next observer of the same
    record (the model's :func:`model_cache_key`, the record's setup and log as key; a model without a key is not
    remembered). The answers to decisions that depend on a hand are each observer's own (their pool of cards): the
    next observer's are asked again from its views (``items``), the rest looked up."""
    if not callable(getattr(model, "batch_type_log_likelihoods", None)):
        return None
    mkey = model_cache_key(model)
    key = None
    viewer = next((it.view.viewer for it in items if it.view is not None), None)
    if mkey is not None:
        key = (mkey, until, record.view, record.players, record.rules, record.start,
               tuple((e.actor, e.action) for e in record.log))
        hit = _GAME_ANSWERS.get(key)
        if hit is not None:
            _GAME_ANSWERS.move_to_end(key)
            answers, seen_by = hit
            if seen_by == viewer:
                return answers
            own = {it.index: ask_model(model, it.view, it.actor, it.action, n_agents) for it in items
                   if it.action.kind in HAND_DECISIONS and it.view is not None and it.index in answers}
            return {**answers, **own} if own else answers
    out = batch_answers(model, items, n_agents)
    if key is not None and out is not None:
        _GAME_ANSWERS[key] = (out, viewer)
        if len(_GAME_ANSWERS) > 8:
            _GAME_ANSWERS.popitem(last=False)
    return out
