"""Heimlich & Co.'s wire codec (:mod:`heimlich_lab.engine.wire`): what crosses the pipe to a bot in its own
process (:mod:`heimlich_lab.sandbox`), a player's view as JSON in the player's record format, and back, a view
rebuilt from it.

The parent process turns the view a bot is handed into the *player record* of the game so far
(``record.as_player(name)``, ``docs/record-format.md``): the rules, the players, the viewer's own deal,
and the log as the viewer saw it (``"draw ?"`` for another player's card). It sends the record's header
once per game and then only the log entries that are new since the last decision. The worker process
re-enacts that record on a shadow game (:class:`~heimlich_lab.games.heimlich.rules.replay.ShadowGame`
invents the other players' secrets) and hands the bot the shadow's view: every public field and the viewer's
own secrets are the real game's; nothing else in the worker comes from the real game, so nothing else can leak.

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=3)
>>> header, entries, fields, n = message(g.view("Bob"))
>>> header["view"], header["deal"] == {"Bob": g.owners["Bob"][0]}, entries, fields
('player:Bob', True, [['chance', 'deal ?'], ['chance', 'roll 3']], None)
>>> follower = Follower(header)
>>> follower.extend(entries)
>>> v = follower.view()
>>> (v.positions, v.own_agents, v.current_player) == (g.view("Bob").positions, tuple(g.owners["Bob"]), "Ann")
True
"""
from __future__ import annotations

from typing import Any

from ...errors import HeimlichError, RecordError
from .rules.actions import CHANCE_KINDS, Action
from .rules.game import CHANCE
from .rules.records import FORMAT, VERSION, GameRecord
from .rules.replay import ShadowGame, entries_from_log
from .rules.views import View, visible_action

__all__ = ["Follower", "game_mark", "message", "same_game"]


# =========================================================================== parent side


def message(view: View, consumed: int = 0) -> tuple[dict | None, list[list], None, int]:
    """``(header, entries, None, consumed)`` for a player's ``view``: the player record's header (``None``
    unless ``consumed == 0``: it is sent once per game), the log entries from event ``consumed`` on, in the
    record's format (``[actor, action]`` or ``[actor, action, receiver]``), no fields (the entries rebuild the
    view), and how many of the view's events they cover."""
    if view.kind != "player":
        raise HeimlichError(f"a bot in another process is sent a player's view, not {view.label}")
    log = view.log
    if len(log) and log[0].kind == "start":
        raise HeimlichError("a bot in another process plays games from the deal; this game started from a "
                            "position (its views do not describe it)")
    raw, n = entries_from_log(log, consumed)
    entries, own = [], None
    for actor, action, to in raw:
        if action.kind == "deal":
            own = next((c for p, c in to if p == view.viewer), None)
            to = None
        entries.append([actor, str(action)] + ([to] if to is not None else []))
    header = None
    if consumed == 0:
        header = {"format": FORMAT, "version": VERSION, "view": f"player:{view.viewer}",
                  "players": list(view.players), "rules": view.rules.to_dict(), "seed": None, "chance": "auto",
                  "start": None, "deal": {view.viewer: own} if own is not None else None, "log": [],
                  "result": None}
    return header, entries, None, consumed + n


def game_mark(view: View) -> Any:
    """What tells this game from another one later: its log."""
    return view.log


def same_game(view: View, mark: Any, consumed: int) -> bool:
    """Whether ``view`` is of the game whose log was ``mark``."""
    return bool(view.log.same_game(mark))


# =========================================================================== worker side


class Follower:
    """In the worker: a player record's header, then its log entries as they come, re-enacted on a shadow
    game whose views a bot reads. The header is checked as a player record (it holds no other player's
    secret and no seed)."""

    def __init__(self, header: dict):
        rec = GameRecord.from_dict(header, source="the view sent", check=True)
        if not rec.view.startswith("player:"):
            raise RecordError(f"the view sent is a {rec.view} record, not a player's")
        self.viewer = rec.view[len("player:"):]
        self.players, self.rules = rec.players, rec.rules
        self.own = (rec.deal[self.viewer],) if rec.deal else ()
        self.shadow: ShadowGame | None = None
        self.count = 0
        self.extend([e.to_list() for e in rec.log])

    def extend(self, entries: list, fields: dict | None = None) -> None:
        """Re-enact the log entries sent (``fields`` is not used: the entries say everything)."""
        for entry in entries:
            if not (isinstance(entry, list) and len(entry) in (2, 3) and all(isinstance(x, str) for x in entry)):
                raise RecordError(f"log entry {self.count} must be [actor, action] or [actor, action, receiver], "
                                  f"not {entry!r}"[:300])
            actor, action = entry[0], Action.parse(entry[1])
            to = entry[2] if len(entry) == 3 else None
            if visible_action(action, actor, to, self.viewer) != action:
                raise RecordError(f"log entry {self.count} ({actor}: {action}) is a secret the player does not hold")
            if action.kind == "deal":
                to = None
                if not self.own:
                    raise RecordError("the view sent deals the game but not the player's own agent card")
            if self.shadow is None:
                self.shadow = ShadowGame(self.players, self.rules, self.viewer, self.own)
            if (actor == CHANCE) != (action.kind in CHANCE_KINDS) or (actor != CHANCE and actor not in self.players):
                raise RecordError(f"log entry {self.count}: {actor!r} cannot {action.kind}"[:300])
            self.shadow.apply(self.count, actor, action, to)
            self.count += 1

    def view(self) -> View:
        """The shadow game's view for the player: what the bot is handed."""
        if self.shadow is None:
            raise RecordError("the view sent has no log yet: nothing to decide")
        return self.shadow.game.view(self.viewer)

    @staticmethod
    def parse(text: str) -> Action:
        return Action.parse(text)
