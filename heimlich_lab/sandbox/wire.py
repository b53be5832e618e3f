"""What crosses the pipe to a bot in its own process (:mod:`heimlich_lab.sandbox`): a player's view as
JSON in the player's record format, and back, a view rebuilt from it. (Secrets, at the end of this module,
sends the view's own fields and events instead.)

The parent process turns the view a bot is handed into the *player record* of the game so far
(``record.as_player(name)``, ``docs/record-format.md``): the rules, the players, the viewer's own deal,
and the log as the viewer saw it (``"draw ?"`` for another player's card). It sends the record's header
once per game and then only the log entries that are new since the last decision. The worker process
re-enacts that record on a shadow game (:class:`heimlich_lab.rules.replay` invents the other players'
secrets) and hands the bot the shadow's view: every public field and the viewer's own secrets are
the real game's; nothing else in the worker comes from the real game, so nothing else can leak.

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=3)
>>> header, entries, n = heimlich_message(g.view("Bob"))
>>> header["view"], header["deal"] == {"Bob": g.owners["Bob"][0]}, entries
('player:Bob', True, [['chance', 'deal ?'], ['chance', 'roll 3']])
>>> follower = HeimlichFollower(header)
>>> follower.extend(entries)
>>> v = follower.view()
>>> (v.positions, v.own_agents, v.current_player) == (g.view("Bob").positions, tuple(g.owners["Bob"]), "Ann")
True
"""
from __future__ import annotations

from ..errors import HeimlichError, RecordError
from ..rules.actions import CHANCE_KINDS, Action
from ..rules.game import CHANCE
from ..rules.records import FORMAT, VERSION, GameRecord
from ..rules.replay import _entries_from_log, _Shadow
from ..rules.views import visible_action

#: The games whose views can be sent to a bot in another process.
GAMES = ("heimlich", "secrets")


# =========================================================================== parent side


def heimlich_message(view, consumed: int = 0) -> tuple[dict | None, list[list], int]:
    """``(header, entries, consumed)`` for a Heimlich & Co. player's ``view``: the player record's header
    (``None`` unless ``consumed == 0``: it is sent once per game), the log entries from event ``consumed`` on,
    in the record's format (``[actor, action]`` or ``[actor, action, receiver]``), and how many of the view's
    events they cover."""
    if view.kind != "player":
        raise HeimlichError(f"a bot in another process is sent a player's view, not {view.label}")
    log = view.log
    if len(log) and log[0].kind == "start":
        raise HeimlichError("a bot in another process plays games from the deal; this game started from a "
                            "position (its views do not describe it)")
    raw, n = _entries_from_log(log, consumed)
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
    return header, entries, consumed + n


# =========================================================================== worker side


class HeimlichFollower:
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
        self.shadow = None
        self.count = 0
        self.extend([e.to_list() for e in rec.log])

    def extend(self, entries: list) -> None:
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
                self.shadow = _Shadow(self.players, self.rules, self.viewer, self.own)
            if (actor == CHANCE) != (action.kind in CHANCE_KINDS) or (actor != CHANCE and actor not in self.players):
                raise RecordError(f"log entry {self.count}: {actor!r} cannot {action.kind}"[:300])
            self.shadow.apply(self.count, actor, action, to)
            self.count += 1

    def view(self):
        if self.shadow is None:
            raise RecordError("the view sent has no log yet: nothing to decide")
        return self.shadow.game.view(self.viewer)

    @staticmethod
    def parse(text: str) -> Action:
        return Action.parse(text)


# =========================================================================== Secrets
#
# Secrets has no shadow game that re-enacts a player's record (its records are not replayed without their
# secrets), so its views cross the pipe as what they are: the public fields and the events as the viewer saw
# them (other players' secret fields already None). Tuples and dicts with other keys than text are tagged, so
# that the rebuilt view equals the real one.

#: The public fields of a Secrets view that change during a game (the viewer, players, slots and rules do not).
SECRETS_FIELDS = ("phase", "current_player", "active_player", "turn", "candidates", "offer", "tableaux",
                  "bullet_counts", "un_player", "deck_size", "marker_counts", "end_size", "is_over", "winners",
                  "scores")


