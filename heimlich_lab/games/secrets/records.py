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

from dataclasses import dataclass

from ...engine.actions import HIDDEN
from ...engine.records import FORMAT, RecordBase, excerpt_of
from ...errors import HeimlichError, RecordError
from .actions import Action
from .game import CHANCE, Game
from .rules import BULLETS, MIDDLE, TEAMS, SecretsRules

__all__ = ["FORMAT", "GAME", "VERSION", "SecretsRecord"]

GAME = "secrets"
#: Version 2 logs the cards that come back from under the deck as chance events (``chance: reveal CARD``, certain
#: outcomes); version 1 left them implicit, and is read by adding them (:func:`migrate_v1_log`).
VERSION = 2
#: Actions whose arguments are the actor's secret: kind -> the argument hidden from others.
_SECRET_ARG = {"deal": None, "bullet": 0, "side": 0, "offer": 0}


@dataclass
class SecretsRecord(RecordBase):
    """A Secrets record. ``log`` is a list of ``(actor, notation)``; ``view`` is ``"full"``, ``"public"`` or
    ``"player:NAME"`` (redacted records hold no seed and no secret but the viewer's, and are not replayed). The
    shared parts (JSON, saving, loading, the frame's checks, the replay) are
    :class:`~heimlich_lab.engine.records.RecordBase`'s."""

    TITLE = "Secrets"
    GAME_TAG = GAME
    VERSION = VERSION
    READS_VERSIONS = (1, 2)
    RESULT_FIELDS = ("winners", "scores", "final_identities", "bullets")

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
    def actions(self) -> list[Action]:
        return [Action.parse(t) for _, t in self.log]

    @property
    def final_identities(self) -> dict[str, str]:
        """Seat or ``"middle"`` -> team, as the markers lay at the end of the record (before the reveal)."""
        if self.result is not None:
            return dict(self.result["final_identities"])
        if not self.is_full:
            raise RecordError(f"this {self.view} record does not hold the identities (the game is not over)")
        return self.replay().identities

    # ---------------------------------------------------------------- redaction (public(), as_player(): RecordBase)
    def _redacted(self, keep: str | None) -> "SecretsRecord":
        """No secrets but ``keep``'s (the spectator's: none): the deal, bullets, Diplomat sides and an
        unanswered offer's card are ``?``."""
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
        if kind == "bullet":       # chance acts, but the Assassin who drew it sees it
            owner = self._assassin(i)
            return owner is None or owner != keep     # no known Assassin: a secret for every reader
        if kind == "offer":         # public once answered
            return actor != keep and not any(t.split()[0] in ("accept", "refuse", "interrupt")
                                             for _, t in self.log[i + 1:])
        return actor != keep

    def _assassin(self, i: int) -> str | None:
        """Who drew the bullet of log entry ``i``: the player who took the Assassin, read from the answer to
        its offer (accept: the chosen player; interrupt: the UN player; refuse: the offerer), so that a bullet
        still waiting for its shot is known too; ``None`` if the log does not say."""
        offerer = answer = None
        for actor, text in self.log[:i]:
            kind = text.split()[0]
            if kind == "offer":
                offerer, answer = actor, None
            elif kind in ("accept", "refuse", "interrupt"):
                answer = offerer if kind == "refuse" else actor
        return answer

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict:
        return {"format": FORMAT, "game": GAME, "version": VERSION, "view": self.view,
                "players": list(self.players), "rules": self.rules.to_dict(), "seed": self.seed,
                "chance": self.chance, "log": [list(e) for e in self.log], "result": self.result}

    @classmethod
    def from_dict(cls, d, source: str = "record", check: bool = True) -> "SecretsRecord":
        """Read and check a record; a full record is replayed (``check=True``). Raises :class:`RecordError`
        saying where and why."""
        players, view, seed, chance = cls._read_header(d, source)
        try:
            rules = SecretsRules.from_dict(d["rules"])
        except (HeimlichError, TypeError, ValueError) as e:
            raise RecordError(f"{source}: bad rules: {e}") from None
        if d.get("result") is not None:
            _check_result_types(d["result"], players, source)
        log = []
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
        if d["version"] == 1:
            log = migrate_v1_log(players, rules, log, source)
        rec = cls(players, rules, seed, chance, log, d.get("result"), view)
        if check and rec.is_full:
            rec.replay(source=source)
        elif check:
            for i in range(len(log)):
                if rec._unredacted_secret(i):
                    raise RecordError(f"{source}: log entry {i} ({log[i][1]}) is a secret a {view} record "
                                      "does not hold")
            # not replayed (no secrets), but followed: every public action legal, and a result iff it ends
            over = _follow(players, rules, log, source, add_reveals=False)[1].is_over
            if over != (rec.result is not None):
                raise RecordError(f"{source}: " + ("the log ends the game but the record's result is null" if over
                                                   else "the record has a result but its log does not end the game"))
        return rec

    def _unredacted_secret(self, i: int) -> bool:
        keep = self.view[7:] if self.view.startswith("player:") else None
        full = SecretsRecord(self.players, self.rules, None, self.chance, self.log, self.result)
        return full._is_secret(i, keep)

    # ---------------------------------------------------------------- replay (replay(), games(): RecordBase)
    def _new_game(self) -> Game:
        return Game(self.players, seed=self.seed, chance=self.chance, rules=self.rules)

    def _entries(self) -> list[tuple[str, Action, None]]:
        return [(actor, Action.parse(text), None) for actor, text in self.log]

    def _check_result(self, game: Game, source: str) -> None:
        if self.result is not None:
            want = SecretsRecord.from_game(game).result
            if want != self.result:
                raise RecordError(f"{source}: the result does not match the replayed game ({want})")


