"""The one protocol of every reader of a game's public decision stream, in every game (game-agnostic).

A game gives each observer (a player, or ``None`` for a spectator) the stream of what that observer saw, one item
per logged action: in Heimlich & Co. a :class:`~heimlich_lab.rules.replay.Decision`
(:func:`~heimlich_lab.rules.replay.public_decisions` for a record, a
:class:`~heimlich_lab.rules.replay.DecisionStream` for a live game), in Secrets an
:class:`~heimlich_lab.rules.views.Event` of the observer's view (``view.log``, ``view.log_since(n)``). A
*reader* takes the items of one observer's stream in order with ``add(item)``: the beliefs of both games, the
teaching baselines, the dossier notes, the transcripts, and the live panels that feed them. A reader that can
also catch up with a live game from the observer's view has ``sync(view)``.

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> from heimlich_lab.rules.replay import public_decisions
>>> from heimlich_lab.transcript import TranscriptWriter, transcript
>>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
>>> writer = read_all(TranscriptWriter("Bob"), public_decisions(rec, "Bob"))
>>> isinstance(writer, DecisionReader), writer.lines == transcript(rec, "Bob")
(True, True)
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = ["DecisionReader", "ViewFollower", "read_all"]


@runtime_checkable
class DecisionReader(Protocol):
    """Reads one observer's public decision stream, one item at a time, in order.

    ``observer`` is whose stream it reads (a player, or ``None`` for a spectator). ``add(item)`` takes the next
    item and returns what it made of it (a belief's step or update, or ``None`` when nothing changed); an item
    the reader cannot take raises a :class:`~heimlich_lab.errors.HeimlichError`.
    """

    observer: str | None

    def add(self, item: Any) -> Any:
        """Take the next item of the stream."""
        ...


@runtime_checkable
class ViewFollower(DecisionReader, Protocol):
    """A reader that also catches up with a live game from the observer's view: ``sync(view)`` takes every item
    of the view's log it has not taken yet (the live panels of a board call it after each action)."""

    def sync(self, view: Any) -> Any:
        """Take the items of ``view``'s log not taken yet."""
        ...


R = TypeVar("R", bound=DecisionReader)


def read_all(reader: R, items: Iterable[Any]) -> R:
    """Feed ``items`` to ``reader`` in order; returns the reader."""
    for item in items:
        reader.add(item)
    return reader
