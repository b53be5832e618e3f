"""Secrets game records: versioned JSON (``"game": "secrets"``) that replays exactly and refuses tampering.

A record holds the players, the rule options, the seed, the chance mode, the whole action log (decisions and
chance events, in notation) and the result. ``docs/secrets.md`` documents the fields.

>>> from heimlich_lab.games.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=5)
>>> g.apply(g.legal_actions()[0])
>>> rec = SecretsRecord.from_json(g.record.to_json())
>>> rec.replay().history == g.history
True
>>> rec.public().log[0][1], rec.public().seed
('deal ?', None)
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ...errors import HeimlichError, RecordError
from ..heimlich.rules.actions import HIDDEN
from ..heimlich.rules.records import GameRecord
from .actions import Action
from .game import CHANCE, Game
from .rules import SecretsRules

FORMAT = "heimlich-lab-record"
GAME = "secrets"
VERSION = 1
#: Actions whose arguments are the actor's secret: kind -> the argument hidden from others.
_SECRET_ARG = {"deal": None, "bullet": 0, "side": 0, "offer": 0}


@dataclass
class SecretsRecord:
    """A Secrets record. ``log`` is a list of ``(actor, notation)``; ``view`` is ``"full"``, ``"public"`` or
    ``"player:NAME"`` (redacted records hold no seed and no secret but the viewer's, and are not replayed)."""

    players: tuple[str, ...]
    rules: SecretsRules
    seed: int | None
    chance: str
    log: list[tuple[str, str]]
    result: dict | None = None
    view: str = "full"

    @classmethod
    def from_game(cls, game: Game) -> "SecretsRecord":
        result = None
        if game.is_over:
            result = {"winners": list(game.winners), "scores": game.scores, "final_identities": game.identities,
                      "bullets": {p: list(v) for p, v in game.bullets.items()}}
        return cls(players=game.players, rules=game.rules, seed=game.seed, chance=game.chance,
                   log=[(a, str(act)) for a, act in game.history], result=result)

    # ---------------------------------------------------------------- facts
    @property
    def is_full(self) -> bool:
        return self.view == "full"

    @property
    def actions(self) -> list[Action]:
        return [Action.parse(t) for _, t in self.log]

    @property
    def winners(self) -> list[str] | None:
        return None if self.result is None else list(self.result["winners"])

    @property
    def final_identities(self) -> dict[str, str]:
        """Seat or ``"middle"`` -> team, as the markers lay at the end of the record (before the reveal)."""
        if self.result is not None:
            return dict(self.result["final_identities"])
        if not self.is_full:
            raise RecordError(f"this {self.view} record does not hold the identities (the game is not over)")
        return self.replay().identities

    def __len__(self):
        return len(self.log)

    # ---------------------------------------------------------------- redaction
    def public(self) -> "SecretsRecord":
        """No secrets: the deal, bullets, Diplomat sides and an unanswered offer's card are ``?``."""
        return self._redacted(None)

    def as_player(self, player: str) -> "SecretsRecord":
        """The record with only ``player``'s own secrets (their bullets, sides and offers)."""
        if player not in self.players:
            raise RecordError(f"{player!r} is not a player of this record ({', '.join(self.players)})")
        return self._redacted(player)

    def _redacted(self, keep: str | None) -> "SecretsRecord":
        if not self.is_full:
            raise RecordError(f"a {self.view} record cannot be redacted again; use the full record")
        log = []
        for i, (actor, text) in enumerate(self.log):
            if self._is_secret(i, keep):
                act = Action.parse(text)
                text = "deal ?" if act.kind == "deal" else str(Action(act.kind, (HIDDEN, *act.args[1:])))
            log.append((actor, text))
        return SecretsRecord(self.players, self.rules, None, self.chance, log, self.result,
                             view=f"player:{keep}" if keep else "public")

    def _is_secret(self, i: int, keep: str | None) -> bool:
        actor, text = self.log[i]
        kind = text.split()[0]
        if kind not in _SECRET_ARG or text.endswith(" ?") or text == "deal ?":
            return False
        if kind == "deal":
            return True
        if kind == "bullet":       # chance acts, but the Assassin who drew it sees it: the next shooter
            owner = next((a for a, t in self.log[i + 1:] if t.startswith("shoot ")), None)
            return owner != keep
        if kind == "offer":         # public once answered
            return actor != keep and not any(t.split()[0] in ("accept", "refuse", "interrupt")
                                             for _, t in self.log[i + 1:])
        return actor != keep

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict:
        return {"format": FORMAT, "game": GAME, "version": VERSION, "view": self.view,
                "players": list(self.players), "rules": self.rules.to_dict(), "seed": self.seed,
                "chance": self.chance, "log": [list(e) for e in self.log], "result": self.result}

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: "str | os.PathLike") -> Path:
        """Write the record atomically (as :meth:`heimlich_lab.GameRecord.save` does)."""
        return GameRecord.save(self, path)

    @classmethod
    def load(cls, path: "str | os.PathLike") -> "SecretsRecord":
        try:
            text = Path(path).read_text()
        except OSError as e:
            raise RecordError(f"cannot read record {path}: {e.strerror}") from None
        return cls.from_json(text, source=str(path))

    @classmethod
    def from_json(cls, text: str, source: str = "record", check: bool = True) -> "SecretsRecord":
        try:
            d = json.loads(text)
        except (json.JSONDecodeError, TypeError) as e:
            raise RecordError(f"{source}: not valid JSON ({e})") from None
        return cls.from_dict(d, source=source, check=check)

    @classmethod
    def from_dict(cls, d, source: str = "record", check: bool = True) -> "SecretsRecord":
        """Read and check a record; a full record is replayed (``check=True``). Raises :class:`RecordError`
        saying where and why."""
        if not isinstance(d, dict):
            raise RecordError(f"{source}: a record is a JSON object")
        if d.get("format") != FORMAT or d.get("game") != GAME:
            raise RecordError(f"{source}: not a Secrets record (format {d.get('format')!r}, game {d.get('game')!r})")
        if d.get("version") != VERSION:
            raise RecordError(f"{source}: unknown version {d.get('version')!r}; this heimlich-lab reads {VERSION}")
        missing = [k for k in ("players", "rules", "log") if k not in d]
        if missing:
            raise RecordError(f"{source}: missing field(s) {missing}")
        view = d.get("view", "full")
        players = d["players"]
        if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
            raise RecordError(f"{source}: 'players' must be a list of names, not {players!r}")
        if not (view in ("full", "public") or (isinstance(view, str) and view.startswith("player:")
                                               and view[7:] in players)):
            raise RecordError(f"{source}: 'view' must be full, public or player:NAME, not {view!r}")
        seed = d.get("seed")
        if seed is not None and type(seed) is not int:
            raise RecordError(f"{source}: 'seed' must be a whole number or null, not {seed!r}")
        if view != "full" and seed is not None:
            raise RecordError(f"{source}: a {view} record has no seed (it would give away every secret)")
        if d.get("chance", "auto") not in ("auto", "manual"):
            raise RecordError(f"{source}: 'chance' must be 'auto' or 'manual', not {d.get('chance')!r}")
        if d.get("result") is not None and not isinstance(d["result"], dict):
            raise RecordError(f"{source}: 'result' must be a JSON object or null")
        try:
            rules = SecretsRules.from_dict(d["rules"])
        except (HeimlichError, TypeError, ValueError) as e:
            raise RecordError(f"{source}: bad rules: {e}") from None
        log = []
        if not isinstance(d["log"], list):
            raise RecordError(f"{source}: 'log' must be a list")
        for i, e in enumerate(d["log"]):
            if not (isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)):
                raise RecordError(f"{source}: log entry {i} must be [actor, action], not {e!r}")
            try:
                Action.parse(e[1])
            except HeimlichError as err:
                raise RecordError(f"{source}: log entry {i} ({e[1]!r}): {err}") from None
            if e[0] != CHANCE and e[0] not in players:
                raise RecordError(f"{source}: log entry {i}: {e[0]!r} is not a player")
            log.append((e[0], e[1]))
        rec = cls(tuple(players), rules, seed, d.get("chance", "auto"), log, d.get("result"), view)
        if check and rec.is_full:
            rec.replay(source=source)
        elif check:
            for i in range(len(log)):
                if rec._unredacted_secret(i):
                    raise RecordError(f"{source}: log entry {i} ({log[i][1]}) is a secret a {view} record "
                                      "does not hold")
        return rec

    def _unredacted_secret(self, i: int) -> bool:
        keep = self.view[7:] if self.view.startswith("player:") else None
        full = SecretsRecord(self.players, self.rules, None, self.chance, self.log, self.result)
        return full._is_secret(i, keep)

    # ---------------------------------------------------------------- replay
    def replay(self, until: int | None = None, source: str = "record") -> Game:
        """The game after the first ``until`` log entries (all by default), replayed and checked."""
        game = None
        for game in self._replay(until, source):
            pass
        return game

    def games(self, source: str = "record"):
        """Yield ``(k, game)`` after each log entry (the same Game object, advanced)."""
        yield from enumerate(self._replay(None, source))

    def _replay(self, until, source):
        if not self.is_full:
            raise RecordError(f"{source}: a {self.view} record hides secrets and cannot be replayed; "
                              "use the full record")
        try:
            game = Game(self.players, seed=self.seed, chance=self.chance, rules=self.rules)
        except HeimlichError as e:
            raise RecordError(f"{source}: cannot set up the game: {e}") from None
        n = len(self.log) if until is None else until
        yield game
        for i, (actor, text) in enumerate(self.log[:n]):
            act = Action.parse(text)
            if i < len(game.history):
                if game.history[i] != (actor, act):
                    a, b = game.history[i]
                    raise RecordError(f"{source}: log entry {i} is {actor}: {text}, but the seed gives {a}: {b}; "
                                      "the log does not match the seed")
            else:
                try:
                    game.apply(act, player=actor)
                except HeimlichError as err:
                    raise RecordError(f"{source}: log entry {i} ({actor}: {text}) is illegal: {err}") from None
            yield game
        if until is None and len(game.history) > len(self.log):
            a, b = game.history[len(self.log)]
            raise RecordError(f"{source}: the log ends at entry {len(self.log)} but the seed continues with {a}: {b}")
        if until is None and self.result is not None:
            want = SecretsRecord.from_game(game).result
            if want != self.result:
                raise RecordError(f"{source}: the result does not match the replayed game ({want})")
