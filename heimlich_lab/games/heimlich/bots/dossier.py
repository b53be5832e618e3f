"""The Secret Dossier entry a bot writes (shared by every bot).

At the dossier mark the bot writes, for the agent due, the entry of
:func:`~heimlich_lab.games.heimlich.inference.dossier.secret_dossier`: the most probable
owner (an opponent or "free") under the bot's own **exact** belief, built from
its own view only.

How the belief is built: the view holds the event log as the bot saw it. A
:class:`~heimlich_lab.games.heimlich.inference.belief.Belief` re-enacts that public history
on a shadow game (whose hidden parts are made up) and asks the model about
every decision, from the public state just before it (see
:meth:`Belief.sync`). One belief per (bot's player, game, model) is kept in a
small module-level cache and caught up incrementally, so the several entries
of one sheet cost one pass over the log. Games that started from a
:class:`~heimlich_lab.Position` do not describe their start in the views; the
bot then writes from its prior (its own card only).
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ....errors import HeimlichError
from ..inference.belief import Belief
from ..inference.dossier import sheet_marginals
from ..inference.likelihoods import default_model, model_cache_key

__all__ = ["choose_dossier_entry", "belief_for_view"]

_BELIEFS: OrderedDict = OrderedDict()  # (id of the game's event list, viewer, model key) -> (events, model, Belief)
_MAX = 64


def _game_key(view):
    log = view.log
    events = getattr(log, "_public", None)
    if events is None:
        events = getattr(log, "_raw", None)
    return events


def belief_for_view(view, model=None) -> Belief:
    """The exact belief of ``view.viewer`` after everything in ``view.log`` (cached, incremental)."""
    model = default_model() if model is None else model
    events = _game_key(view)
    mkey = model_cache_key(model)
    key = None
    if events is not None:
        key = (id(events), view.viewer, mkey if mkey is not None else ("id", id(model)))
    hit = _BELIEFS.get(key) if key is not None else None
    if hit is not None and hit[0] is events and (mkey is not None or hit[1] is model):
        belief = hit[2]
        _BELIEFS.move_to_end(key)
        try:
            return belief.sync(view)
        except HeimlichError:
            pass
    log = view.log
    if len(log) and log[0].kind == "start":
        return Belief(view.players, view.agents, view.viewer, model, tuple(view.own_agents))
    belief = Belief(view.players, view.agents, view.viewer, model, tuple(view.own_agents[:1]), keep_updates=False)
    belief.sync(view)
    if key is not None:
        _BELIEFS[key] = (events, model, belief)  # both held: their ids cannot be reused while cached
        if len(_BELIEFS) > _MAX:
            _BELIEFS.popitem(last=False)
    return belief


def choose_dossier_entry(view, legal_actions, model, rng):
    """One of ``legal_actions`` (``dossier AGENT=NAME`` / ``dossier AGENT=free`` for the agent due now).

    ``view``: the writer's own view; ``model``: the bot's player model;
    ``rng``: the bot's ``numpy.random.Generator`` (breaks exact ties). The
    entry is the most probable owner of the agent under the bot's exact
    belief (see the module doc).

    >>> from heimlich_lab import Game, Rules, play_game
    >>> from heimlich_lab.bots import BoltzmannBot
    >>> g = play_game(Rules(dossier=True), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])},
    ...               seed=2)
    >>> sheets = g.dossier_sheets
    >>> sorted(sheets["Ann"]) == sorted(c for c in g.agents if c not in g.owners["Ann"])
    True
    """
    legal = tuple(legal_actions)
    if len(legal) == 1:
        return legal[0]
    agent = legal[0].args[0]
    belief = belief_for_view(view, model)
    m, players, agents, observer, own = sheet_marginals(belief)
    names = [*players, "free"]
    j = agents.index(agent)
    options = [(a, names.index(a.args[1])) for a in legal]
    p = np.array([m[r, j] for _, r in options])
    best = np.flatnonzero(p >= p.max() - 1e-12)
    pick = best[0] if len(best) == 1 else best[int(rng.integers(len(best)))]
    return options[int(pick)][0]
