"""Class data, the reading side: the games a class played on the board, as tidy tables and as records.

The board saves a finished game into the class folder when every human at the table agrees
(``play_in_notebook(..., class_folder="class-games")``, :mod:`heimlich_lab.widget.class_folder`). Here:

- :func:`load_class_games` reads every file of the folder, checks each one (a full record is replayed, so a
  tampered move, result or deal is caught), skips and names the files it cannot use, and returns a
  :class:`ClassGames`: the tables ``decisions`` (one row per decision), ``seats`` (one row per game and
  seat) and ``games`` (one row per game), and the ``records``;
- :func:`class_records` returns only the records (:class:`ClassRecords`, a list), for fitting;
- :func:`class_games_or_simulated` is for notebooks: the class's games if there are any, else games of
  simulated bots, and one sentence that says which.

A class-game file holds which seats were human; a plain record file (``record.save(...)``) in the folder is read
too, its seats marked ``"unknown"``. docs/class-data.md is the instructor's guide.

>>> import tempfile
>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> from heimlich_lab.widget.class_folder import save_class_game
>>> folder = Path(tempfile.mkdtemp())
>>> for s in range(2):          # stand-ins for an example: a RandomBot in Ann's seat, saved as if Ann played
...                             # (the kit ships no class data; only a board's own games are real ones)
...     rec = play(Rules(), {"Ann": RandomBot(seed=s), "Bob": RandomBot(seed=10 + s)}, seed=s)
...     _ = save_class_game(rec, folder, humans=["Ann"], bots={"Bob": RandomBot(seed=10 + s)}, agreed=["Ann"])
>>> _ = (folder / "notes.txt").write_text("bring dice")          # not a .json file: not read
>>> _ = (folder / "broken.json").write_text("{")
>>> cg = load_class_games(folder)
Skipped 1 file in ...:
  broken.json: not valid JSON (...)
>>> len(cg), cg.games["n_humans"].tolist(), sorted(cg.seats["controller"].unique())
(2, [1, 1], ['bot', 'human'])
>>> sorted(set(zip(cg.decisions["player"], cg.decisions["controller"])))
[('Ann', 'human'), ('Bob', 'bot')]
>>> records, source = class_games_or_simulated(folder, simulate=lambda k: None, n=40)
Skipped 1 file in ...:
  broken.json: not valid JSON (...)
Using 2 games your class played, from ...
>>> source, records.fit_players
('class', [('Ann',), ('Ann',)])
>>> records, source = class_games_or_simulated(folder / "empty", n=3,
...     simulate=lambda k: play(Rules(), {"Ann": RandomBot(seed=k), "Bob": RandomBot(seed=50 + k)}, seed=k))
No class games found in .../empty (no such folder): using 3 games of simulated bots instead
>>> source, len(records), records.fit_players
('simulated', 3, None)
"""
from __future__ import annotations

import datetime as _dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from ..engine.records import FORMAT as RECORD_FORMAT
from ..engine.registry import default_game, game_names, game_spec, spec_of_record, spec_of_record_object
from ..errors import HeimlichError, RecordError

#: The ``format`` and ``version`` of a class-game file (written by :mod:`heimlich_lab.widget.class_folder`,
#: which this layer may not import: tests/test_class_data.py checks that they agree).
CLASS_GAME_FORMAT = "heimlich-lab-class-game"
CLASS_GAME_VERSION = 1
KINDS = ("human", "bot")
#: How many skipped files are named one by one in the printed report.
_REPORT_MAX = 10

