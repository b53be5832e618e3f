"""Saving and resuming a tournament: the table's columns, Parquet/CSV files, and the sink that
writes finished games as they come in.

With ``tournament(..., out="results.parquet")`` (or ``.csv``) finished games are written every
``flush_every`` seconds and always when the run stops (also on Ctrl-C, which waits for a write
in progress); running the same call again skips the games already in the file.
:func:`load_results` reads a file back.
"""
from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable

import pandas as pd
from filelock import FileLock

from .._compat import legacy_exports
from ..engine.registry import default_game, game_spec, games
from ..errors import HeimlichError
from .results_check import checked_csv, checked_parquet

#: What a column's kind (a game's ``TournamentSpec.columns``) makes its dtype.
_DTYPES = {"int": "int64", "bool": bool, "str": str, "float": float}


def _kinds(game: str | None) -> dict[str, str]:
    return dict(game_spec(game).load("tournament").columns)


def columns_of(game: str | None = None) -> tuple[str, ...]:
    """The columns of a tournament table of ``game`` (its spec's, in order; ``None``: the default game)."""
    return tuple(_kinds(game))


def game_of(df: pd.DataFrame) -> str:
    """Which game a tournament table holds: the one its ``game`` column names, else the game whose columns it
    has (the most of them; a table of the default game has no ``game`` column)."""
    if "game" in df.columns and len(df):
        return str(df["game"].iloc[0])
    present = set(df.columns)
    fits = [s for s in games() if set(s.load("tournament").columns) <= present]
    if not fits:
        return default_game()
    return max(fits, key=lambda s: len(s.load("tournament").columns)).name


def _normalize(df: pd.DataFrame) -> pd.DataFrame:
    """Column order and dtypes of a tournament table (the same whatever file it came from)."""
    df = df.copy()
    kinds = _kinds(game_of(df))
    for c, kind in kinds.items():
        if c in df:
            df[c] = df[c].astype(_DTYPES[kind])
    extra = sorted(c for c in df.columns if c not in kinds)
    return df[[c for c in kinds if c in df.columns] + extra]


def _empty(game: str | None = None) -> pd.DataFrame:
    kinds = _kinds(game)
    return _normalize(pd.DataFrame({c: pd.Series(dtype="int64" if k == "int" else bool if k == "bool" else object)
                                    for c, k in kinds.items()}))


def _format(path: Path) -> str:
    suffix = "".join(path.suffixes[-2:]).lower() if path.suffix.lower() == ".gz" else path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".csv", ".csv.gz"):
        return "csv"
    raise HeimlichError(f"{path}: results are saved as .parquet or .csv (by the file name's extension)")


def load_results(path: "str | os.PathLike", game: str | None = None) -> pd.DataFrame:
    """Read a tournament table saved by :func:`tournament` (Parquet or CSV, by extension), of any game.

    A file that does not exist yet gives an empty table with the tournament columns of ``game`` (``None``:
    the default game).

    >>> load_results("no-such-file.parquet").shape[0], list(load_results("no-such.csv").columns[:3])
    (0, ['game_id', 'root_seed', 'game_index'])
    """
    path = Path(path)
    fmt = _format(path)
    if not path.exists():
        return _empty(game)
    try:    # a CSV as text: its cells are checked and converted below, not guessed by pandas
        df = pd.read_parquet(path) if fmt == "parquet" else pd.read_csv(path, dtype=str, keep_default_na=False)
    except Exception as e:  # noqa: BLE001 - a clear message instead of a pyarrow/pandas traceback
        raise HeimlichError(f"cannot read tournament results {path}: {str(e)[:300]}") from None
    missing = [c for c in columns_of(game_of(df)) if c not in df.columns]
    if missing:
        raise HeimlichError(f"{path} is not a tournament table: missing column(s) {missing}")
    check = checked_parquet if fmt == "parquet" else checked_csv
    kinds = _kinds(game_of(df))
    ints, bools, strs = (tuple(c for c, k in kinds.items() if k == kind) for kind in ("int", "bool", "str"))
    df = _normalize(check(df, str(path), ints=ints, bools=bools, strs=strs))
    df = df.drop_duplicates(["game_id", "seat"], keep="first")     # two runs that played the same game
    return df.sort_values(["root_seed", "n_players", "variant", "lineup", "game_index", "seat"],
                          kind="stable").reset_index(drop=True)