def encode(x):
    """``x`` as JSON-able data that :func:`decode` turns back into an equal value (tuples stay tuples).

    >>> decode(encode({"a": (1, [2, None]), 3: True})) == {"a": (1, [2, None]), 3: True}
    True
    """
    if isinstance(x, tuple):
        return {"__tuple__": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        if all(isinstance(k, str) and not k.startswith("__") for k in x):
            return {k: encode(v) for k, v in x.items()}
        return {"__dict__": [[encode(k), encode(v)] for k, v in x.items()]}
    if x is None or isinstance(x, (str, bool, int, float)):
        return x
    raise HeimlichError(f"a view holds {type(x).__name__}, which cannot be sent to a bot in another process")


def decode(x):
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        if set(x) == {"__tuple__"}:
            return tuple(decode(v) for v in x["__tuple__"])
        if set(x) == {"__dict__"}:
            return {decode(k): decode(v) for k, v in x["__dict__"]}
        return {k: decode(v) for k, v in x.items()}
    return x


def secrets_message(view, consumed: int = 0) -> tuple[dict | None, dict, int]:
    """``(header, update, consumed)`` for a Secrets player's ``view``: the header (once per game: the viewer,
    players, slots, rules), the update (the changing public fields, and the events from ``consumed`` on as the
    viewer saw them) and how many events that covers."""
    if view.kind != "player":
        raise HeimlichError(f"a bot in another process is sent a player's view, not a {view.kind}'s")
    header = None
    if consumed == 0:
        header = {"game": "secrets", "viewer": view.viewer, "players": list(view.players),
                  "slots": list(view.slots), "rules": view.rules.to_dict()}
    events = [[e.kind, encode(e.data), bool(e.hidden)] for e in view.log_since(consumed)]
    update = {"fields": {f: encode(getattr(view, f)) for f in SECRETS_FIELDS}, "events": events}
    return header, update, consumed + len(events)


class SecretsFollower:
    """In the worker: a Secrets view rebuilt from the header and the updates (see :func:`secrets_message`)."""

    def __init__(self, header: dict):
        from ..secrets.rules import SecretsRules
        if not isinstance(header, dict) or header.get("game") != "secrets":
            raise RecordError("the view sent is not a Secrets player's")
        self.viewer = header["viewer"]
        self.players, self.slots = tuple(header["players"]), tuple(header["slots"])
        if self.viewer not in self.players:
            raise RecordError(f"the view sent is for {self.viewer!r}, who does not play")
        self.rules = SecretsRules.from_dict(header["rules"])
        self.events: list[tuple] = []
        self.fields: dict | None = None

    def extend(self, update: dict) -> None:
        if not isinstance(update, dict) or set(update) != {"fields", "events"}:
            raise RecordError("an update of a Secrets view has fields and events")
        for kind, data, hidden in update["events"]:
            # a hidden event has no seer in the worker: the view blanks its secret fields (they already are None)
            self.events.append((kind, decode(data), () if hidden else None))
        self.fields = {f: decode(update["fields"][f]) for f in SECRETS_FIELDS}

    def view(self):
        from ..secrets.views import View
        if self.fields is None:
            raise RecordError("the view sent has no state yet: nothing to decide")
        v = object.__new__(View)
        v.viewer, v.kind, v.players, v.slots, v.rules = self.viewer, "player", self.players, self.slots, self.rules
        for f, value in self.fields.items():
            setattr(v, f, value)
        # the view's own private slots (its events as the viewer saw them, its viewer's seat), never a game's
        private = {"_events": list(self.events), "_n": len(self.events), "_i": self.players.index(self.viewer),
                   "_omni": False}
        for name, value in private.items():
            setattr(v, name, value)
        return v

    @staticmethod
    def parse(text: str):
        from ..secrets.actions import Action as SecretsAction
        return SecretsAction.parse(text)