#: The columns of :attr:`ClassGames.decisions` and their dtypes.
DECISION_COLUMNS = {
    "game_id": "string", "game": "string", "variant": "string", "n_players": "int64", "decision": "int64",
    "log_index": "int64", "turn": "int64", "phase": "string", "seat": "int64", "player": "string",
    "controller": "string", "is_human": "boolean", "bot": "string", "kind": "string", "notation": "string",
    "n_options": "int64", "identity": "string", "won": "bool",
}
#: The columns of :attr:`ClassGames.seats` and their dtypes.
SEAT_COLUMNS = {
    "game_id": "string", "game": "string", "variant": "string", "n_players": "int64", "seat": "int64",
    "player": "string", "controller": "string", "is_human": "boolean", "bot": "string", "identity": "string",
    "final": "string", "score": "int64", "won": "bool", "n_decisions": "int64",
}
#: The columns of :attr:`ClassGames.games` and their dtypes.
GAME_COLUMNS = {
    "game_id": "string", "file": "string", "game": "string", "saved_at": "datetime64[ns, UTC]",
    "variant": "string", "n_players": "int64", "players": "string", "n_humans": "Int64", "n_bots": "Int64",
    "winners": "string", "n_winners": "int64", "scores": "string", "n_turns": "int64", "n_actions": "int64",
    "n_decisions": "int64", "seed": "string",
}


class ClassRecords(list):
    """The records of a class's games (or of simulated games standing in for them): a list, plus where they came
    from. ``source`` is ``"class"`` or ``"simulated"``; ``files`` the file of each record (class games);
    ``seats`` each record's ``{player: "human" | "bot" | "unknown"}``.

    :attr:`fit_players` is what the fitting functions take as ``players=``
    (:func:`heimlich_lab.inference.fit.fit_boltzmann`, :func:`heimlich_lab.inference.population.fit_population`):
    per class record, its human players (every player when the file does not say who was human), so that a
    fit to class games is a fit to the people, not to the bots they played against; ``None`` for simulated
    games (every player counts: the bots stand in for the class).
    """

    def __init__(self, records=(), *, source: str = "class", folder: Path | None = None, files=(), seats=()):
        super().__init__(records)
        if source not in ("class", "simulated"):
            raise HeimlichError(f"source is 'class' or 'simulated', not {source!r}")
        self.source = source
        self.folder = folder
        self.files = list(files)
        self.seats = list(seats)

    @property
    def fit_players(self) -> list[tuple[str, ...]] | None:
        if self.source == "simulated":
            return None
        out = []
        for rec, seats in zip(self, self.seats):
            humans = tuple(p for p in rec.players if seats.get(p) == "human")
            out.append(humans if humans else tuple(rec.players))
        return out

    @property
    def humans(self) -> list[tuple[str, ...]]:
        """Per record, the seats the file says were human (empty for simulated games or unknown seats)."""
        return [tuple(p for p in rec.players if seats.get(p) == "human")
                for rec, seats in zip(self, self.seats or [{}] * len(self))]


@dataclass
class ClassGames:
    """A class folder, read: the ``records`` (a :class:`ClassRecords`), the tables ``decisions``, ``seats``
    and ``games`` (columns: :data:`DECISION_COLUMNS`, :data:`SEAT_COLUMNS`, :data:`GAME_COLUMNS`), and the
    ``.json`` files ``skipped`` with the reason for each (``[(file name, reason)]``); ``ignored`` are the
    folder's other entries (not ``.json`` files, sub-folders), which are not read."""

    folder: Path
    records: ClassRecords
    decisions: pd.DataFrame
    seats: pd.DataFrame
    games: pd.DataFrame
    skipped: list[tuple[str, str]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)

    def summary(self) -> str:
        """The folder's content in one sentence."""
        n = len(self)
        kinds = ", ".join(f"{k} {g}" for g, k in self.games["game"].value_counts().sort_index().items()) if n else ""
        text = f"{n} class game{'s' * (n != 1)} in {self.folder}" + (f" ({kinds})" if kinds else "")
        if self.skipped:
            text += f"; {len(self.skipped)} file{'s' * (len(self.skipped) != 1)} skipped"
        return text

    def __repr__(self) -> str:
        return f"<ClassGames: {self.summary()}>"


