"""What every game's records share: the JSON format's frame (``format``, ``game``, ``version``, ``view``,
``players``, ``seed``, ``chance``, ``rules``, ``log``, ``result``) and its checks, the public record and one
per player, saving (atomically), loading, and the exact replay that refuses a tampered record.

A game's record class subclasses :class:`RecordBase` (as a dataclass with at least ``players``, ``rules``,
``seed``, ``chance``, ``log``, ``result`` and ``view``) and supplies:

* the class attributes ``TITLE``, ``GAME_TAG`` (the ``game`` field its records carry; ``None``: none),
  ``VERSION`` and ``READS_VERSIONS``;
* ``from_dict(d, source, check)`` (reading its own fields after :meth:`RecordBase._read_header`),
  ``to_dict()``, ``_redacted(keep)`` (the record as player ``keep``, or the spectator, may see it);
* for the replay: ``_new_game()``, ``_entries()`` (``(actor, action, receiver)`` per log entry) and
  ``_check_result(game, source)``; optionally ``_check_before_replay(source)`` and
  ``_check_entry(game, i, actor, action, to, source)``.

>>> from heimlich_lab.games.secrets.game import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=5)
>>> rec = type(g.record).from_json(g.record.to_json().encode())     # UTF-8 bytes or text
>>> rec.replay().history == g.history, rec.public().seed
(True, None)
"""
from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, Self

from ..errors import HeimlichError, RecordError
from .actions import check_player_name
from .game import MAX_SEED

#: The ``format`` of every game's records.
FORMAT = "heimlich-lab-record"
#: The top-level fields every game's records may carry (a game adds its own: ``RecordBase.EXTRA_FIELDS``).
FRAME_FIELDS = ("format", "game", "version", "view", "players", "rules", "seed", "chance", "log", "result")


