"""Formative feedback for the course's exercises: checks that never know the answer.

Each function takes the *name* of the student's variable, reads it from the calling notebook's namespace
and prints one friendly line about its form: that it is a probability, that a table sums to 1, that an array
has the asked shape, that a value moved the asked way. None of them knows, or can be used to search for, the
expected answer: graded checks are hidden tests that the student release does not contain. They never raise, so
a student copy with blank answers still runs top to bottom; a missing answer prints ``not answered yet``.

>>> p_red = 0.3
>>> probability("p_red")
p_red: a probability (0.3). The graded check runs when you hand the notebook in.
>>> probability("p_blue")
p_blue: not answered yet.
>>> table = {"Ann": 0.25, "Bob": 0.5}
>>> distribution("table")
table: the numbers sum to 0.75, not 1: normalise them (divide by their sum).
>>> q1 = "e"
>>> choice("q1", options="abcd")
q1: choose one of a, b, c, d (you wrote 'e').
"""
from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["probability", "distribution", "number", "shape", "choice", "direction"]

_MISSING = object()
_GRADED = "The graded check runs when you hand the notebook in."


def _lookup(name: str, depth: int = 2) -> Any:
    """The value bound to ``name`` in the caller's caller's namespace (a notebook's globals), or _MISSING."""
    frame = sys._getframe(depth)
    for scope in (frame.f_locals, frame.f_globals):
        if name in scope:
            value = scope[name]
            return _MISSING if value is None else value
    return _MISSING


def _say(name: str, text: str) -> None:
    print(f"{name}: {text}")


def _as_float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return x


def probability(name: str) -> None:
    """Say whether ``name`` holds one probability: a finite number from 0 to 1 (not a percentage)."""
    value = _lookup(name)
    if value is _MISSING:
        return _say(name, "not answered yet.")
    x = _as_float(value)
    if x is None or not math.isfinite(x):
        return _say(name, f"a probability is one number; got {type(value).__name__}.")
    if 1 < x <= 100:
        return _say(name, f"{x:g} looks like a percentage: write a number between 0 and 1.")
    if not 0 <= x <= 1:
        return _say(name, f"{x:g} is not a probability: it must lie between 0 and 1.")
    _say(name, f"a probability ({x:.4g}). {_GRADED}")


def _values(value: Any) -> np.ndarray | None:
    if isinstance(value, Mapping):
        value = list(value.values())
    elif hasattr(value, "to_numpy"):
        value = value.to_numpy()
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return arr


def distribution(name: str, labels: Any = None) -> None:
    """Say whether ``name`` is a probability distribution: non-negative numbers summing to 1.

    ``labels``: the outcomes it should cover (keys of a dict or index of a Series), if given.
    """
    value = _lookup(name)
    if value is _MISSING:
        return _say(name, "not answered yet.")
    arr = _values(value)
    if arr is None or arr.size == 0 or not np.all(np.isfinite(arr)):
        return _say(name, "a distribution is a table of finite numbers (a dict, a Series or an array).")
    if labels is not None:
        keys = list(value.keys()) if isinstance(value, Mapping) else list(getattr(value, "index", []))
        missing = [str(k) for k in labels if k not in keys]
        if missing:
            return _say(name, f"it should have an entry for each outcome; missing: {', '.join(missing)}.")
    if np.any(arr < 0):
        return _say(name, "probabilities cannot be negative.")
    total = float(arr.sum())
    if abs(total - 1) > 1e-6:
        return _say(name, f"the numbers sum to {total:.4g}, not 1: normalise them (divide by their sum).")
    _say(name, f"a distribution over {arr.size} outcomes. {_GRADED}")


def number(name: str, integer: bool = False, low: float | None = None, high: float | None = None) -> None:
    """Say whether ``name`` is a number (a whole one if ``integer``) inside a broad plausible range."""
    value = _lookup(name)
    if value is _MISSING:
        return _say(name, "not answered yet.")
    x = _as_float(value)
    if x is None or not math.isfinite(x):
        return _say(name, f"expected one number; got {type(value).__name__}.")
    if integer and not float(x).is_integer():
        return _say(name, f"expected a whole number; got {x:g}.")
    if (low is not None and x < low) or (high is not None and x > high):
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        return _say(name, f"{x:g} is outside the plausible range [{lo}, {hi}]: check your model.")
    _say(name, f"a number ({x:.6g}). {_GRADED}")


def shape(name: str, expected: tuple[int, ...]) -> None:
    """Say whether ``name`` (an array or a DataFrame) has the asked shape."""
    value = _lookup(name)
    if value is _MISSING:
        return _say(name, "not answered yet.")
    got = getattr(value, "shape", None)
    if got is None:
        try:
            got = np.shape(value)
        except (TypeError, ValueError):
            return _say(name, "expected an array or a table.")
    if tuple(got) != tuple(expected):
        return _say(name, f"shape {tuple(got)}, expected {tuple(expected)}.")
    _say(name, f"shape {tuple(got)}, as asked. {_GRADED}")


def choice(name: str, options: str = "abc") -> None:
    """Say whether ``name`` is one of the multiple-choice letters (never whether it is the right one)."""
    value = _lookup(name)
    if value is _MISSING:
        return _say(name, "not answered yet.")
    letters = ", ".join(options)
    if not isinstance(value, str) or value.strip().lower() not in options:
        return _say(name, f"choose one of {letters} (you wrote {value!r}).")
    _say(name, f"your choice is recorded ({value.strip().lower()}). {_GRADED}")


def direction(name: str, than: str, way: str) -> None:
    """Say whether ``name`` moved ``way`` ("up" or "down") from the value of the variable ``than``."""
    if way not in ("up", "down"):
        raise ValueError(f"way must be 'up' or 'down', not {way!r}")
    value, before = _lookup(name), _lookup(than)
    if value is _MISSING:
        return _say(name, "not answered yet.")
    x, b = _as_float(value), _as_float(before) if before is not _MISSING else None
    if x is None or b is None:
        return _say(name, f"expected numbers in {name} and {than}.")
    moved = "up" if x > b else "down" if x < b else "nowhere"
    if moved != way:
        return _say(name, f"it moved {moved} from {than} ({b:.4g} -> {x:.4g}); the evidence should move it {way}.")
    _say(name, f"it moved {way} from {than}, as the evidence should. {_GRADED}")
