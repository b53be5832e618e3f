"""Class data, the board's side: save the games a class plays into the folder the instructor names, with consent.

``play_in_notebook(..., class_folder="class-games")`` (both games) puts a *Class data* box on the board: the
question :data:`CONSENT_TEXT` and one box per human seat, :data:`CONSENT_BOX`, all unticked. When the game ends
and every human has ticked their box, the game's full record is written into the folder as one class-game file
(:func:`save_class_game`); a box unticked after that deletes the file again. A game without a human is never
saved: class data are games that people played. ``heimlich_lab.analysis.load_class_games`` reads the folder
back; ``docs/class-data.md`` is the instructor's guide.

A class-game file is a JSON object: ``format`` (:data:`CLASS_GAME_FORMAT`), ``version``, ``game``
(the game's registered name, :mod:`heimlich_lab.engine.registry`), ``saved_at`` (UTC, ISO 8601), ``seats`` (in seat
order: ``{"player", "kind": "human" | "bot", "bot"}``, ``bot`` the bot's ``repr``), ``consent`` (``{"asked": the
question as shown, "agreed": the humans who ticked}``) and ``record`` (the game's full record, as ``record.to_dict()``:
every move, so that it replays and models can be fitted to it).

Files are written atomically (a temporary file in the folder, flushed, then linked to its name), never over
an existing file (a name is ``<game>-<UTC time>-seed<seed>-<random suffix>.json``; a name that is taken gets a
new suffix), and the folder is created only with ``create=True``.

>>> import tempfile
>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> rec = play(Rules(), {"Ann": RandomBot(seed=1), "Bob": RandomBot(seed=2)}, seed=3)
>>> folder = Path(tempfile.mkdtemp()) / "class-games"
>>> save_class_game(rec, folder, humans=["Ann"], bots={"Bob": RandomBot(seed=2)}, agreed=["Ann"])
Traceback (most recent call last):
...
heimlich_lab.widget.class_folder.ClassFolderError: cannot save class games into ...class-games: the folder \
does not exist (create it, or pass create_folder=True)
>>> path = save_class_game(rec, folder, humans=["Ann"], bots={"Bob": RandomBot(seed=2)}, agreed=["Ann"],
...                        create=True)
>>> path.name.startswith("heimlich-") and path.name.endswith(".json"), [p.name for p in folder.iterdir()] == [path.name]
(True, True)
>>> d = json.loads(path.read_text()); d["format"], d["seats"][1], d["consent"]["agreed"]
('heimlich-lab-class-game', {'player': 'Bob', 'kind': 'bot', 'bot': 'RandomBot(seed=2)'}, ['Ann'])
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import random
import tempfile
from pathlib import Path
from typing import Mapping, Sequence

from ..engine.registry import spec_of_record
from ..errors import HeimlichError

#: The ``format`` of a class-game file (``heimlich_lab.analysis.class_games`` reads it; a test checks they agree).
CLASS_GAME_FORMAT = "heimlich-lab-class-game"
#: The version of the class-game file format.
CLASS_GAME_VERSION = 1

#: The question on the board, word for word (``{folder}``: the folder's name). docs/class-data.md quotes it.
CONSENT_TEXT = ("Class data: your instructor collects the games this class plays, to study how people play. "
                "If every person at this table ticks their box, this game is saved into the folder {folder} "
                "when it ends: every move, the seat names on this board, which seats were bots, and the date and "
                "time. Nothing else is saved. The boxes start unticked; untick yours to take your agreement back "
                "(a game already saved is then deleted from the folder).")
#: One human's box.
CONSENT_BOX = "{player}: I agree to save this game"

#: The bots' descriptions are cut to this many characters.
_BOT_TEXT = 200
_ATTEMPTS = 20


class ClassFolderError(HeimlichError):
    """The class folder cannot take the game (missing, a file, not writable): said in words, nothing written."""


def _as_path(folder) -> Path:
    if isinstance(folder, bool) or not isinstance(folder, (str, os.PathLike)) or not str(folder).strip():
        raise ClassFolderError(f"the class folder must be a folder's path (a string or a Path), not {folder!r}")
    return Path(folder).expanduser()


def check_folder(folder, create: bool = False) -> Path:
    """The class folder as a :class:`~pathlib.Path`, or a :class:`ClassFolderError` that says what is wrong
    with it: not a path, a file, missing (unless ``create``), or not writable. Nothing is created here.

    >>> check_folder(123)
    Traceback (most recent call last):
    ...
    heimlich_lab.widget.class_folder.ClassFolderError: the class folder must be a folder's path (a string or a \
Path), not 123
    """
    path = _as_path(folder)
    where = f"cannot save class games into {path}"
    if path.exists() and not path.is_dir():
        raise ClassFolderError(f"{where}: it is a file, not a folder")
    if not path.exists():
        if not create:
            raise ClassFolderError(f"{where}: the folder does not exist (create it, or pass create_folder=True)")
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise ClassFolderError(f"{where}: {parent} is a file, so the folder cannot be created")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ClassFolderError(f"{where}: the folder cannot be created in {parent} (no permission to write)")
        return path
    if not os.access(path, os.W_OK | os.X_OK):
        raise ClassFolderError(f"{where}: no permission to write into the folder")
    return path


def game_of_record(record) -> str:
    """The registered name of the game a record (an object with ``to_dict()``) is of (from its ``game`` field,
    :func:`~heimlich_lab.engine.registry.spec_of_record`)."""
    return spec_of_record(record.to_dict()).name


def seats_of(players: Sequence[str], humans: Sequence[str], bots: Mapping[str, object]) -> list[dict]:
    """The ``seats`` entry of a class-game file: each player in seat order, human or bot (with the bot's repr).

    >>> from heimlich_lab.bots import RandomBot
    >>> seats_of(["Ann", "Bob"], ["Ann"], {"Bob": RandomBot(seed=4)})
    [{'player': 'Ann', 'kind': 'human'}, {'player': 'Bob', 'kind': 'bot', 'bot': 'RandomBot(seed=4)'}]
    """
    out = []
    for p in players:
        if p in bots:
            out.append({"player": p, "kind": "bot", "bot": repr(bots[p])[:_BOT_TEXT]})
        elif p in humans:
            out.append({"player": p, "kind": "human"})
        else:
            raise ClassFolderError(f"{p!r} is neither a human nor a bot of this game")
    return out


def class_game_name(game: str, seed, when: _dt.datetime, suffix: str) -> str:
    """A class-game file's name: the game, the UTC time, the seed and a short random suffix.

    >>> class_game_name("topsecret", 7, _dt.datetime(2025, 3, 4, 5, 6, 7, tzinfo=_dt.timezone.utc), "a1b2c3")
    'topsecret-20250304-050607Z-seed7-a1b2c3.json'
    """
    stamp = when.astimezone(_dt.timezone.utc).strftime("%Y%m%d-%H%M%SZ")
    return f"{game}-{stamp}-seed{'none' if seed is None else seed}-{suffix}.json"


def save_class_game(record, folder, *, humans: Sequence[str], bots: Mapping[str, object] | None = None,
                    agreed: Sequence[str], create: bool = False, now: _dt.datetime | None = None,
                    rng: random.Random | None = None) -> Path:
    """Write a finished game's full ``record`` into the class ``folder``; return the new file's path.

    ``humans`` are the people at the table, ``bots`` the other seats (name -> bot); ``agreed`` the humans who
    ticked their consent box: the game is saved only if that is every human (and there is one). ``create``
    makes the folder if it is missing (never otherwise). ``now`` (UTC) and ``rng`` (the name's random
    suffix; default: a fresh generator seeded by the system) are for tests. Raises :class:`ClassFolderError`
    (nothing written) for a bad folder, an unfinished or redacted record, or missing consent.
    """
    bots = dict(bots or {})
    humans = list(humans)
    d = record.to_dict()
    if not humans:
        raise ClassFolderError("a game without a human player is not class data: nothing saved")
    missing = [p for p in humans if p not in set(agreed)]
    if missing:
        raise ClassFolderError(f"not saved: {', '.join(missing)} did not agree to save this game")
    if d.get("view", "full") != "full" or d.get("result") is None:
        raise ClassFolderError("only a finished game's full record is saved as class data")
    seats = seats_of(d["players"], humans, bots)
    path = check_folder(folder, create=create)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    game = spec_of_record(d).name
    envelope = {"format": CLASS_GAME_FORMAT, "version": CLASS_GAME_VERSION, "game": game,
                "saved_at": now.astimezone(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
                "seats": seats, "consent": {"asked": CONSENT_TEXT.format(folder=str(path)),
                                            "agreed": [p for p in humans]},
                "record": d}
    text = json.dumps(envelope, indent=1)
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ClassFolderError(f"cannot create the class folder {path}: {e.strerror or e}") from None
    rng = rng or random.Random()
    for _ in range(_ATTEMPTS):
        target = path / class_game_name(game, d.get("seed"), now, f"{rng.getrandbits(24):06x}")
        if _write_new(target, text):
            return target
    raise ClassFolderError(f"cannot find a free file name in {path} after {_ATTEMPTS} attempts")  # pragma: no cover


def _write_new(target: Path, text: str) -> bool:
    """Write ``text`` to ``target`` atomically if no file has that name; False if one has (nothing written)."""
    umask = os.umask(0)
    os.umask(umask)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".class-game-", suffix=".tmp", dir=target.parent)
    except OSError as e:
        raise ClassFolderError(f"cannot save class games into {target.parent}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            with contextlib.suppress(OSError):
                os.fchmod(f.fileno(), 0o666 & ~umask)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())      # on disk before it gets its name
        try:
            os.link(tmp, target)      # fails if the name is taken: never overwrites
        except FileExistsError:
            return False
        except OSError:               # a file system without hard links: create the name exclusively
            try:
                with open(target, "x", encoding="utf-8") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
            except FileExistsError:
                return False
        return True
    except ClassFolderError:
        raise
    except OSError as e:
        raise ClassFolderError(f"cannot save class games into {target.parent}: {e.strerror or e}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


class ClassGameSaver:
    """The board's *Class data* box: the humans' consent, and the finished game saved into the folder.

    Made by a live table's controller (``class_folder=``, ``create_folder=``); :meth:`state` is what the box
    shows (the widget's ``class_data`` traitlet). A bad folder is not an error of the game: the box says what
    is wrong, and the game goes on.

    >>> s = ClassGameSaver("no/such/folder", humans=["Ann"], bots={})
    >>> s.state()["error"]
    'Cannot save class games into no/such/folder: the folder does not exist (create it, or pass create_folder=True)'
    >>> s.state()["seats"]
    [{'player': 'Ann', 'label': 'Ann: I agree to save this game', 'consent': False}]
    """

    def __init__(self, folder, humans: Sequence[str], bots: Mapping[str, object], create: bool = False,
                 rng: random.Random | None = None):
        self.folder = _as_path(folder)
        if not isinstance(create, bool):
            raise ClassFolderError(f"create_folder must be True or False, not {create!r}")
        self.create = create
        self.humans = list(humans)
        self.bots = dict(bots)
        self.consent = {p: False for p in self.humans}
        self.saved: Path | None = None
        self.error = ""
        self.note = ""
        self.version = 0
        self._rng = rng
        self._over = False
        try:
            check_folder(self.folder, create=create)
        except ClassFolderError as e:
            self.error = _sentence(str(e))

    @property
    def all_agreed(self) -> bool:
        return bool(self.humans) and all(self.consent.values())

    def set_consent(self, player: str, agree: bool, record=None) -> None:
        """``player`` ticks (``agree=True``) or unticks their box. After the end (``record`` given, finished),
        ticking the last box saves the game; unticking a saved game's box deletes its file."""
        if player not in self.consent:
            raise HeimlichError(f"{player!r} is not a human player at this table "
                                f"({', '.join(self.humans) or 'there is none'})")
        if not isinstance(agree, bool):
            raise HeimlichError(f"consent is True or False, not {agree!r}")
        self.version += 1
        self.consent[player] = agree
        if agree:
            self.note = ""
        if not agree and self.saved is not None:
            self._withdraw()
        if record is not None:
            self.game_over(record)

    def game_over(self, record) -> None:
        """The game is over: save it if every human agreed and it is not saved yet (a failure is shown)."""
        self._over = True
        if self.saved is not None or not self.all_agreed:
            return
        try:
            self.saved = save_class_game(record, self.folder, humans=self.humans, bots=self.bots,
                                         agreed=[p for p, ok in self.consent.items() if ok], create=self.create,
                                         rng=self._rng)
            self.error, self.note = "", ""
        except ClassFolderError as e:
            self.error = _sentence(str(e))

    def _withdraw(self) -> None:
        saved = self.saved
        if saved is None:       # nothing saved, nothing to delete
            return
        name = saved.name
        try:
            saved.unlink()
        except FileNotFoundError:
            pass
        except OSError as e:
            self.error = f"Could not delete {name}: {e.strerror or e}."
            return
        self.saved = None
        self.note = f"Deleted {name}: this game is not saved."

    def status(self) -> str:
        """Where the saving stands, in one sentence for the box."""
        if not self.humans:
            return "No person plays at this table: only games people play are saved for the class."
        if self.saved is not None:
            return f"Saved for the class as {self.saved.name}. Untick a box to delete it."
        if self.note:
            return self.note
        agreed = sum(self.consent.values())
        if self._over:
            return ("Not saved: not everyone at the table agreed. Tick every box to save it now."
                    if not self.all_agreed else
                    "Not saved: the folder has a problem (above); the game is not affected. Untick and tick a box "
                    "to try again.")
        return (f"Saved when the game ends if everyone at the table ticks their box ({agreed} of "
                f"{len(self.humans)} so far).")

    def state(self) -> dict:
        """What the board's *Class data* box shows (every sentence made here)."""
        return {"folder": str(self.folder), "text": CONSENT_TEXT.format(folder=str(self.folder)),
                "seats": [{"player": p, "label": CONSENT_BOX.format(player=p), "consent": ok}
                          for p, ok in self.consent.items()],
                "status": self.status(), "saved": self.saved.name if self.saved else None,
                "error": self.error, "version": self.version}


def _sentence(message: str) -> str:
    """An error message as the box shows it: with a capital letter.

    >>> _sentence("cannot save: no")
    'Cannot save: no'
    """
    message = message.strip()
    return message[:1].upper() + message[1:]


__all__ = ["CLASS_GAME_FORMAT", "CLASS_GAME_VERSION", "CONSENT_BOX", "CONSENT_TEXT", "ClassFolderError",
           "ClassGameSaver", "check_folder", "class_game_name", "save_class_game", "seats_of"]