def check_save_target(path: str | os.PathLike[str]) -> None:
    """Refuse to save over anything but a regular file or a new path: a folder, a device (``/dev/null``) or a
    FIFO would be replaced by the saved file (a symbolic link is judged by what it points to). Raises
    :class:`~heimlich_lab.errors.HeimlichError` (the CLI's ``--out`` uses the same rule).

    >>> check_save_target("/dev/null")
    Traceback (most recent call last):
    heimlich_lab.errors.HeimlichError: /dev/null is not a regular file (a device or a FIFO): saving would ...
    """
    shown = str(path) if len(str(path)) <= 200 else str(path)[:200] + "... (cut)"
    try:
        st = os.stat(path)      # follows a symbolic link to what it points to
    except FileNotFoundError:
        return                  # a new file (or a link to one)
    except (OSError, ValueError) as e:     # ValueError: a name the system refuses (a NUL byte)
        raise HeimlichError(f"{shown}: {getattr(e, 'strerror', None) or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise HeimlichError(f"{shown} is a folder; give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise HeimlichError(f"{shown} is not a regular file (a device or a FIFO): saving would replace it; "
                            "give a file name")


def save_text(text: str, path: str | os.PathLike[str]) -> Path:
    """Write ``text`` to ``path`` atomically (a temporary file in the same folder, synced, then renamed into
    place with ``os.replace``): a failed save leaves the old file as it was and no temporary file behind.

    Only a regular file or a new path is saved over (:func:`check_save_target`). Saving over a file keeps that
    file's permissions (a ``chmod 600`` record stays private); a new file gets the usual ``0666`` less the
    umask. Saving to a symbolic link writes the file it points to and keeps the link.
    """
    path = Path(path)
    check_save_target(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:     # closes fd on every path
            with contextlib.suppress(OSError):
                # a file system that refuses chmod keeps mkstemp's 0600: more private, never less
                os.fchmod(f.fileno(), mode)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())    # the data is on disk before the rename makes it the record
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return path


class RecordBase:
    """The shared part of every game's record (see the module doc). ``view`` is ``"full"`` (every secret),
    ``"public"`` (none) or ``"player:NAME"`` (only that player's); redacted records hold no seed."""

    TITLE: ClassVar[str] = "a game"
    GAME_TAG: ClassVar[str | None] = None
    VERSION: ClassVar[int] = 1
    READS_VERSIONS: ClassVar[tuple[int, ...]] = (1,)
    #: Fields that are a JSON object or null.
    OBJECT_FIELDS: ClassVar[tuple[str, ...]] = ("result", "rules")
    #: The game's own top-level fields beyond :data:`FRAME_FIELDS`; any other field is refused.
    EXTRA_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: The fields of a finished game's ``result`` (``None``: only ``winners`` is checked here).
    RESULT_FIELDS: ClassVar[tuple[str, ...] | None] = None

    players: tuple[str, ...]
    seed: int | None
    chance: str
    log: list[Any]
    result: dict[str, Any] | None
    view: str

    # ---------------------------------------------------------------- facts
    @property
    def is_full(self) -> bool:
        return self.view == "full"

    @property
    def winners(self) -> list[str] | None:
        return None if self.result is None else list(self.result["winners"])

    def __len__(self) -> int:
        return len(self.log)

    def _repr_html_(self) -> str:
        """How a notebook shows it: the game's ``display`` (its spec), else a table
        (:mod:`heimlich_lab.engine.display`)."""
        from .display import html_of
        return html_of(self)

    # ---------------------------------------------------------------- redaction
    def public(self) -> Self:
        """The record with no secrets (and no seed: with it every secret could be recomputed)."""
        return self._redacted(None)

    def as_player(self, player: str) -> Self:
        """The record as ``player`` saw it: only that player's secrets."""
        if player not in self.players:
            raise RecordError(f"{player!r} is not a player of this record ({', '.join(self.players)})")
        return self._redacted(player)

    def _redacted(self, keep: str | None) -> Self:
        raise NotImplementedError(f"{type(self).__name__} must supply _redacted(): see docs/architecture.md")

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__} must supply to_dict(): see docs/architecture.md")

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text (see ``docs/record-format.md``)."""
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record atomically (:func:`save_text`)."""
        return save_text(self.to_json(indent=1), path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Self:
        """Read and check a record file."""
        try:
            data = Path(path).read_bytes()
        except OSError as e:
            raise RecordError(f"cannot read record {path}: {e.strerror}") from None
        return cls.from_json(data, source=str(path))

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "record", check: bool = True) -> Self:
        """Parse a record (text, or UTF-8 bytes); a full record is also replayed to check every action
        (``check=True``). Raises :class:`~heimlich_lab.errors.RecordError` saying where and why; never returns
        a half-loaded record."""
        if isinstance(text, (bytes, bytearray)):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as e:
                raise RecordError(f"{source}: not UTF-8 text (byte {e.start}: {e.reason})") from None
        if not isinstance(text, str):
            raise RecordError(f"{source}: a record is JSON text, not {type(text).__name__}")
        try:
            d = json.loads(text)
        except RecursionError:
            raise RecordError(f"{source}: not a record: JSON nested too deeply") from None
        except ValueError as e:   # JSONDecodeError, and integers too long to read (over 4300 digits)
            raise RecordError(f"{source}: not valid JSON ({e})") from None
        try:
            return cls.from_dict(d, source=source, check=check)
        except RecursionError:
            raise RecordError(f"{source}: not a record: a field is nested too deeply") from None
        except RecordError:
            raise
        except HeimlichError as e:
            raise RecordError(f"{source}: {e}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            # a value of a type no check above foresaw: still a bad record, said where, never a traceback
            raise RecordError(f"{source}: not a valid {cls.TITLE} record: {type(e).__name__}: "
                              f"{excerpt_of(str(e))}") from None

    @classmethod
    def from_dict(cls, d: Any, source: str = "record", check: bool = True) -> Self:
        raise NotImplementedError(f"{cls.__name__} must supply from_dict(): see docs/architecture.md")

    @classmethod
    def _read_header(cls, d: Any, source: str) -> tuple[tuple[str, ...], str, int | None, str]:
        """Check the frame every record has and return ``(players, view, seed, chance)``."""
        if not isinstance(d, dict):
            raise RecordError(f"{source}: a record is a JSON object")
        if d.get("format") != FORMAT:
            raise RecordError(f"{source}: 'format' must be {FORMAT!r}, not {d.get('format')!r}")
        if d.get("game") != cls.GAME_TAG:
            raise RecordError(f"{source}: not a {cls.TITLE} record (its 'game' is {d.get('game')!r})")
        if type(d.get("version")) is not int or d["version"] not in cls.READS_VERSIONS:    # not 1.0, not true
            raise RecordError(f"{source}: unknown version {d.get('version')!r}; this heimlich-lab reads versions "
                              f"{', '.join(map(str, cls.READS_VERSIONS))}")
        unknown = [k for k in d if k not in FRAME_FIELDS and k not in cls.EXTRA_FIELDS]
        if unknown:
            raise RecordError(f"{source}: unknown field(s) {excerpt_of(repr(unknown))}; a {cls.TITLE} record has "
                              f"{', '.join(FRAME_FIELDS[:2] if cls.GAME_TAG else FRAME_FIELDS[:1])}, "
                              f"{', '.join(FRAME_FIELDS[2:] + cls.EXTRA_FIELDS)}")
        missing = [k for k in ("players", "rules", "log") if k not in d]
        if missing:
            raise RecordError(f"{source}: missing field(s) {missing}")
        view = d.get("view", "full")
        if not (view in ("full", "public") or (isinstance(view, str) and view.startswith("player:"))):
            raise RecordError(f"{source}: 'view' must be full, public or player:NAME, not {view!r}")
        players = d["players"]
        if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
            raise RecordError(f"{source}: 'players' must be a list of names, not {players!r}")
        for p in players:
            try:
                check_player_name(p)
            except HeimlichError as e:
                raise RecordError(f"{source}: 'players': {e}") from None
        if len(set(players)) != len(players):
            raise RecordError(f"{source}: 'players' repeat a name: {players!r}")
        if view.startswith("player:") and view[len("player:"):] not in players:
            raise RecordError(f"{source}: 'view' {view!r} names no player of the record")
        seed = d.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_SEED):
            raise RecordError(f"{source}: 'seed' must be a whole number 0 <= seed < 2**128, or null, not {seed!r}")
        if view != "full" and seed is not None:
            raise RecordError(f"{source}: a {view} record has no seed (it would give away every secret)")
        chance = d.get("chance", "auto")
        if chance not in ("auto", "manual"):
            raise RecordError(f"{source}: 'chance' must be 'auto' or 'manual', not {d.get('chance')!r}")
        for k in cls.OBJECT_FIELDS:
            if d.get(k) is not None and not isinstance(d[k], dict):
                raise RecordError(f"{source}: {k!r} must be a JSON object or null, not {d[k]!r}")
        if not isinstance(d["log"], list):
            raise RecordError(f"{source}: 'log' must be a list")
        if d.get("result") is not None:
            cls._check_result_frame(d["result"], players, source)
        return tuple(players), view, seed, chance

    @classmethod
    def _check_result_frame(cls, result: dict[str, Any], players: list[str], source: str) -> None:
        """What every game's ``result`` is: the fields :attr:`RESULT_FIELDS` (when the game names them) and
        ``winners``, a list of different players of the record (a game checks its other fields' types)."""
        want = cls.RESULT_FIELDS
        if want is not None and set(result) != set(want):
            extra = [k for k in result if k not in want]
            raise RecordError(f"{source}: 'result' must have exactly the fields {list(want)}; missing "
                              f"{[k for k in want if k not in result]}, unknown {excerpt_of(repr(extra))}")
        w = result.get("winners")
        if not (isinstance(w, list) and all(isinstance(p, str) and p in players for p in w)
                and len(set(w)) == len(w)):
            raise RecordError(f"{source}: result 'winners' must be a list of different players of the record, "
                              f"not {excerpt_of(repr(w))}")

    # ---------------------------------------------------------------- replay
    def replay(self, until: int | None = None, source: str | None = None) -> Any:
        """The game after the first ``until`` log entries (all by default), replayed and checked."""
        game = None
        for game in self._replay(until, source):  # noqa: B007 - the last game is the answer
            pass
        return game

    def games(self, source: str | None = None) -> Iterator[tuple[int, Any]]:
        """Yield ``(k, game)`` after each of the log's entries (the same game object, advanced)."""
        yield from enumerate(self._replay(None, source))

    def _replay(self, until: int | None, source: str | None) -> Iterator[Any]:
        source = getattr(self, "source", "record") if source is None else source
        if until is not None and (type(until) is not int or not 0 <= until <= len(self.log)):
            raise RecordError(f"{source}: until must be a whole number from 0 to {len(self.log)} (log entries), "
                              f"not {until!r}")
        if not self.is_full:
            raise RecordError(f"{source}: a {self.view} record hides secrets and cannot be replayed as a game; "
                              "use the full record")
        try:
            game = self._new_game()
        except HeimlichError as e:
            raise RecordError(f"{source}: cannot set up the game: {e}") from None
        n = len(self.log) if until is None else until
        self._check_before_replay(source)
        yield game
        history = game.history
        for i, (actor, act, to) in enumerate(self._entries()[:n]):
            if i < len(history):
                # chance resolved automatically from the seed: it must agree with the log
                a, b = history[i]
                if (a, b) != (actor, act):
                    raise RecordError(f"{source}: log entry {i} is {actor}: {act}, but the seed gives {a}: {b}; "
                                      "the log does not match the seed")
            else:
                try:
                    game.apply(act, player=actor)
                except HeimlichError as err:
                    raise RecordError(f"{source}: log entry {i} ({actor}: {act}) is illegal: {err}") from None
            self._check_entry(game, i, actor, act, to, source)
            yield game
        if until is None and len(history) > len(self.log):
            a, b = history[len(self.log)]
            raise RecordError(f"{source}: the log ends at entry {len(self.log)} but the seed continues with "
                              f"{a}: {b}; the record is cut short")
        if until is None:
            if self.result is not None and not game.is_over:
                raise RecordError(f"{source}: the record has a result but its log does not end the game")
            if self.result is None and game.is_over:
                raise RecordError(f"{source}: the log ends the game but the record's result is null")
            self._check_result(game, source)

    def entries(self) -> list[tuple[str, Any, str | None]]:
        """``(actor, action, receiver)`` for each log entry, in order (the receiver of a draw or a take, else
        ``None``): what the replay applies."""
        return self._entries()

    def _new_game(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must supply _new_game(): see docs/architecture.md")

    def _entries(self) -> list[tuple[str, Any, str | None]]:
        raise NotImplementedError(f"{type(self).__name__} must supply _entries(): see docs/architecture.md")

    def _check_before_replay(self, source: str) -> None:
        """Checks of the record's own fields before its log is replayed (none by default)."""

    def _check_entry(self, game: Any, i: int, actor: str, act: Any, to: str | None, source: str) -> None:
        """Checks of log entry ``i`` once the game has applied it (none by default)."""

    def _check_result(self, game: Any, source: str) -> None:
        raise NotImplementedError(f"{type(self).__name__} must supply _check_result(): see docs/architecture.md")


def excerpt_of(value: Any, limit: int = 200) -> str:
    """``repr`` of a value from a record (a string as it is), cut to ``limit`` characters: a record may be
    megabytes long, and an error quotes only the start of what is wrong.

    >>> excerpt_of(["x" * 1000])[-14:]
    'xxxxx... (cut)'
    """
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "... (cut)"
