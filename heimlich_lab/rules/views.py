"""Views: what one player (or a spectator) may know.

A :class:`View` is a snapshot made by :meth:`Game.view`. It holds the public
state, the viewer's own agent card(s), hand and dossier sheet, and the event
log as the viewer saw it (other players' draws and sheets redacted). Bots and
beliefs receive views, never the game.

>>> from heimlich_lab import Game, Rules
>>> g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), seed=4)
>>> v = g.view("Ann")
>>> v.hand == tuple(g.hands["Ann"]), set(v.hand_sizes) == {"Ann", "Bob", "Cy"}
(True, True)
>>> hasattr(v, "owners") and v.owners is None     # nobody's card but her own
True
>>> any("draw" == e.kind and e.player == "Bob" and e.card is not None for e in v.log)
False
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import value_of

_PRIVATE_FIELDS = {"deal": ("agent",), "draw": ("card",), "take": ("agent",), "dossier": ("entry",)}


@dataclass(frozen=True)
class Event:
    """One thing that happened, as a viewer saw it. ``data`` fields hidden from the viewer are ``None``.

    Kinds: start, deal, dealt, roll, points, move, draw, no_draw, reshuffle, announce,
    no_round, round_start, play, pass, done, round_end, score, dossier_mark, dossier,
    dossier_done, take, safe, over.
    """

    kind: str
    data: dict
    hidden: bool = False

    @property
    def player(self) -> str | None:
        return self.data.get("player")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self.__dict__["data"].get(name)
        except KeyError:  # pragma: no cover
            raise AttributeError(name) from None


def visible_event(raw: tuple, viewer_index: int | None, omniscient: bool = False) -> Event:
    """The event as the viewer sees it (secrets of others blanked)."""
    kind, private_to, data = raw
    if private_to is None or omniscient or private_to == viewer_index:
        return Event(kind, data)
    redacted = dict(data)
    for f in _PRIVATE_FIELDS.get(kind, ()):
        redacted[f] = None
    return Event(kind, redacted, hidden=True)


class EventLog:
    """A read-only sequence of the events a viewer saw, up to the moment the view was taken."""

    __slots__ = ("_raw", "_n", "_viewer", "_omni")

    def __init__(self, raw: list, n: int, viewer: int | None, omniscient: bool):
        self._raw, self._n, self._viewer, self._omni = raw, n, viewer, omniscient

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return visible_event(self._raw[i], self._viewer, self._omni)

    def __iter__(self):
        for i in range(self._n):
            yield visible_event(self._raw[i], self._viewer, self._omni)

    def __repr__(self):
        return f"<EventLog of {self._n} events>"


class View:
    """What the viewer may know (see the module doc). ``viewer`` is ``None`` for a spectator.

    Attributes: ``viewer``, ``kind`` ('player', 'spectator' or 'omniscient'),
    ``label``, ``players``, ``agents``, ``rules``, ``positions`` and ``scores`` (by colour),
    ``safe``, ``phase``, ``current_player``, ``active_player``, ``turn``, ``die``, ``points``,
    ``triggers``, ``own_agents``, ``hand``, ``hand_sizes``, ``supply_size``, ``discards``,
    ``dossier_sheet`` (own), ``dossier_done``, ``is_over``, ``winners``, ``owners``
    (only when the game is over, or in the omniscient view), ``log``.
    """

    __slots__ = ("viewer", "kind", "players", "agents", "rules", "_pos", "_score", "safe", "phase",
                 "current_player", "active_player", "turn", "die", "points", "triggers", "own_agents", "hand",
                 "hand_sizes", "supply_size", "discards", "dossier_sheet", "dossier_done", "is_over",
                 "winners", "owners", "log", "final_owners")

    @classmethod
    def _of(cls, game, player: str | None, omniscient: bool = False) -> "View":
        v = object.__new__(cls)
        i = game._pidx[player] if player is not None else None
        v.viewer = player
        v.kind = "omniscient" if omniscient else ("spectator" if player is None else "player")
        v.players = game.players
        v.agents = game.agents
        v.rules = game.rules
        v._pos = tuple(game._pos)
        v._score = tuple(game._score)
        v.safe = value_of(game._safe)
        v.phase = game.phase
        v.current_player = game.current_player
        v.active_player = game.players[game._active]
        v.turn = game._turn
        v.die = game._die
        v.points = game._points
        v.triggers = tuple(game.agents[a] for a in sorted(game._triggers))
        v.own_agents = tuple(game.agents[a] for a in game._own[i]) if i is not None else ()
        v.hand = tuple(game._hands[i]) if i is not None else ()
        v.hand_sizes = {p: len(h) for p, h in zip(game.players, game._hands)}
        v.supply_size = len(game._supply)
        v.discards = tuple(game._discards)
        v.dossier_sheet = ({game.agents[a]: (game.players[o] if o >= 0 else "free")
                            for a, o in sorted(game._sheets[i].items())} if i is not None else {})
        v.dossier_done = game._dossier_done
        v.is_over = game._phase == "over"
        v.winners = game._winners
        v.final_owners = game.final_owners
        v.owners = game.owners if (omniscient or v.is_over) else None
        v.log = EventLog(game.events, len(game.events), i, omniscient)
        return v

    @property
    def label(self) -> str:
        """Whose view this is, in words."""
        if self.kind == "omniscient":
            return "Omniscient (all secrets shown)"
        if self.kind == "spectator":
            return "Spectator (public information only)"
        return f"{self.viewer}'s view"

    @property
    def positions(self) -> dict[str, int]:
        return {c: value_of(b) for c, b in zip(self.agents, self._pos)}

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self.agents, self._score))

    def __repr__(self):
        return f"<View: {self.label}, turn {self.turn}, {self.phase}>"
