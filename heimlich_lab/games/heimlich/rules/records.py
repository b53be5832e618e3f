"""Game records: a documented, versioned JSON format that replays exactly.

A record holds the rules and options, the players, the seed, the chance mode,
the start position (if any), the deal, the full action log (decisions and
chance outcomes, in notation) and the result. ``docs/record-format.md``
documents every field.

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob"], seed=5)
>>> g.apply(g.legal_actions()[0])
>>> rec = g.record
>>> again = GameRecord.from_json(rec.to_json())
>>> again.replay().positions == g.positions
True
>>> "deal" in rec.public().to_json() and rec.public().deal is None
True
"""
from __future__ import annotations

import copy
import weakref
from dataclasses import dataclass, field

from ....engine.records import FORMAT, RecordBase
from ....errors import HeimlichError, RecordError
from .actions import HIDDEN, Action
from .game import CHANCE, Game, Position
from .ruleset import Rules
from .views import visible_action

__all__ = ["FORMAT", "READS_VERSIONS", "RESULT_KEYS", "VERSION", "GameRecord", "LogEntry"]

VERSION = 2
#: Versions this heimlich-lab reads. Version 1 was written before a card one *may* draw became a choice
#: (docs/rules.md#drawing-cards): its games drew without asking, so it reads as ``draws="always"``.
READS_VERSIONS = (1, 2)
#: The fields of a finished game's ``result``.
RESULT_KEYS = ("winners", "scores", "final_owners", "controlled", "dossier_bonus", "dossier_sheets")


#: id(record) -> (weak reference, its setup and log when the engine made it): see GameRecord.is_as_played
_AS_PLAYED: dict[int, tuple] = {}


@dataclass(frozen=True)
class LogEntry:
    """One logged action: who acted (a player, or ``"chance"``), the action, and for a card draw or
    a taken agent the player who received it (``to``)."""

    actor: str
    action: Action
    to: str | None = None

    def to_list(self) -> list:
        out = [self.actor, str(self.action)]
        if self.to is not None:
            out.append(self.to)
        return out