# ---------------------------------------------------------------------------------------------- reading files
def _folder(folder) -> Path:
    if isinstance(folder, bool) or not isinstance(folder, (str, os.PathLike)) or not str(folder).strip():
        raise HeimlichError(f"a class folder is a folder's path (a string or a Path), not {folder!r}")
    path = Path(folder).expanduser()
    if path.exists() and not path.is_dir():
        raise HeimlichError(f"{path} is a file, not a class folder")
    return path


def _check_game(game) -> None:
    if game is not None and game not in game_names():
        raise HeimlichError(f"game is one of {', '.join(game_names())} (or None for all), not {game!r}")


def _read_record(d: object, source: str):
    """A full, finished record of any registered game from its dict, checked (replayed); RecordError otherwise."""
    if not isinstance(d, dict):
        raise RecordError(f"{source}: 'record' must be a JSON object")
    try:
        cls = spec_of_record(d).load("record")
    except HeimlichError as e:
        raise RecordError(f"{source}: {e}") from None
    rec = cls.from_dict(d, source=source, check=True)
    if not rec.is_full:
        raise RecordError(f"{source}: a {rec.view} record; class data need the full record (as the board saves it)")
    if rec.result is None:
        raise RecordError(f"{source}: the game is not finished")
    return rec


def _read_envelope(d: dict, source: str) -> tuple[object, dict, str | None]:
    """(record, {player: kind}, saved_at) from a class-game file's object, every field checked."""
    if type(d.get("version")) is not int or d["version"] != CLASS_GAME_VERSION:
        raise RecordError(f"{source}: unknown class-game version {d.get('version')!r}; this heimlich-lab reads "
                          f"{CLASS_GAME_VERSION}")
    game = d.get("game")
    if game not in game_names():
        raise RecordError(f"{source}: 'game' must be one of {', '.join(game_names())}, not {game!r}")
    rec = _read_record(d.get("record"), source)
    if _game_name(rec) != game:
        raise RecordError(f"{source}: the file says {game}, but its record is of the other game")
    seats = d.get("seats")
    if not (isinstance(seats, list) and all(isinstance(s, dict) for s in seats)):
        raise RecordError(f"{source}: 'seats' must be a list of objects")
    names = [s.get("player") for s in seats]
    if names != list(rec.players):
        raise RecordError(f"{source}: 'seats' name {names}, but the record's players are {list(rec.players)}")
    kinds = {}
    for s in seats:
        if s.get("kind") not in KINDS:
            raise RecordError(f"{source}: seat {s.get('player')!r}: 'kind' must be human or bot, not {s.get('kind')!r}")
        if s["kind"] == "bot" and not isinstance(s.get("bot"), str):
            raise RecordError(f"{source}: seat {s['player']!r}: a bot's seat names the bot ('bot')")
        kinds[s["player"]] = s["kind"] if s["kind"] == "human" else f"bot:{s['bot']}"
    humans = [p for p, k in kinds.items() if k == "human"]
    if not humans:
        raise RecordError(f"{source}: no human seat: a class game is a game people played")
    consent = d.get("consent")
    agreed = consent.get("agreed") if isinstance(consent, dict) else None
    if not (isinstance(agreed, list) and set(humans) <= set(agreed) <= set(humans)):
        raise RecordError(f"{source}: saved without the consent of every human seat "
                          f"(humans {humans}, agreed {agreed!r})")
    saved_at = d.get("saved_at")
    try:
        _dt.datetime.fromisoformat(str(saved_at).replace("Z", "+00:00"))
    except ValueError:
        raise RecordError(f"{source}: 'saved_at' must be a UTC time in ISO 8601, not {saved_at!r}") from None
    return rec, kinds, saved_at


