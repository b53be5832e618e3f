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

from typing import Any

from ....engine.views import Event, ViewBase, copy_data as _copy, view_label
from .actions import HIDDEN, Action
from .board import value_of

__all__ = ["Event", "EventLog", "View", "hide_private", "view_label", "visible_action", "visible_event"]

# Event fields only the event's owner sees. For a dossier entry the agent is secret too: the agents a player
# writes about are all but the player's own.
_PRIVATE_FIELDS = {"deal": ("agent",), "draw": ("card",), "take": ("agent",), "dossier": ("agent", "entry")}


def visible_event(raw: tuple, viewer_index: int | None, omniscient: bool = False) -> Event:
    """The event as the viewer sees it (secrets of others blanked)."""
    kind, private_to, data = raw
    if private_to is None or omniscient or private_to == viewer_index:
        return Event(kind, _copy(data))
    return Event(kind, hide_private(kind, data), hidden=True)


def hide_private(kind: str, data: dict) -> dict:
    """An event's data as everyone but its owner sees it: the owner's private fields are ``None``.

    >>> hide_private("draw", {"player": "Bob", "card": "ruins"})
    {'player': 'Bob', 'card': None}
    """
    private = _PRIVATE_FIELDS.get(kind, ())
    return {k: (None if k in private else v) for k, v in data.items()}


def visible_action(action: Action, actor: str, to: str | None, viewer: str | None) -> Action:
    """The logged ``action`` of ``actor`` as ``viewer`` (a player, or ``None`` for a spectator) may see it.

    The one place that says which actions hold secrets: the deal (each player
    sees only their own card, which records keep apart), a drawn card or a
    taken agent card (seen only by ``to``, who received it) and a dossier
    entry (seen only by its writer; its agent too, as it would reveal the
    writer's own).

    >>> draw = Action.parse("draw ruins")
    >>> str(visible_action(draw, "chance", "Bob", "Ann")), str(visible_action(draw, "chance", "Bob", "Bob"))
    ('draw ?', 'draw ruins')
    >>> str(visible_action(Action.parse("dossier red=Ann"), "Bob", None, None))
    'dossier ?'
    """
    k = action.kind
    if k == "deal":
        return Action("deal", (HIDDEN,))
    if k in ("draw", "take") and (viewer is None or to != viewer):
        return Action(k, (HIDDEN,))
    if k == "dossier" and actor != viewer:
        return Action("dossier", (HIDDEN, HIDDEN))
    return action


def _seen(public: tuple, own: dict, i: int) -> Event:
    """Event ``i`` from what a view holds: the blanked event, or the viewer's own private one."""
    raw = own.get(i)
    if raw is not None:
        return Event(raw[0], _copy(raw[2]))
    kind, private_to, data = public
    return Event(kind, _copy(data), hidden=private_to is not None)


class EventLog:
    """A read-only sequence of the events a viewer saw, up to the moment the view was taken.

    It holds the game's event list with other players' secrets already blanked (``Game._public_events``) and
    the viewer's own private events, never the raw events (except in the omniscient view).
    """

    __slots__ = ("_public", "_own", "_n")

    def __init__(self, public: list, own: dict, n: int):
        self._public, self._own, self._n = public, own, n

    def same_game(self, other) -> bool:
        """Whether ``other`` (another view's log) reads the events of the same game: every view of one game
        reads that game's own list, so this tells two games apart even where their logs look alike (a
        spectator sees every deal as hidden).

        >>> from heimlich_lab import Game
        >>> a, b = Game(["Ann", "Bob"], seed=1), Game(["Ann", "Bob"], seed=1)
        >>> a.view(None).log.same_game(a.view("Bob").log), a.view(None).log.same_game(b.view(None).log)
        (True, False)
        """
        return isinstance(other, EventLog) and other._public is self._public

    def __len__(self):
        return self._n

    def kinds(self, start: int = 0) -> list[str]:
        """The kinds of the events from ``start`` on (what happened, without copying what each event holds).

        >>> from heimlich_lab import Game
        >>> g = Game(["Ann", "Bob"], seed=1)
        >>> g.apply("move grey+2")
        >>> g.view("Bob").log.kinds(3)
        ['roll', 'move', 'roll']
        """
        return [e[0] for e in self._public[start:self._n]]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return _seen(self._public[i], self._own, i)

    def __iter__(self):
        public, own = self._public, self._own
        for i in range(self._n):
            yield _seen(public[i], own, i)

    def __repr__(self):
        return f"<EventLog of {self._n} events>"


