"""Top Secret's wire codec (:mod:`heimlich_lab.engine.wire`): what crosses the pipe to a bot in its own process
(:mod:`heimlich_lab.sandbox`), and the view the worker rebuilds from it: the view's public fields and its events
as the viewer saw them (another player's contents and face-down card already ``None``).

>>> from heimlich_lab.games.topsecret1985.game import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=1)
>>> header, events, fields, n = message(g.view("Bob"))
>>> header["viewer"], n == len(events), sorted(fields) == sorted(View.FIELDS)
('Bob', True, True)
>>> follower = Follower(header)
>>> follower.extend(events, fields)
>>> follower.view() == g.view("Bob")
True
"""
from __future__ import annotations

from typing import Any

from ...engine.wire import decode, encode
from ...errors import HeimlichError, RecordError
from .actions import Action
from .map import Map
from .records import GAME
from .rules import TopSecretRules
from .views import View

__all__ = ["Follower", "game_mark", "message", "same_game"]


def message(view: View, consumed: int = 0) -> tuple[dict[str, Any] | None, list[Any], dict[str, Any], int]:
    """``(header, events, fields, consumed)`` for a player's ``view`` (see :mod:`heimlich_lab.engine.wire`)."""
    if view.kind != "player":
        raise HeimlichError(f"a bot in another process is sent a player's view, not a {view.kind}'s")
    header = None
    if consumed == 0:
        header = {"game": GAME, "viewer": view.viewer, "players": list(view.players), "rules": view.rules.to_dict(),
                  "map": None if view.map.is_default else view.map.data}
    events = [[e.kind, encode(e.data), bool(e.hidden)] for e in view.log_since(consumed)]
    fields = {f: encode(getattr(view, f)) for f in View.FIELDS}
    return header, events, fields, consumed + len(events)


def game_mark(view: View) -> Any:
    """What tells this game from another one later: its first event and its turn."""
    return (view.log_since(0)[:1] if len(view) else [], view.turn)


def same_game(view: View, mark: Any, consumed: int) -> bool:
    """Whether ``view`` is of the game whose earlier view gave ``mark``."""
    first = view.log_since(0)[:1] if len(view) else []
    return not (len(view) < consumed or view.turn < mark[1] or first != mark[0])


class Follower:
    """In the worker: a Top Secret view rebuilt from the header and the updates (see :func:`message`)."""

    def __init__(self, header: dict[str, Any]) -> None:
        if not isinstance(header, dict) or header.get("game") != GAME:
            raise RecordError("the view sent is not a Top Secret player's")
        self.viewer = header["viewer"]
        self.players = tuple(header["players"])
        if self.viewer not in self.players:
            raise RecordError(f"the view sent is for {self.viewer!r}, who does not play")
        self.rules = TopSecretRules.from_dict(header["rules"])
        self.map = Map.default() if header.get("map") is None else Map.from_data(header["map"], "the map sent")
        self.events: list[tuple[str, dict[str, Any], bool]] = []
        self.fields: dict[str, Any] | None = None

    def extend(self, entries: list[Any], fields: dict[str, Any] | None = None) -> None:
        """Take in the events sent and the view's fields now."""
        if not isinstance(entries, list) or not isinstance(fields, dict) or set(fields) != set(View.FIELDS):
            raise RecordError("an update of a Top Secret view has its events and its fields")
        for kind, data, hidden in entries:
            self.events.append((kind, decode(data), bool(hidden)))
        self.fields = {f: decode(fields[f]) for f in View.FIELDS}

    def view(self) -> View:
        """The view rebuilt: what the bot is handed."""
        if self.fields is None:
            raise RecordError("the view sent has no state yet: nothing to decide")
        return View.from_fields(self.viewer, self.players, self.rules, self.map, self.fields, list(self.events))

    @staticmethod
    def parse(text: str) -> Action:
        return Action.parse(text)