def _read_file(path: Path):
    """(record, kinds or None, saved_at or None) of one file; RecordError saying why it cannot be used."""
    source = path.name
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise RecordError(f"{source}: cannot read it ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{source}: not UTF-8 text") from None
    try:
        d = json.loads(text)
    except RecursionError:
        raise RecordError(f"{source}: JSON nested too deeply") from None
    except ValueError as e:
        raise RecordError(f"{source}: not valid JSON ({e})") from None
    if not isinstance(d, dict):
        raise RecordError(f"{source}: not a class game or a record (a JSON {type(d).__name__})")
    if d.get("format") == CLASS_GAME_FORMAT:
        return _read_envelope(d, source)
    if d.get("format") == RECORD_FORMAT:
        return _read_record(d, source), None, None
    raise RecordError(f"{source}: not a class game or a record (format {d.get('format')!r})")


def _scan(folder: Path, game: str | None):
    """The folder's usable files ``[(path, record, kinds, saved_at)]`` in name order, the ``.json`` files that
    cannot be used ``[(name, reason)]``, and the other entries' names (not read)."""
    entries: list[tuple] = []
    skipped: list[tuple[str, str]] = []
    ignored: list[str] = []
    seen: dict[str, str] = {}
    if not folder.exists():
        return entries, skipped, ignored
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.startswith("."):       # temporary files of a save in progress, .ipynb_checkpoints
            continue
        if path.is_dir() or path.suffix.lower() != ".json":
            ignored.append(path.name)       # sub-folders, notes, anything that is not a .json file
            continue
        try:
            rec, kinds, saved_at = _read_file(path)
        except RecordError as e:
            reason = str(e)
            skipped.append((path.name, reason[len(path.name) + 2:] if reason.startswith(path.name + ": ") else reason))
            continue
        except Exception as e:  # noqa: BLE001 - one odd file never stops the whole load
            skipped.append((path.name, f"cannot be read: {type(e).__name__}: {e}"))
            continue
        key = json.dumps(rec.to_dict(), sort_keys=True)
        if key in seen:
            skipped.append((path.name, f"the same game as {seen[key]}"))
            continue
        seen[key] = path.name
        if game is not None and _game_name(rec) != game:
            continue
        entries.append((path, rec, kinds, saved_at))
    return entries, skipped, ignored


def _report(folder: Path, skipped: list[tuple[str, str]]) -> None:
    if not skipped:
        return
    n = len(skipped)
    lines = [f"Skipped {n} file{'s' * (n != 1)} in {folder}:"]
    lines += [f"  {name}: {why}" for name, why in skipped[:_REPORT_MAX]]
    if n > _REPORT_MAX:
        lines.append(f"  and {n - _REPORT_MAX} more (all of them: .skipped)")
    print("\n".join(lines))


# ---------------------------------------------------------------------------------------------- tables
def _game_name(rec) -> str:
    return spec_of_record_object(rec).name


def _table_spec(rec):
    """The tournament table's spec of the record's game (its ``rules_label`` and ``identities``)."""
    return spec_of_record_object(rec).load("tournament")


def _variant(rec) -> str:
    return _table_spec(rec).rules_label(rec.rules)


def _seat_kind(kinds: dict | None, player: str) -> tuple[str, object, object]:
    """(controller, is_human, bot) of a seat."""
    if kinds is None:
        return "unknown", pd.NA, pd.NA
    k = kinds[player]
    return ("human", True, pd.NA) if k == "human" else ("bot", False, k[len("bot:"):])


def _identities(rec) -> tuple[dict, dict, dict]:
    """Per player: (who they secretly were, what counted at the end, final score), as the game says."""
    return _table_spec(rec).identities(rec)