@dataclass
class GameRecord(RecordBase):
    """A game record. ``view`` is ``"full"`` (all secrets), ``"public"`` (none) or ``"player:NAME"``. The
    shared parts (JSON, saving, loading, the frame's checks, the replay) are
    :class:`~heimlich_lab.engine.records.RecordBase`'s."""

    TITLE = "Heimlich & Co."
    GAME_TAG = None          # written before there was a second game: no "game" field
    VERSION = VERSION
    READS_VERSIONS = READS_VERSIONS
    OBJECT_FIELDS = ("deal", "result", "start", "rules")
    EXTRA_FIELDS = ("deal", "start")
    RESULT_FIELDS = RESULT_KEYS

    players: tuple[str, ...]
    rules: Rules
    seed: int | None
    chance: str
    log: list[LogEntry]
    deal: dict[str, str] | None = None
    start: Position | None = None
    result: dict | None = None
    view: str = "full"
    #: Where the record came from (a file name), for error messages; not part of the record.
    source: str = field(default="record", compare=False, repr=False)

    # ---------------------------------------------------------------- building
    @classmethod
    def from_game(cls, game: Game) -> "GameRecord":
        log = [LogEntry(actor, act, game.recipients.get(i)) for i, (actor, act) in enumerate(game.history)]
        deal = None
        if game.start is not None:
            deal = {p: cols[0] for p, cols in _start_owners(game.start).items()}
        else:
            for _actor, act in game.history:
                if act.kind == "deal":
                    deal = dict(act.args)
                    break
        rec = cls(players=game.players, rules=game.rules, seed=game.seed, chance=game.chance, log=log,
                  deal=deal, start=game.start, result=_result_of(game))
        # made by the engine itself: valid until someone edits it (kept beside the record, not in its fields)
        _AS_PLAYED[id(rec)] = (weakref.ref(rec), rec._setup_and_log())
        weakref.finalize(rec, _AS_PLAYED.pop, id(rec), None)
        return rec

    def _setup_and_log(self) -> tuple:
        return (self.view, self.players, self.rules, self.seed, self.chance, self.start, tuple(self.log))

    def is_as_played(self) -> bool:
        """True for a record made from a game in this process (:meth:`from_game`) and not edited since:
        its log needs no second replay to be trusted (readers of the record skip that check)."""
        ref, snapshot = _AS_PLAYED.get(id(self), (None, None))
        return ref is not None and ref() is self and snapshot == self._setup_and_log()

    # ---------------------------------------------------------------- facts
    @property
    def owners(self) -> dict[str, list[str]]:
        """Player -> agent colours controlled (the dealt card, then a taken second agent).

        Known in a full record; in a public or player record, known at the end (identities are revealed).
        """
        if self.result is not None:
            return {p: list(c) for p, c in self.result["controlled"].items()}
        if not self.is_full:
            raise RecordError(f"this {self.view} record does not hold the owners (the game is not over)")
        own = {p: [c] for p, c in self.deal.items()} if self.deal else {p: [] for p in self.players}
        if self.start is not None:
            own = {p: list(c) for p, c in _start_owners(self.start).items()}
        for e in self.log:
            if e.action.kind == "take":
                own[e.to].append(e.action.args[0])
        return own

    @property
    def actions(self) -> list[Action]:
        return [e.action for e in self.log]

    # ---------------------------------------------------------------- redaction (public(), as_player(): RecordBase)
    def _redacted(self, keep: str | None) -> "GameRecord":
        if not self.is_full and self.view != (f"player:{keep}" if keep else "public"):
            if not (keep is None and self.view.startswith("player:")):
                into = "player:" + keep if keep else "public"
                raise RecordError(f"a {self.view} record cannot be turned into a {into} one")
        log = [LogEntry(e.actor, visible_action(e.action, e.actor, e.to, keep), e.to) for e in self.log]
        deal = {keep: self.deal[keep]} if (keep and self.deal) else None
        start = None
        if self.start is not None:
            d = self.start.to_dict()
            d["owners"] = {p: (c if p == keep else [HIDDEN]) for p, c in _start_owners(self.start).items()}
            if d.get("hands") is not None:
                d["hands"] = {p: (h if p == keep else [HIDDEN] * len(h)) for p, h in d["hands"].items()}
            if d.get("supply") is not None:     # the supply is face-down, stacked or not
                d["supply"] = [HIDDEN] * len(d["supply"])
            if d.get("dossier_sheets"):
                d["dossier_sheets"] = {p: s for p, s in d["dossier_sheets"].items() if p == keep}
            start = Position.from_dict(d)
        # no seed in any redacted record: with the seed the deal and every draw can be recomputed
        return GameRecord(players=self.players, rules=self.rules, seed=None,
                          chance=self.chance, log=log, deal=deal, start=start, result=self.result,
                          view=f"player:{keep}" if keep else "public", source=self.source)

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict:
        return {
            "format": FORMAT, "version": VERSION, "view": self.view,
            "players": list(self.players), "rules": self.rules.to_dict(), "seed": self.seed,
            "chance": self.chance, "start": self.start.to_dict() if self.start else None,
            # copies: changing the dict must not change the record
            "deal": copy.deepcopy(self.deal), "log": [e.to_list() for e in self.log],
            "result": copy.deepcopy(self.result),
        }

    @classmethod
    def from_dict(cls, d, source: str = "record", check: bool = True) -> "GameRecord":
        """Read and check a record (the frame: :meth:`~heimlich_lab.engine.records.RecordBase._read_header`);
        a full record is replayed (``check=True``). Raises :class:`RecordError` saying where and why."""
        players, view, seed, chance = cls._read_header(d, source)
        try:
            rules_dict = d["rules"]
            if d["version"] == 1 and isinstance(rules_dict, dict) and "draws" not in rules_dict:
                rules_dict = {**rules_dict, "draws": "always"}    # the migration from version 1
            rules = Rules.from_dict(rules_dict)
            start = Position.from_dict(d["start"]) if d.get("start") else None
        except HeimlichError as e:
            raise RecordError(f"{source}: {e}") from None
        except Exception as e:  # anything the checks above missed is still a bad record, said where
            raise RecordError(f"{source}: cannot read the rules or start position: {type(e).__name__}: {e}") from None
        try:    # checked here too, as a public or player record is not replayed
            rules.agents_for(len(players))
        except HeimlichError as e:
            raise RecordError(f"{source}: cannot set up the game: {e}") from None
        if d.get("deal") is not None and not all(isinstance(p, str) and isinstance(c, str)
                                                 for p, c in d["deal"].items()):
            raise RecordError(f"{source}: 'deal' must map player names to agent colours, not {d['deal']!r}")
        if d.get("result") is not None:
            _check_result(d["result"], source)
        log = []
        for i, entry in enumerate(d["log"]):
            if not (isinstance(entry, list) and len(entry) in (2, 3) and all(isinstance(x, str) for x in entry)):
                raise RecordError(f"{source}: log entry {i} must be [actor, action] or [actor, action, recipient], "
                                  f"not {entry!r}")
            try:
                act = Action.parse(entry[1])
            except HeimlichError as e:
                raise RecordError(f"{source}: log entry {i} ({entry[1]!r}): {e}") from None
            if entry[0] != CHANCE and entry[0] not in players:
                raise RecordError(f"{source}: log entry {i}: {entry[0]!r} is not a player")
            if len(entry) == 3 and entry[2] not in players:
                raise RecordError(f"{source}: log entry {i}: the receiver {entry[2]!r} is not a player")
            log.append(LogEntry(entry[0], act, entry[2] if len(entry) == 3 else None))
        rec = cls(players=players, rules=rules, seed=seed, chance=chance, log=log,
                  deal=d.get("deal"), start=start, result=d.get("result"), view=view, source=source)
        if check and not rec.is_full:
            rec._check_redacted(source)
        if check and rec.is_full:
            try:
                rec.replay(source=source)
            except RecordError:
                raise
            except Exception as e:  # an unforeseen inconsistency: still a RecordError that says where
                raise RecordError(f"{source}: the record does not replay: {type(e).__name__}: {e}") from None
        return rec

    def _check_redacted(self, source: str) -> None:
        """What can be checked in a public or player record without its secrets: that it holds none but
        the viewer's. (Its actions are not replayed against the rules: see docs/record-format.md.)"""
        keep = self.view[len("player:"):] if self.view.startswith("player:") else None
        if self.deal is not None and (keep is None or set(self.deal) != {keep}):
            raise RecordError(f"{source}: a {self.view} record holds only "
                              + (f"{keep}'s deal" if keep else "no deal") + f", not {self.deal}")
        for i, e in enumerate(self.log):
            a = e.action
            # "dossier red=?" (older records) hid only the name: read, not refused
            secret = (visible_action(a, e.actor, e.to, keep) != a
                      and not (a.kind == "dossier" and a.args[1] == HIDDEN))
            if secret:
                raise RecordError(f"{source}: log entry {i} ({e.actor}: {a}) is a secret a {self.view} record "
                                  "does not hold")
        if self.start is not None:
            st = self.start

            def secret(what):
                raise RecordError(f"{source}: the start position shows {what}, which a {self.view} record "
                                  "does not hold")
            for p, cols in _start_owners(st).items():
                if p != keep and cols != [HIDDEN]:
                    secret(f"{p}'s agent(s)")
            for p, hand in (st.hands or {}).items():
                if p != keep and any(c != HIDDEN for c in hand):
                    secret(f"{p}'s hand")
            if st.supply is not None and any(c != HIDDEN for c in st.supply):
                secret("the supply's cards (face-down)")
            for p in st.dossier_sheets or {}:
                if p != keep:
                    secret(f"{p}'s dossier sheet")

    # ---------------------------------------------------------------- replay (replay(), games(): RecordBase)
    def _new_game(self) -> Game:
        return Game(self.players, self.rules, seed=self.seed, chance=self.chance, start=self.start)

    def _entries(self) -> list[tuple[str, Action, str | None]]:
        return [(e.actor, e.action, e.to) for e in self.log]

    def _check_before_replay(self, source: str) -> None:
        if self.deal is not None:
            first_deal = next((e.action for e in self.log if e.action.kind == "deal"), None)
            if first_deal is not None and dict(first_deal.args) != self.deal:
                raise RecordError(f"{source}: the log's deal {first_deal} does not match the record's deal {self.deal}")
            if self.start is not None and {p: c[0] for p, c in _start_owners(self.start).items()} != self.deal:
                raise RecordError(f"{source}: the record's deal {self.deal} does not match the start position's "
                                  f"owners {self.start.owners}")

    def _check_entry(self, game: Game, i: int, actor: str, act: Action, to: str | None, source: str) -> None:
        if to != game.recipients.get(i):
            raise RecordError(f"{source}: log entry {i} ({actor}: {act}) names {to!r} as the receiver, "
                              f"but the game gives it to {game.recipients.get(i)!r}")

    def _check_result(self, game: Game, source: str) -> None:
        # a result before the end, or none at the end: refused by the replay (RecordBase)
        expected = _result_of(game)
        if self.result is not None and self.result != expected:
            # every field, so that a record cannot lie about who controlled what (rec.owners reads it)
            diff = sorted(k for k in set(expected) | set(self.result)
                          if self.result.get(k, "missing") != expected.get(k, "missing"))
            raise RecordError(f"{source}: the result does not match the replayed game in {diff}: the game "
                              f"gives {({k: expected.get(k) for k in diff})}")


