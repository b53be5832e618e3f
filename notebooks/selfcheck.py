"""The course's self-checks: answers kept as salted hashes, hints that name the mistake.

A self-check cell in a notebook calls :func:`check` with the exercise's key and the student's answer. The
expected answer is not in the notebook, nor in the student's namespace, nor in this file in readable form:
:data:`EXERCISES` keeps a salted SHA-256 digest of it (numbers rounded on a grid of ``10**-places``, so an answer
within the tolerance matches). The typical wrong answers are recognised in the same way, each with a hint
that names the mistake: a known wrong value (the library's default model instead of the simple one, the
independent answer...) is a digest too, and a *slip* (nats for bits, an unnormalised table, the complement,
a percentage) is a transformation that turns the slip back into the expected answer. Multiple-choice
questions (:func:`choose`) explain every option, right or wrong.

This file is copied next to the student copies (``student/selfcheck.py``) by ``scripts/make_student_copies.py``.

>>> key = "demo.1"
>>> EXERCISES[key] = Exercise("p", fingerprint(key, 0.25), "multiply prior by likelihood",
...                           mistakes=(Mistake("that is a percentage: use a number between 0 and 1", slip="percent"),))
>>> check(key, 0.2500001)
✓ Correct
>>> check(key, 25.0)
✗ Not yet — hint: that is a percentage: use a number between 0 and 1
>>> check(key, 0.3)
✗ Not yet — hint: multiply prior by likelihood
>>> del EXERCISES[key]
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

CORRECT = "✓ Correct"
NOT_YET = "✗ Not yet — hint: "


def _hash(key: str, index: int, token: str) -> str:
    return hashlib.sha256(f"heimlich-lab:{key}:{index}:{token}".encode()).hexdigest()[:20]


def _whole(v):
    """3.0 -> 3, so that a dict of whole numbers matches however they were computed."""
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) and float(v).is_integer():
        return int(v)
    return v


def _elements(value) -> list:
    """The answer as a flat list of numbers and strings (a mapping: its items, sorted by key)."""
    if isinstance(value, dict):
        return [f"{k}={_whole(v)}".strip().lower() for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))]
    if isinstance(value, str):
        return [value.strip().lower()]
    arr = np.asarray(value)
    if arr.dtype.kind in "biuf":
        return [float(x) for x in arr.ravel()]
    return [str(x).strip().lower() for x in arr.ravel()]


def _grid(x: float, places: int) -> int:
    return round(x * 10 ** places)


def fingerprint(key: str, value, places: int = 4) -> tuple[str, ...]:
    """The digests :func:`check` compares an answer with: one per number (rounded to ``places`` decimals) or string.

    >>> fingerprint("demo", 0.5) == fingerprint("demo", 0.50000001) != fingerprint("other", 0.5)
    True
    """
    return tuple(_hash(key, i, str(_grid(x, places)) if isinstance(x, float) else x)
                 for i, x in enumerate(_elements(value)))


def matches(key: str, value, digests: tuple[str, ...], places: int = 4) -> bool:
    """Whether ``value`` equals the answer behind ``digests`` (numbers within about ``10**-places``).

    A number is compared at its grid point and both neighbours, so that two answers closer than the tolerance
    never fall on different sides of a rounding boundary.

    >>> d = fingerprint("demo", [0.1, 0.9])
    >>> matches("demo", [0.10004, 0.89996], d), matches("demo", [0.9, 0.1], d), matches("demo", [0.1], d)
    (True, False, False)
    """
    try:
        items = _elements(value)
    except (TypeError, ValueError):
        return False
    if len(items) != len(digests):
        return False
    for i, (x, d) in enumerate(zip(items, digests)):
        if isinstance(x, float):
            if not math.isfinite(x):
                return False
            k = _grid(x, places)
            if not any(_hash(key, i, str(k + step)) == d for step in (0, -1, 1)):
                return False
        elif _hash(key, i, x) != d:
            return False
    return True


#: Slips: a transformation that turns a typical slip back into the right answer.
SLIPS = {
    "nats": lambda a: np.asarray(a, dtype=float) / math.log(2),           # natural log instead of log2
    "percent": lambda a: np.asarray(a, dtype=float) / 100,
    "complement": lambda a: 1 - np.asarray(a, dtype=float),               # the other event, the wrong direction
    "unnormalised": lambda a: np.asarray(a, dtype=float) / np.sum(a),     # forgot to divide by the total
}


@dataclass(frozen=True)
class Mistake:
    """A foreseeable wrong answer and the hint for it: either a known wrong value (``answer``, digests made with
    :func:`fingerprint` under the exercise's key) or a ``slip`` (a name in :data:`SLIPS`)."""
    hint: str
    answer: tuple[str, ...] | None = None
    slip: str | None = None

    def __post_init__(self):
        if (self.answer is None) == (self.slip is None):
            raise ValueError("a Mistake has either answer digests or a slip")
        if self.slip is not None and self.slip not in SLIPS:
            raise ValueError(f"unknown slip {self.slip!r}; slips are {', '.join(SLIPS)}")


@dataclass(frozen=True)
class Exercise:
    """One exercise: the answer's name (for the 'define ...' message), its digests, the hint for an answer that
    is no foreseeable mistake, the foreseeable mistakes, and the tolerance."""
    name: str
    answer: tuple[str, ...]
    hint: str
    mistakes: tuple[Mistake, ...] = ()
    places: int = 4

    def verdict(self, key: str, value) -> str:
        if matches(key, value, self.answer, self.places):
            return CORRECT
        for m in self.mistakes:
            if m.answer is not None and matches(key, value, m.answer, self.places):
                return NOT_YET + m.hint
            if m.slip is not None:
                try:
                    back = SLIPS[m.slip](value)
                except (TypeError, ValueError, ZeroDivisionError):
                    continue
                if matches(key, back, self.answer, self.places):
                    return NOT_YET + m.hint
        return NOT_YET + self.hint


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question: the digest of the right letter and an explanation for every option."""
    answer: tuple[str, ...]
    feedback: dict[str, str] = field(default_factory=dict)

    def verdict(self, key: str, letter) -> str:
        letter = str(letter).strip().lower()
        if letter not in self.feedback:
            return NOT_YET + f"answer with one of the letters {', '.join(sorted(self.feedback))}, as a string."
        if matches(key, letter, self.answer):
            return f"{CORRECT}. {self.feedback[letter]}"
        return NOT_YET + self.feedback[letter]


def check(key: str, value) -> None:
    """Print whether ``value`` answers exercise ``key``: '✓ Correct' or '✗ Not yet — hint: ...'."""
    print(EXERCISES[key].verdict(key, value))


def choose(key: str, letter) -> None:
    """Print the feedback on option ``letter`` of multiple-choice question ``key``."""
    print(EXERCISES[key].verdict(key, letter))


#: Every exercise and question of the course, by key "<notebook>.<name>". Digests come from the solution
#: notebooks (tests/test_course.py checks that every solution passes and every foreseeable mistake gets its hint).
EXERCISES: dict[str, Exercise | Choice] = {}

EXERCISES.update({
    # notebook 0, the rules primer
    "00.q_pass": Choice(("83873550f0e86ac38cb0",), {
        "a": "passing through the safe's building does not count: the agent must END its move there.",
        "b": "A scoring needs an agent that was moved this turn to stop in the safe's building; red only walked "
             "through it.",
        "c": "there is no scoring here at all; and when there is one, EVERY agent scores, not only the one "
             "that was moved.",
    }),
    "00.q_free": Choice(("beebef636660a47e9711",), {
        "a": "a free agent in a tie for farthest takes nothing away: the owned agents tied with it still win "
             "(docs/rules.md#game-end). Nobody wins only when a free agent is farthest ALONE.",
        "b": "Red is tied for farthest and is owned, so Bob wins; the free agent in the tie wins nothing and "
             "takes nothing away (docs/rules.md#game-end).",
        "c": "only the agents that went FARTHEST count; grey at 41 is behind.",
    }),
    "00.gains": Exercise(
        "gains",
        ("f99bcebfc6561e8581fe", "8494c1c62cbf1f465133", "268ca164dc1d5673d661", "c9d257ae802d24cdf0c5",
         "0803357b9c3e2666e643", "9cc0005c2964605230d6"),
        "every agent scores the value of the building it stands on AFTER the move; the Ruins count -3.",
        mistakes=(
            Mistake("the Ruins take 3 away, but a marker never goes below 0: look at red's marker before the "
                    "scoring.",
                    answer=("f99bcebfc6561e8581fe", "8494c1c62cbf1f465133", "268ca164dc1d5673d661",
                            "c9d257ae802d24cdf0c5", "5bd2468393916f3e47e5", "9cc0005c2964605230d6")),
            Mistake("EVERY agent scores in a scoring, not only the agents that were moved.",
                    answer=("f99bcebfc6561e8581fe", "8494c1c62cbf1f465133", "684835c429e8863132c1",
                            "e0d7c9a107ee4cfc91e4", "b9603fb5787b6d6aab3d", "9cc0005c2964605230d6")),
            Mistake("score the buildings the agents stand on AFTER Ann's move (yellow walks from 10 into the Ruins).",
                    answer=("9af13a23caa9ed9e6bac", "8494c1c62cbf1f465133", "268ca164dc1d5673d661",
                            "c9d257ae802d24cdf0c5", "0803357b9c3e2666e643", "0510f787fb13bd1b3088")),
            Mistake("score the buildings the agents stand on AFTER Ann's move (yellow walks from 10 into the Ruins), "
                    "and a marker never goes below 0.",
                    answer=("9af13a23caa9ed9e6bac", "8494c1c62cbf1f465133", "268ca164dc1d5673d661",
                            "c9d257ae802d24cdf0c5", "5bd2468393916f3e47e5", "0510f787fb13bd1b3088")),
        )),
})