def _decision_rows(game_id: str, rec, kinds: dict | None, common: dict) -> tuple[list[dict], int]:
    """One row per logged decision of a player (chance events left out), and the game's number of turns."""
    rows: list[dict] = []
    identity = _identities(rec)[0]
    winners = set(rec.winners or ())
    seat_of = {p: i + 1 for i, p in enumerate(rec.players)}
    entries = rec.entries()
    turns = 0
    for k, g in rec.games(source=game_id):
        turns = g.turn
        if k >= len(entries):
            break
        actor, notation = entries[k][0], str(entries[k][1])
        if actor not in seat_of:
            continue
        controller, is_human, bot = _seat_kind(kinds, actor)
        rows.append({**common, "decision": len(rows), "log_index": k, "turn": g.turn, "phase": g.phase,
                     "seat": seat_of[actor], "player": actor, "controller": controller, "is_human": is_human,
                     "bot": bot, "kind": notation.split()[0], "notation": notation,
                     "n_options": len(g.legal_actions()), "identity": identity[actor], "won": actor in winners})
    return rows, turns


def _frame(rows: list[dict], schema: dict) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(schema))
    return df.astype(schema) if len(df) else pd.DataFrame({c: pd.Series(dtype=t) for c, t in schema.items()})


def _tables(entries) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    decisions, seats, games = [], [], []
    for path, rec, kinds, saved_at in entries:
        gid = path.stem
        common = {"game_id": gid, "game": _game_name(rec), "variant": _variant(rec), "n_players": len(rec.players)}
        rows, turns = _decision_rows(gid, rec, kinds, common)
        decisions += rows
        identity, final, score = _identities(rec)
        winners = list(rec.winners or ())
        for i, p in enumerate(rec.players):
            controller, is_human, bot = _seat_kind(kinds, p)
            seats.append({**common, "seat": i + 1, "player": p, "controller": controller, "is_human": is_human,
                          "bot": bot, "identity": identity[p], "final": final[p], "score": score[p],
                          "won": p in winners, "n_decisions": sum(r["player"] == p for r in rows)})
        n_humans = pd.NA if kinds is None else sum(k == "human" for k in kinds.values())
        games.append({**common, "file": path.name,
                      "saved_at": pd.Timestamp(saved_at.replace("Z", "+00:00")) if saved_at else pd.NaT,
                      "players": ",".join(rec.players), "n_humans": n_humans,
                      "n_bots": pd.NA if kinds is None else len(rec.players) - n_humans,
                      "winners": ",".join(winners), "n_winners": len(winners),
                      "scores": ",".join(f"{p}={score[p]}" for p in rec.players), "n_turns": turns,
                      "n_actions": len(rec.log), "n_decisions": len(rows),
                      "seed": "" if rec.seed is None else str(rec.seed)})
    return _frame(decisions, DECISION_COLUMNS), _frame(seats, SEAT_COLUMNS), _frame(games, GAME_COLUMNS)


# ---------------------------------------------------------------------------------------------- the API
def load_class_games(folder, game: str | None = None, *, quiet: bool = False) -> ClassGames:
    """Read a class folder: every game the board saved there (and plain record files), checked, as tables.

    ``game``: a registered game's name (:func:`heimlich_lab.engine.registry.game_names`) or ``None`` (all). Each file is
    checked as the record layer checks a record (a full record is replayed: a changed move, deal or result is refused)
    and as a class-game file (its seats name the record's players, at least one is human, every human agreed). A file
    that fails, a non-JSON file or a second copy of a game is skipped and named with the reason (printed unless
    ``quiet``; kept in ``.skipped``); the load itself never fails on a file. Files that are not ``.json`` and
    sub-folders are not read (``.ignored``); nor are hidden files (a save in progress). A folder that does not exist
    holds no games.

    >>> import tempfile
    >>> cg = load_class_games(Path(tempfile.mkdtemp()))
    >>> len(cg), cg.decisions.shape, list(cg.games.columns[:4])
    (0, (0, 18), ['game_id', 'file', 'game', 'saved_at'])
    """
    _check_game(game)
    path = _folder(folder)
    entries, skipped, ignored = _scan(path, game)
    if not quiet:
        _report(path, skipped)
    decisions, seats, games = _tables(entries)
    records = ClassRecords([e[1] for e in entries], source="class", folder=path, files=[e[0] for e in entries],
                           seats=[_kinds_of(e[1], e[2]) for e in entries])
    return ClassGames(path, records, decisions, seats, games, skipped, ignored)


