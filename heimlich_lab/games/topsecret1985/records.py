"""Top Secret game records: versioned JSON (``"game": "topsecret1985"``) that replays exactly and refuses
tampering (the frame, saving, loading and the replay are the engine's
:class:`~heimlich_lab.engine.records.RecordBase`). docs/record-format.md documents the fields.

A record holds the players, the rule options, the seed, the chance mode, the map (``null`` for the stand-in, else
its node-link data), the log as ``[actor, notation]`` pairs and the result (``winners``, ``secrets``, ``end``).

>>> from heimlich_lab.games.topsecret1985 import RandomBot, play
>>> rec = play([RandomBot(1), RandomBot(2)], seed=3)
>>> again = TopSecretRecord.from_json(rec.to_json())
>>> again.replay().history == rec.replay().history, sorted(rec.contents["Ann"])
(True, ['A', 'B', 'C', 'D'])
>>> pub = rec.public()
>>> [t for _, t in pub.log if t.startswith("contents")], pub.seed, pub.contents
(['contents ?', 'contents ?'], None, {})
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.actions import HIDDEN
from ...engine.records import FORMAT, RecordBase, excerpt_of
from ...errors import HeimlichError, RecordError
from .actions import Action
from .game import CHANCE, Game
from .map import Map, MapError
from .rules import TopSecretRules

__all__ = ["END_REASONS", "GAME", "VERSION", "TopSecretRecord"]

GAME = "topsecret1985"
VERSION = 1
END_REASONS = ("target", "out-of-reach", "no-agents", "max-rounds")


@dataclass
class TopSecretRecord(RecordBase):
    """A Top Secret record. ``log`` is a list of ``(actor, notation)``; ``view`` is ``"full"``, ``"public"`` or
    ``"player:NAME"`` (a redacted record holds no seed, no other player's contents and no face-down duel card of
    another player; it is checked entry by entry, not replayed)."""

    TITLE = "Top Secret"
    GAME_TAG = GAME
    VERSION = VERSION
    READS_VERSIONS = (1,)
    EXTRA_FIELDS = ("map",)
    RESULT_FIELDS = ("winners", "secrets", "end")

    players: tuple[str, ...]
    rules: TopSecretRules
    seed: int | None
    chance: str
    log: list[tuple[str, str]]
    result: dict[str, Any] | None = None
    view: str = "full"
    map: Map | None = None

    @classmethod
    def from_game(cls, game: Game) -> TopSecretRecord:
        result = None
        if game.is_over:
            result = {"winners": list(game.winners or ()), "secrets": game.secrets_home, "end": game.end_reason}
        return cls(players=game.players, rules=game.rules, seed=game.seed, chance=game.chance,
                   log=[(a, str(act)) for a, act in game.history], result=result,
                   map=None if game.map.is_default else game.map)

    # ---------------------------------------------------------------- facts
    @property
    def actions(self) -> list[Action]:
        return [Action.parse(t) for _, t in self.log]

    @property
    def contents(self) -> dict[str, dict[str, str]]:
        """Player -> letter -> content (``"5"``, ``"3"``, ``"1"``, ``"bomb"``), for the contents this record holds:
        every player's in a full record, the reader's own in a player's record, none in the public one."""
        out = {}
        for actor, text in self.log:
            if text.startswith("contents ") and text != "contents ?":
                out[actor] = dict(Action.parse(text).args)
        return out

    @property
    def secrets(self) -> dict[str, int] | None:
        """Player -> secrets brought home (``None`` until the end)."""
        return None if self.result is None else dict(self.result["secrets"])

    # ---------------------------------------------------------------- redaction
    def _redacted(self, keep: str | None) -> TopSecretRecord:
        if not self.is_full:
            raise RecordError(f"a {self.view} record cannot be redacted again; use the full record")
        log = []
        for i, (actor, text) in enumerate(self.log):
            if self.is_secret(i, keep):
                text = "contents ?" if text.startswith("contents") else "card ?"
            log.append((actor, text))
        return TopSecretRecord(self.players, self.rules, None, self.chance, log, self.result,
                               view=f"player:{keep}" if keep else "public", map=self.map)

    def is_secret(self, i: int, keep: str | None) -> bool:
        """Whether log entry ``i`` is a secret to ``keep``: another player's contents, or the aggressor's duel card
        while it lies face down (the last entry, its answer not yet logged)."""
        actor, text = self.log[i]
        if actor == keep or text in ("contents ?", "card ?"):
            return False
        if text.startswith("contents "):
            return True
        if text.startswith("card ") and i == len(self.log) - 1:
            run = 0        # the cards of a duel are logged in pairs, the aggressor's first
            for _, t in reversed(self.log):
                if not t.startswith("card "):
                    break
                run += 1
            return run % 2 == 1
        return False

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": GAME, "version": VERSION, "view": self.view,
                "players": list(self.players), "rules": self.rules.to_dict(), "seed": self.seed,
                "chance": self.chance, "map": None if self.map is None else self.map.data,
                "log": [list(e) for e in self.log], "result": self.result}

    @classmethod
    def from_dict(cls, d: Any, source: str = "record", check: bool = True) -> TopSecretRecord:
        players, view, seed, chance = cls._read_header(d, source)
        try:
            rules = TopSecretRules.from_dict(d["rules"])
        except (HeimlichError, TypeError, ValueError) as e:
            raise RecordError(f"{source}: bad rules: {e}") from None
        board = None
        if d.get("map") is not None:
            try:
                board = Map.from_data(d["map"], source=f"{source}: map")
            except MapError as e:
                raise RecordError(str(e)) from None
        if not 2 <= len(players) <= 4:
            raise RecordError(f"{source}: Top Secret is for 2 to 4 players, not {len(players)}")
        result = d.get("result")
        if result is not None:
            _check_result_types(result, players, source)
        log = []
        for i, raw in enumerate(d["log"]):
            if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, str) for x in raw)):
                raise RecordError(f"{source}: log entry {i} must be [actor, action], not {excerpt_of(repr(raw))}")
            e_: list[str] = raw
            try:
                act = Action.parse(e_[1])
            except HeimlichError as err:
                raise RecordError(f"{source}: log entry {i} ({excerpt_of(e_[1])}): {err}") from None
            if e_[0] != CHANCE and e_[0] not in players:
                raise RecordError(f"{source}: log entry {i}: {excerpt_of(e_[0])!r} is not a player")
            if (e_[0] == CHANCE) != act.is_chance:
                raise RecordError(f"{source}: log entry {i}: {e_[1]!r} is " +
                                  ("a chance event, not a player's" if act.is_chance else "a player's decision, "
                                   "not chance's"))
            log.append((e_[0], e_[1]))
        rec = cls(players, rules, seed, chance, log, result, view, board)
        if check and rec.is_full:
            rec.replay(source=source)
        elif check:
            keep = view[len("player:"):] if view.startswith("player:") else None
            full = cls(players, rules, None, chance, log, result, "full", board)
            for i in range(len(log)):
                if full.is_secret(i, keep):
                    raise RecordError(f"{source}: log entry {i} ({log[i][1]}) is a secret a {view} record "
                                      "does not hold")
                if log[i][1] in ("contents ?", "card ?") and log[i][0] == keep:
                    raise RecordError(f"{source}: log entry {i}: a {view} record holds its reader's own "
                                      f"{log[i][1].split()[0]}")
        return rec

    # ---------------------------------------------------------------- replay (RecordBase)
    def _new_game(self) -> Game:
        return Game(self.players, seed=self.seed, chance=self.chance, rules=self.rules, map=self.map)

    def _entries(self) -> list[tuple[str, Any, str | None]]:
        return [(actor, Action.parse(text), None) for actor, text in self.log]

    def _check_before_replay(self, source: str) -> None:
        if any(text in ("contents ?", "card ?") for _, text in self.log):
            raise RecordError(f"{source}: a full record holds every secret; this one has hidden entries")

    def _check_result(self, game: Any, source: str) -> None:
        want = TopSecretRecord.from_game(game).result
        if want != self.result:
            if self.result is None:
                raise RecordError(f"{source}: the log ends the game but the record's result is null")
            raise RecordError(f"{source}: the result does not match the replayed game ({want})")


def _check_result_types(r: dict[str, Any], players: tuple[str, ...], source: str) -> None:
    s = r.get("secrets")
    if not (isinstance(s, dict) and set(s) == set(players) and all(type(v) is int and v >= 0 for v in s.values())):
        raise RecordError(f"{source}: result 'secrets' must be an object player -> whole number, for every player, "
                          f"not {excerpt_of(repr(s))}")
    if r.get("end") not in END_REASONS:
        raise RecordError(f"{source}: result 'end' must be one of {', '.join(END_REASONS)}, not "
                          f"{excerpt_of(repr(r.get('end')))}")


_ = HIDDEN