def _atomic_write(df: pd.DataFrame, path: Path, fmt: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tournament-", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        if fmt == "parquet":
            df.to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, path)
    except ImportError as e:
        os.unlink(tmp)
        if e.name not in (None, "pyarrow", "fastparquet"):  # pandas found an engine, but it is broken: show why
            raise
        raise HeimlichError(f"saving {path.name} needs a Parquet engine: pip install pyarrow "
                            f"(or save to a .csv file) [{e}]") from None
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@contextmanager
def _interrupts_deferred():
    """Hold a Ctrl-C (SIGINT) until the block is done, then raise KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt


def _keys(df: pd.DataFrame) -> pd.Series:
    """One key per row: its game and seat."""
    return df["game_id"].astype(str) + "#" + df["seat"].astype(str)


class ResultSink:
    """Collects finished games and writes them to ``out`` now and then (and at the end).

    Without ``out`` it only collects; :meth:`table` gives the games in the order asked for."""

    def __init__(self, out: "str | os.PathLike | None", flush_every: float, game: str | None = None):
        self.path = Path(out) if out is not None else None
        self.fmt = _format(self.path) if self.path is not None else None
        if self.path is not None and self.path.exists() and not self.path.is_file():   # saving replaces the file
            raise HeimlichError(f"{self.path} is not a regular file (a folder, a device or a FIFO): results are "
                                "saved in a file")
        self.flush_every = flush_every
        self.game = game = game_spec(game).name
        self.saved = load_results(self.path, game) if self.path is not None else _empty(game)
        if len(self.saved) and game_of(self.saved) != game:
            raise HeimlichError(f"{self.path} holds a {game_of(self.saved)} tournament, not {game}: "
                                f"save this one in another file")
        self.pending: list[dict] = []
        self.rows: list[dict] = []
        self._last = time.monotonic()

    def add(self, rows: list[dict]) -> None:
        self.rows.extend(rows)
        self.pending.extend(rows)
        if self.path is not None and time.monotonic() - self._last >= self.flush_every:
            self.flush()

    def flush(self) -> None:
        self._last = time.monotonic()
        if self.path is None or not self.pending:
            return
        with _interrupts_deferred():  # Ctrl-C during a write would leave half a CSV line
            self._write()

    def _write(self) -> None:
        path, fmt = self.path, self.fmt
        if path is None or fmt is None:     # flush() writes only with a file
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        new = _normalize(pd.DataFrame(self.pending))
        # Another run may write the same file: one writer at a time (a lock file beside it), and each reads
        # what is on disk before it writes, so that no game another run saved is lost.
        with FileLock(path.with_name(f".{path.name}.lock")):     # left beside it, empty (filelock's way)
            on_disk = load_results(path, self.game) if path.exists() else _empty(self.game)
            new = new[~_keys(new).isin(set(_keys(on_disk)))] if len(on_disk) else new
            append = (fmt == "csv" and path.exists()
                      and list(pd.read_csv(path, nrows=0).columns) == list(new.columns))
            if append:  # a CSV file with these columns: add the new rows at its end
                with open(path, "rb+") as f:   # a file whose last line lost its newline gets it back first
                    end = f.seek(0, os.SEEK_END)
                    if end:
                        f.seek(end - 1)
                        if f.read(1) != b"\n":
                            f.write(b"\n")
                new.to_csv(path, mode="a", header=False, index=False)
                both = pd.concat([on_disk, new], ignore_index=True)
            else:
                both = _normalize(pd.concat([on_disk, new], ignore_index=True)) if len(on_disk) else new
                _atomic_write(both, path, fmt)
        self.saved = both
        self.pending = []

    def table(self, game_ids: Iterable[str]) -> pd.DataFrame:
        """The rows of the games ``game_ids`` that are in the sink (saved or played), in that order."""
        order = {gid: i for i, gid in enumerate(game_ids)}
        parts = [self.saved[self.saved["game_id"].isin(order)]] if len(self.saved) else []
        if self.path is None and self.rows:
            parts.append(pd.DataFrame(self.rows))
        if not parts or sum(len(p) for p in parts) == 0:
            return _empty(self.game)
        df = _normalize(pd.concat(parts, ignore_index=True)) if len(parts) > 1 else _normalize(parts[0])
        df = df.assign(_order=df["game_id"].map(order)).sort_values(["_order", "seat"], kind="stable")
        return df.drop(columns="_order").reset_index(drop=True)


# the games' columns, which this module defined before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