def _kinds_of(rec, kinds: dict | None) -> dict:
    return {p: ("unknown" if kinds is None else "human" if kinds[p] == "human" else "bot") for p in rec.players}


def class_records(folder, game: str | None = None, *, n_players: int | None = None,
                  quiet: bool = False) -> ClassRecords:
    """The class's finished full records of ``game`` in ``folder`` (checked; unusable files skipped and named),
    optionally only those with ``n_players`` players: a :class:`ClassRecords`, ready for fitting
    (``fit_boltzmann(recs, players=recs.fit_players)``). ``game``: a registered game's name (``None``: the
    default game, the kit's first)."""
    game = default_game() if game is None else game
    _check_game(game)
    path = _folder(folder)
    entries, skipped, _ = _scan(path, game)
    if not quiet:
        _report(path, skipped)
    if n_players is not None:
        entries = [e for e in entries if len(e[1].players) == n_players]
    return ClassRecords([e[1] for e in entries], source="class", folder=path, files=[e[0] for e in entries],
                        seats=[_kinds_of(e[1], e[2]) for e in entries])


def class_games_or_simulated(folder, simulate: Callable[[int], object], n: int, game: str | None = None, *,
                             n_players: int | None = None, min_games: int = 1) -> tuple[ClassRecords, str]:
    """``(records, source)``: the class's games in ``folder`` if there are at least ``min_games`` of them
    (``source == "class"``), else ``[simulate(k) for k in range(n)]`` (``source == "simulated"``). Prints one
    sentence that says which, e.g. ``Using 23 games your class played, from class-games`` or ``No class
    games found in class-games: using 40 games of simulated bots instead``.

    ``simulate(k)`` plays simulated game ``k`` and returns its record (seed it with ``k``: the same games each
    run). ``n_players``: use only class games with that many players. ``records.fit_players`` is what the
    fits take as ``players=`` (the humans of each class game; ``None`` for simulated games). ``game``: a
    registered game's name (``None``: the default game).
    """
    game = default_game() if game is None else game
    _check_game(game)
    if not callable(simulate):
        raise HeimlichError(f"simulate must be a function simulate(k) -> record, not {simulate!r}")
    if type(n) is not int or n < 1 or type(min_games) is not int or min_games < 1:
        raise HeimlichError(f"n and min_games must be whole numbers >= 1, not n={n!r}, min_games={min_games!r}")
    path = _folder(folder)
    records = class_records(path, game, n_players=n_players) if path.exists() else ClassRecords(folder=path)
    which = f"{n_players}-player " if n_players is not None else ""
    if len(records) >= min_games:
        k = len(records)
        print(f"Using {k} {which}game{'s' * (k != 1)} your class played, from {path}")
        return records, "class"
    if not path.exists():
        why = f"No class games found in {path} (no such folder)"
    elif len(records) == 0:
        why = f"No {which}class games found in {path}"
    else:
        why = f"Only {len(records)} {which}class game{'s' * (len(records) != 1)} in {path} (fewer than {min_games})"
    sims = []
    for k in range(n):
        rec = simulate(k)
        if not isinstance(rec, game_spec(game).load("record")):
            raise HeimlichError(f"simulate({k}) must return a finished {game} record, not {type(rec).__name__}")
        sims.append(rec)
    print(f"{why}: using {n} games of simulated bots instead")
    return ClassRecords(sims, source="simulated", folder=path), "simulated"


__all__ = ["ClassGames", "ClassRecords", "DECISION_COLUMNS", "GAME_COLUMNS", "SEAT_COLUMNS", "class_records",
           "class_games_or_simulated", "load_class_games"]