def _result_of(game: Game) -> dict | None:
    """A finished game's ``result`` (``None`` before the end), as records hold it."""
    if not game.is_over:
        return None
    return {"winners": list(game.winners), "scores": game.scores, "final_owners": game.final_owners,
            "controlled": game.owners, "dossier_bonus": game.dossier_bonus,
            "dossier_sheets": game.dossier_sheets if game.rules.dossier else None}


def _check_result(r: dict, source: str) -> None:
    """Field types of a record's ``result`` (its agreement with the game is checked by the replay)."""
    def mapping(k, ok):
        v = r.get(k)
        return v is None or (isinstance(v, dict) and all(isinstance(a, str) and ok(b) for a, b in v.items()))

    def fail(k, want):
        raise RecordError(f"{source}: result {k!r} must be {want}, not {r.get(k)!r}")

    # its fields and 'winners' are checked with the frame (RecordBase._check_result_frame)
    if r.get("scores") is None or not mapping("scores", lambda v: type(v) is int):
        fail("scores", "an object agent colour -> whole number")
    if not mapping("final_owners", lambda v: v is None or isinstance(v, str)):
        fail("final_owners", "an object agent colour -> player name or null")
    if not mapping("controlled", lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v)):
        fail("controlled", "an object player -> list of agent colours")
    if not mapping("dossier_bonus", lambda v: type(v) is int):
        fail("dossier_bonus", "an object player -> whole number")
    if not mapping("dossier_sheets", lambda v: isinstance(v, dict)):
        fail("dossier_sheets", "an object player -> sheet, or null")


def _start_owners(start: Position) -> dict[str, list[str]]:
    return {p: ([c] if isinstance(c, str) else list(c)) for p, c in start.owners.items()}