def _check_result_types(r: dict, players: tuple[str, ...], source: str) -> None:
    """Field types of a Secrets ``result`` (its fields and winners: the frame's check; its agreement with the
    game: the replay's). A public or player record is not replayed, so this is all that checks its result."""
    slots = (*players, MIDDLE)

    def fail(k, want):
        raise RecordError(f"{source}: result {k!r} must be {want}, not {excerpt_of(repr(r.get(k)))}")

    def mapping(k, keys, ok):
        v = r.get(k)
        return isinstance(v, dict) and set(v) == set(keys) and all(ok(x) for x in v.values())

    if not mapping("scores", players, lambda v: type(v) is int):
        fail("scores", "an object player -> whole number, for every player")
    if not mapping("final_identities", slots, lambda v: v in TEAMS):
        fail("final_identities", f"an object seat or middle -> one of {', '.join(TEAMS)}, for every slot")
    if not mapping("bullets", players, lambda v: isinstance(v, list) and all(type(b) is int and b in BULLETS
                                                                              for b in v)):
        fail("bullets", f"an object player -> list of bullet values ({', '.join(map(str, BULLETS))})")


def migrate_v1_log(players: tuple[str, ...], rules: SecretsRules, log: list[tuple[str, str]],
                   source: str = "record") -> list[tuple[str, str]]:
    """A version-1 log with the cards that came back from under the deck added as the chance events version 2
    logs (``chance: reveal CARD`` where the game drew them without chance).

    Which cards come back, and when, follows from public actions only (reveals, answered offers, the tableaux),
    so this works for public and player records too: the log is followed in a game with manual chance in which
    each hidden entry (``deal ?``, ``bullet ?``, ``side ?``, ``offer ? PLAYER``) stands as a legal action of its
    kind, which changes markers and bullets but never the deck.

    >>> from heimlich_lab.games.secrets.bots import RandomBot
    >>> from heimlich_lab.games.secrets.play import play
    >>> rec = play([RandomBot(i) for i in range(4)], seed=2)
    >>> under = [i for i, e in enumerate(rec.log) if e[0] == "chance" and e[1].startswith("reveal ")][29:]
    >>> v1 = [e for i, e in enumerate(rec.log) if i not in under]       # as version 1 logged the game
    >>> len(under), migrate_v1_log(rec.players, rec.rules, v1) == rec.log
    (3, True)
    """
    return _follow(players, rules, log, source, add_reveals=True)[0]


def _follow(players, rules, log, source: str, add_reveals: bool) -> tuple[list[tuple[str, str]], Game]:
    """Follow ``log`` in a game with manual chance, a legal stand-in for each hidden entry (see
    :func:`migrate_v1_log`): ``(the log, with the reveals from under the deck added if add_reveals, the game)``.
    Raises :class:`RecordError` at the first entry that is not legal (what can be checked without secrets)."""
    game = Game(players, chance="manual", rules=rules)
    out: list[tuple[str, str]] = []
    old = " of a version-1 record" if add_reveals else ""

    def forced() -> None:
        while add_reveals and game.is_chance_node and game.from_under_deck:
            act = game.chance_outcomes()[0][0]
            game.apply(act)
            out.append((CHANCE, str(act)))

    for i, (actor, text) in enumerate(log):
        forced()
        out.append((actor, text))
        if game.is_over:
            raise RecordError(f"{source}: log entry {i} ({text!r}){old} comes after the end of the game")
        try:
            act = Action.parse(text)
            if act.is_redacted:
                act = _stand_in(game, act)
            game.apply(act, player=actor)
        except HeimlichError as err:
            raise RecordError(f"{source}: log entry {i} ({text!r}){old} is illegal: {err}") from None
    forced()
    return out, game


def _stand_in(game: Game, act: Action) -> Action:
    """A legal action standing for a hidden one (same kind, same public arguments)."""
    same = [a for a in game.legal_actions() if a.kind == act.kind
            and all(x == y for x, y in zip(a.args, act.args) if x != HIDDEN and y != HIDDEN)]
    if not same:
        raise RecordError(f"{act} is not legal here")
    return same[0]