class View(ViewBase):
    """What the viewer may know (see the module doc). ``viewer`` is ``None`` for a spectator.

    Attributes: ``viewer``, ``kind`` ('player', 'spectator' or 'omniscient'),
    ``label``, ``players``, ``agents``, ``rules``, ``positions`` and ``scores`` (by colour),
    ``safe``, ``phase``, ``current_player``, ``active_player``, ``turn``, ``die``, ``points``,
    ``triggers``, ``own_agents``, ``hand``, ``hand_sizes``, ``supply_size``, ``discards``,
    ``removed`` (cards out of the game), ``dossier_sheet`` (own), ``dossier_done``, ``is_over``,
    ``winners``, ``owners`` (only when the game is over, or in the omniscient view), ``log``.
    """

    __slots__ = ("agents", "_pos", "_score", "_safe", "die", "points", "_triggers", "own_agents", "hand",
                 "_hand_sizes", "supply_size", "discards", "removed", "_sheet", "dossier_done", "owners", "_log",
                 "final_owners")
    agents: tuple[str, ...]
    _pos: tuple[int, ...]
    _score: tuple[int, ...]
    _safe: int
    die: int | None
    points: int | None
    _triggers: Any
    own_agents: tuple[str, ...]
    hand: tuple[str, ...]
    _hand_sizes: tuple[int, ...]
    supply_size: int
    discards: tuple[str, ...]
    removed: tuple[str, ...]
    _sheet: dict[int, int] | None
    dossier_done: Any
    owners: dict[str, list[str]] | None
    _log: tuple[Any, ...]
    final_owners: dict[str, str | None] | None

    @classmethod
    def from_fields(cls, fields: tuple) -> View:
        """A view of the state it is given, made by the engine (:meth:`Game.view
        <heimlich_lab.rules.game.Game.view>`, which decides what the viewer may see): the values of the slots
        in their order (``__slots__``): ``_pos`` and ``_safe`` are ring indices, ``_score`` the markers by agent,
        ``_triggers`` agent indices, ``_hand_sizes`` by seat, ``_sheet`` the viewer's dossier entries (agent
        index -> player index, -1 free), ``_log`` the (public events, the viewer's own events, count) an
        :class:`EventLog` reads. One tuple, unpacked at once: a view is made on every bot decision."""
        self = object.__new__(cls)
        (self.viewer, self.kind, self.players, self.agents, self.rules, self._pos, self._score, self._safe,
         self.phase, self.current_player, self.active_player, self.turn, self.die, self.points, self._triggers,
         self.own_agents, self.hand, self._hand_sizes, self.supply_size, self.discards, self.removed, self._sheet,
         self.dossier_done, self.is_over, self.winners, self.owners, self._log, self.final_owners) = fields
        return self

    @property
    def log(self) -> EventLog:
        """The events the viewer saw, oldest first, up to the moment of the view."""
        return EventLog(*self._log)

    @property
    def safe(self) -> int:
        """The safe's building value."""
        return value_of(self._safe)

    @property
    def triggers(self) -> tuple[str, ...]:
        """Agents whose move currently creates a scoring situation."""
        return tuple(self.agents[a] for a in sorted(self._triggers))

    @property
    def hand_sizes(self) -> dict[str, int]:
        return dict(zip(self.players, self._hand_sizes))

    @property
    def dossier_sheet(self) -> dict[str, str]:
        """The viewer's own dossier entries (agent -> player or 'free')."""
        if not self._sheet:
            return {}
        return {self.agents[a]: (self.players[o] if o >= 0 else "free") for a, o in sorted(self._sheet.items())}

    def public_board(self) -> tuple:
        """The board's public facts as :class:`~heimlich_lab.games.heimlich.rules.cards.PublicBoard` keeps them:
        ``(agents, ring indices, markers, the safe's ring index, agents with a pending trigger as sorted
        indices)``, read from the view's own fields (no dicts made: read at every decision).

        >>> from heimlich_lab import Game
        >>> Game(["Ann", "Bob"], seed=1).view(None).public_board()
        (('grey', 'yellow', 'orange', 'red', 'green'), (0, 0, 0, 0, 0), (0, 0, 0, 0, 0), 7, ())
        """
        return (tuple(self.agents), tuple(self._pos), tuple(map(int, self._score)), self._safe,
                tuple(sorted(self._triggers)))

    def board_key(self) -> tuple:
        """:meth:`public_board` as the view holds it, without copying (a cache key: equal to ``public_board()``
        wherever the view's fields are already in its form, as the engine makes them; a reader that finds nothing
        under it asks ``public_board()``).

        >>> from heimlich_lab import Game
        >>> v = Game(["Ann", "Bob"], seed=1).view(None)
        >>> v.board_key() == v.public_board()
        True
        """
        return (self.agents, self._pos, self._score, self._safe, self._triggers)

    @property
    def positions(self) -> dict[str, int]:
        return {c: value_of(b) for c, b in zip(self.agents, self._pos)}

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self.agents, self._score))
