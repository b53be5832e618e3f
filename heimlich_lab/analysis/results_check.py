"""Checking a tournament table read from a file: every cell of the known columns has its type, or a
:class:`~heimlich_lab.errors.HeimlichError` says where the first bad one is (file, line, column, value).

A CSV file is read as text and each column converted here (pandas would turn ``won=maybe`` into ``True`` and
``score=1e30`` into -9223372036854775808 without a word); a Parquet file's columns must already have the types.

>>> import pandas as pd
>>> raw = pd.DataFrame({"score": ["12", "1e30"], "won": ["True", "False"]})
>>> checked_csv(raw, "results.csv", ints=("score",), bools=("won",), strs=())
Traceback (most recent call last):
...
heimlich_lab.errors.HeimlichError: results.csv, line 3, column score: '1e30' is not a whole number
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import HeimlichError

_INT = re.compile(r"-?[0-9]{1,19}")
_TRUE, _FALSE = {"True", "true", "1"}, {"False", "false", "0"}
_INT64 = (-(2**63), 2**63 - 1)


def _quote(value) -> str:
    if isinstance(value, np.generic):   # np.float64(1.5) is shown as 1.5
        value = value.item()
    text = repr(value)
    return text if len(text) <= 40 else text[:36] + "...'"


def _bad(where: str, row: int, column: str, value, want: str, csv: bool) -> HeimlichError:
    line = f"line {row + 2}" if csv else f"row {row}"     # a CSV's line 1 is its header
    return HeimlichError(f"{where}, {line}, column {column}: {_quote(value)} is not {want}")


def checked_csv(df: pd.DataFrame, where: str, ints, bools, strs) -> pd.DataFrame:
    """A table read from CSV as text (``dtype=str``, no NA parsing), with its known columns converted and
    checked; other columns (metrics) become numbers where every non-empty cell is one."""
    out = {}
    for c in df.columns:
        col = df[c].astype(str)
        if c in ints:
            ok = col.str.fullmatch(_INT)
            big = ok & (col.str.len() >= 19)
            if big.any():
                ok[big] = [(_INT64[0] <= int(v) <= _INT64[1]) for v in col[big]]
            if not ok.all():
                i = int(np.argmin(ok.to_numpy()))
                raise _bad(where, i, c, col.iloc[i], "a whole number", True)
            out[c] = col.astype("int64")
        elif c in bools:
            ok = col.isin(_TRUE | _FALSE)
            if not ok.all():
                i = int(np.argmin(ok.to_numpy()))
                raise _bad(where, i, c, col.iloc[i], "True or False", True)
            out[c] = col.isin(_TRUE)
        elif c in strs:
            out[c] = col
        else:
            nums = pd.to_numeric(col.where(col != "", None), errors="coerce")
            out[c] = nums if (nums.notna() | (col == "")).all() else col
    return pd.DataFrame(out, index=df.index)


def checked_parquet(df: pd.DataFrame, where: str, ints, bools, strs) -> pd.DataFrame:
    """A table read from Parquet: its known columns must hold their types (whole numbers without a gap, also
    as whole floats; booleans; text)."""
    for c in df.columns:
        col = df[c]
        if c in ints and not (pd.api.types.is_integer_dtype(col) and not pd.api.types.is_bool_dtype(col)
                              and col.notna().all()):
            bad = _first_not(col, _whole)
            if bad is not None:
                raise _bad(where, bad, c, col.iloc[bad], "a whole number", False)
        elif c in bools and not (pd.api.types.is_bool_dtype(col) and col.notna().all()):
            bad = _first_not(col, lambda v: isinstance(v, (bool, np.bool_)))
            if bad is not None:
                raise _bad(where, bad, c, col.iloc[bad], "True or False", False)
        elif c in strs and not (col.dtype != object and pd.api.types.is_string_dtype(col) and col.notna().all()):
            bad = _first_not(col, lambda v: isinstance(v, str))
            if bad is not None:
                raise _bad(where, bad, c, col.iloc[bad], "text", False)
    return df


def _whole(v) -> bool:
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (int, np.integer)):
        return _INT64[0] <= int(v) <= _INT64[1]
    if isinstance(v, (float, np.floating)):
        return bool(np.isfinite(v)) and float(v).is_integer() and bool(-(2.0**63) <= v < 2.0**63)
    return False


def _first_not(col: pd.Series, ok) -> int | None:
    """The position of the first value that is not ``ok``, or ``None``."""
    for i, v in enumerate(col):
        if not ok(v):
            return i
    return None
