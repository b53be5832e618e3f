"""Views: what one player (or a spectator) may know in Top Secret.

Everyone sees the map, every agent and suitcase (where it lies, who carries it), the dice, the delivered
suitcases with their contents, the secrets brought home, and every duel card once both are shown: so each
player's remaining duel cards are public too. A player knows besides only their own contents, and, in a duel
they began, the card they laid face down. :attr:`View.log` lists the events as the viewer saw them: another
player's ``contents`` and face-down ``card`` have their secret field ``None``.

>>> from heimlich_lab.games.topsecret1985 import Game
>>> g = Game(["Ann", "Bob"], seed=1)
>>> g.apply(g.legal_actions()[0])
>>> ann, bob = g.view("Ann"), g.view("Bob")
>>> first = g.start_player
>>> (g.view(first).contents is not None, g.view("Ann" if first == "Bob" else "Bob").contents)
(True, None)
>>> [e.contents for e in g.view(None).log if e.kind == "contents"]
[None]
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...engine.views import Event, ViewBase, copy_data

__all__ = ["NO_EVENTS", "SECRET_FIELDS", "View", "blanked"]

#: Event fields only the event's seers see (``None`` for everyone else).
SECRET_FIELDS = {"contents": ("contents",), "card": ("card",)}
#: A spectator's own events: none.
NO_EVENTS: Mapping[int, Any] = MappingProxyType({})


def blanked(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """An event's data as everyone but its seers sees it.

    >>> blanked("card", {"player": "Ann", "agent": "Ann#2", "card": 4, "role": "attacker"})
    {'player': 'Ann', 'agent': 'Ann#2', 'card': None, 'role': 'attacker'}
    """
    secret = SECRET_FIELDS.get(kind, ())
    return {k: (None if k in secret else v) for k, v in data.items()}


def _seen(public: list[Any], own: Mapping[int, Any], k: int) -> Event:
    raw = own.get(k)
    if raw is not None:
        return Event(raw[0], copy_data(raw[1]))
    kind, data, seers = public[k]
    return Event(kind, copy_data(data), hidden=seers is not None)


class View(ViewBase):
    """What the viewer may know (see the module doc). ``viewer`` is ``None`` for a spectator.

    Fields beyond the shared ones: ``map``, ``corners`` (player -> corner), ``edge_player`` (3 players: the one
    with the edge), ``start_player``, ``agents`` (agent -> node, ``None`` when eliminated), ``carrying`` (agent ->
    suitcase), ``suitcases`` (suitcase -> city where it lies, ``None`` when carried, delivered or not yet placed),
    ``delivered`` (player -> ((suitcase, content), ...)), ``secrets`` (player -> secrets home), ``hands`` (player
    -> duel cards left), ``played`` (player -> duel cards played since they came back), ``contents`` (the viewer's
    own letter -> content; every player's in the omniscient view; ``None`` for a spectator), ``dice``,
    ``points``, ``bonus`` (agent -> bonus moves), ``duel`` (attacker, defender, city, waiting, chosen),
    ``my_card`` (the card the viewer laid face down in the duel, else ``None``), ``end_reason``, ``log``.
    """

    __slots__ = ("map", "corners", "edge_player", "start_player", "agents", "carrying", "suitcases", "delivered",
                 "secrets", "hands", "played", "contents", "dice", "points", "bonus", "duel", "my_card",
                 "end_reason", "_log")
    REPR_NAME = "Top Secret view"
    map: Any
    corners: dict[str, str]
    edge_player: str | None
    start_player: str | None
    agents: dict[str, str | None]
    carrying: dict[str, str | None]
    suitcases: dict[str, str | None]
    delivered: dict[str, tuple[tuple[str, str], ...]]
    secrets: dict[str, int]
    hands: dict[str, tuple[int, ...]]
    played: dict[str, tuple[int, ...]]
    contents: Any
    dice: tuple[int, int] | None
    points: int
    bonus: dict[str, int]
    duel: dict[str, Any] | None
    my_card: int | None
    end_reason: str | None
    _log: tuple[Any, ...]

    @classmethod
    def build(cls, game: Any, viewer: str | None, kind: str, contents: Any, my_card: int | None,
              log: tuple[Any, ...]) -> View:
        """The view of ``game`` for ``viewer``; what it may hold (``contents``, ``my_card``, the log) is decided by
        the game (:meth:`Game._view <heimlich_lab.games.topsecret1985.game.Game._view>`)."""
        self = object.__new__(cls)
        self.viewer, self.kind, self.players, self.rules = viewer, kind, game.players, game.rules
        self.phase, self.current_player, self.active_player = game.phase, game.current_player, game.active_player
        self.turn, self.is_over, self.winners = game.turn, game.is_over, game.winners
        self.map, self.corners = game.map, dict(zip(game.players, game.corners))
        self.edge_player, self.start_player = game.edge_player, game.start_player
        self.agents, self.carrying = game.locations, game.carrying
        self.suitcases, self.delivered, self.secrets = game.suitcase_places, game.delivered, game.secrets_home
        self.hands, self.played = game.hands, game.played_cards
        self.contents, self.my_card = contents, my_card
        self.dice, self.points, self.bonus, self.duel = game.dice, game.points, game.bonus, game.duel
        self.end_reason = game.end_reason
        self._log = log
        return self

    #: The fields a bot's worker is sent and rebuilds the view from (besides the viewer, players, rules, map and log).
    FIELDS = ("phase", "current_player", "active_player", "turn", "is_over", "winners", "corners", "edge_player",
              "start_player", "agents", "carrying", "suitcases", "delivered", "secrets", "hands", "played",
              "contents", "dice", "points", "bonus", "duel", "my_card", "end_reason")

    @classmethod
    def from_fields(cls, viewer: str | None, players: tuple[str, ...], rules: Any, board: Any,
                    fields: Mapping[str, Any], events: list[tuple[str, dict[str, Any], bool]]) -> View:
        """A player's view rebuilt from its :attr:`FIELDS` and its events as the viewer saw them (``(kind, data,
        hidden)``): what a bot's worker hands the bot (:mod:`heimlich_lab.games.topsecret1985.wire`)."""
        self = object.__new__(cls)
        self.viewer, self.kind, self.players, self.rules, self.map = viewer, "player", players, rules, board
        for f in cls.FIELDS:
            setattr(self, f, fields[f])
        public: list[tuple[str, dict[str, Any], frozenset[int] | None]] = [
            (k, d, frozenset() if hidden else None) for k, d, hidden in events]
        self._log = (public, NO_EVENTS, len(public))
        return self

    @property
    def log(self) -> list[Event]:
        """The events the viewer saw, oldest first (copies)."""
        return self.log_since(0)

    def log_since(self, start: int) -> list[Event]:
        """``log[start:]``, without making the earlier events."""
        public, own, n = self._log
        return [_seen(public, own, k) for k in range(n)[start:]]

    def __len__(self) -> int:
        return int(self._log[2])

    def comparison_key(self) -> tuple[Any, ...]:
        return (self.viewer, self.kind, self.players, self.rules, self.phase, self.current_player,
                self.active_player, self.turn, self.is_over, self.winners, self.corners, self.edge_player,
                self.start_player, self.agents, self.carrying, self.suitcases, self.delivered, self.secrets,
                self.hands, self.played, self.contents, self.dice, self.points, self.bonus, self.duel, self.my_card,
                self.end_reason, [(e.kind, e.data, e.hidden) for e in self.log])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self.comparison_key() == other.comparison_key()

    __hash__ = None  # type: ignore[assignment]
