"""What every game's actions share: the hidden mark ``?``, the rule on player names, and :class:`ActionBase`
(``kind`` and ``args``, notation that round-trips through ``str()`` and :meth:`ActionBase.parse`).

A game's action class subclasses :class:`ActionBase` as a frozen dataclass (``repr=False``, so that its
repr stays the notation) and supplies ``__str__``, ``CHANCE_KINDS`` and ``_parse(text, kind, words)``, which
reads the words after the kind:

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True, repr=False)
... class Coin(ActionBase):
...     CHANCE_KINDS = frozenset({"flip"})
...     def __str__(self):
...         return " ".join([self.kind, *self.args])
...     @classmethod
...     def _parse(cls, text, kind, words):
...         need(text, kind, words, 1)
...         return cls(kind, (words[0],))
>>> a = Coin.parse("FLIP heads"); a, a.is_chance, Coin.parse(str(a)) == a
(Action.parse('flip heads'), True, True)
>>> Coin.parse("")
Traceback (most recent call last):
...
heimlich_lab.errors.NotationError: empty action
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from ..errors import NotationError

#: What a redacted action shows in place of a secret (``draw ?``, ``deal ?``).
HIDDEN = "?"
_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,23}")   # fullmatch: "Ann\n" is not a name


def check_player_name(name: str) -> str:
    """Player names are one word (letters, digits, ``_ . -``), starting with a letter; not 'free' or 'chance'."""
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name) or name.lower() in ("free", "chance", "spectator"):
        raise NotationError(
            f"player name {name!r} is not allowed: use one word of letters, digits, '_', '.', '-' "
            "(starting with a letter, at most 24 characters), not 'free', 'chance' or 'spectator'")
    return name


def assignments(text: str, words: list[str], shape: str, read: Callable[[str, str], Any]) -> list[Any]:
    """The words ``KEY=VALUE`` of an action (a deal), each read by ``read(key, value)``, in order; a word of
    another ``shape`` raises :class:`~heimlich_lab.errors.NotationError`.

    >>> assignments("deal Ann=red", ["Ann=red"], "PLAYER=COLOUR", lambda p, c: (p, c.upper()))
    [('Ann', 'RED')]
    >>> assignments("deal Ann", ["Ann"], "PLAYER=COLOUR", lambda p, c: (p, c))
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.NotationError: 'deal Ann': 'Ann' should be PLAYER=COLOUR
    """
    pairs = []
    for w in words:
        if w.count("=") != 1:
            raise NotationError(f"{text!r}: {w!r} should be {shape}")
        key, value = w.split("=")
        pairs.append(read(key, value))
    return pairs


def need(text: str, kind: str, words: list[str], n_min: int, n_max: int | None = None) -> None:
    """Raise :class:`~heimlich_lab.errors.NotationError` unless ``words`` (after the kind) are ``n_min`` to
    ``n_max`` (default ``n_min``) many."""
    n_max = n_min if n_max is None else n_max
    if not (n_min <= len(words) <= n_max):
        want = n_min if n_min == n_max else f"{n_min} to {n_max}"
        raise NotationError(f"{text!r}: '{kind}' takes {want} argument(s), got {len(words)}")


@dataclass(frozen=True, slots=True)
class ActionBase:
    """One action: ``kind`` and ``args``. ``str(action)`` is its notation; :meth:`parse` reads it back."""

    kind: str
    args: tuple[Any, ...] = ()

    #: The kinds of chance events (the rest are players' decisions).
    CHANCE_KINDS: ClassVar[frozenset[str]] = frozenset()

    @property
    def is_chance(self) -> bool:
        """True for chance events (the deal, rolls, draws, ...)."""
        return self.kind in self.CHANCE_KINDS

    @property
    def is_redacted(self) -> bool:
        """True if a secret part was hidden (``?``)."""
        return HIDDEN in self.args

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str | ActionBase) -> Self:
        """Read an action from its notation (the kind is read case-insensitively); raises
        :class:`~heimlich_lab.errors.NotationError` saying what is wrong."""
        if isinstance(text, cls):
            return text
        if not isinstance(text, str):
            raise NotationError(f"an action is a string of notation or an Action, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise NotationError("empty action")
        return cls._parse(text, words[0].lower(), words[1:])

    @classmethod
    def _parse(cls, text: str, kind: str, words: list[str]) -> Self:
        raise NotationError(f"{text!r}: unknown action {kind!r}")
