"""Secrets' wire codec (:mod:`heimlich_lab.engine.wire`): what crosses the pipe to a bot in its own process
(:mod:`heimlich_lab.sandbox`), and the view the worker rebuilds from it.

Secrets has no shadow game that re-enacts a player's record (its records are not replayed without their
secrets), so its views cross the pipe as what they are: the public fields and the events as the viewer saw
them (other players' secret fields already ``None``). Tuples and dicts with other keys than text are tagged
(:func:`~heimlich_lab.engine.wire.encode`), so that the rebuilt view equals the real one.

>>> from heimlich_lab.games.secrets.game import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=1)
>>> header, events, fields, n = message(g.view("Bob"))
>>> header["viewer"], n == len(events), sorted(fields) == sorted(FIELDS)
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
from .records import GAME
from .rules import SecretsRules
from .views import View

__all__ = ["FIELDS", "Follower", "game_mark", "message", "same_game"]

#: The public fields of a Secrets view that change during a game (the viewer, players, slots and rules do not).
FIELDS = ("phase", "current_player", "active_player", "turn", "candidates", "offer", "tableaux",
          "bullet_counts", "un_player", "deck_size", "marker_counts", "end_size", "is_over", "winners", "scores")


# =========================================================================== parent side


def message(view: View, consumed: int = 0) -> tuple[dict | None, list, dict, int]:
    """``(header, events, fields, consumed)`` for a player's ``view``: the header (once per game: the viewer,
    players, slots, rules), the events from ``consumed`` on as the viewer saw them, the changing public fields,
    and how many events that covers."""
    if view.kind != "player":
        raise HeimlichError(f"a bot in another process is sent a player's view, not a {view.kind}'s")
    header = None
    if consumed == 0:
        header = {"game": GAME, "viewer": view.viewer, "players": list(view.players),
                  "slots": list(view.slots), "rules": view.rules.to_dict()}
    events = [[e.kind, encode(e.data), bool(e.hidden)] for e in view.log_since(consumed)]
    fields = {f: encode(getattr(view, f)) for f in FIELDS}
    return header, events, fields, consumed + len(events)


def game_mark(view: View) -> Any:
    """What tells this game from another one later: its first event and its turn."""
    return (view.log_since(0)[:1] if len(view) else [], view.turn)


def same_game(view: View, mark: Any, consumed: int) -> bool:
    """Whether ``view`` is of the game whose earlier view gave ``mark`` (not a shorter log, an earlier turn or
    another beginning)."""
    first = view.log_since(0)[:1] if len(view) else []
    return not (len(view) < consumed or view.turn < mark[1] or first != mark[0])


# =========================================================================== worker side


class Follower:
    """In the worker: a Secrets view rebuilt from the header and the updates (see :func:`message`)."""

    def __init__(self, header: dict):
        if not isinstance(header, dict) or header.get("game") != GAME:
            raise RecordError("the view sent is not a Secrets player's")
        self.viewer = header["viewer"]
        self.players, self.slots = tuple(header["players"]), tuple(header["slots"])
        if self.viewer not in self.players:
            raise RecordError(f"the view sent is for {self.viewer!r}, who does not play")
        self.rules = SecretsRules.from_dict(header["rules"])
        self.events: list[tuple] = []
        self.fields: dict | None = None

    def extend(self, entries: list, fields: dict | None = None) -> None:
        """Take in the events sent and the view's fields now."""
        if not isinstance(entries, list) or not isinstance(fields, dict) or set(fields) != set(FIELDS):
            raise RecordError("an update of a Secrets view has its events and its fields")
        for kind, data, hidden in entries:
            # a hidden event has no seer in the worker: the view blanks its secret fields (they already are None)
            self.events.append((kind, decode(data), () if hidden else None))
        self.fields = {f: decode(fields[f]) for f in FIELDS}

    def view(self) -> View:
        """The view rebuilt: what the bot is handed."""
        if self.fields is None:
            raise RecordError("the view sent has no state yet: nothing to decide")
        # The engine's own constructor, given only what this player saw: the events are already as they saw them.
        return View.from_fields((self.viewer, "player", self.players, self.slots, self.rules,
                                 *(self.fields[f] for f in FIELDS),
                                 list(self.events), len(self.events), self.players.index(self.viewer), False))

    @staticmethod
    def parse(text: str) -> Action:
        return Action.parse(text)
