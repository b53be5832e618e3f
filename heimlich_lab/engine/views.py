"""What every game's views share: the :class:`Event` (one thing that happened, as a viewer saw it), the words
for whose view it is (:func:`view_label`), and :class:`ViewBase`, the fields every view has
(:class:`~heimlich_lab.engine.contract.ViewProtocol`).

>>> e = Event("roll", {"player": "Ann", "face": "4"})
>>> e.player, e.face, e.card
('Ann', '4', None)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .words import possessive


@dataclass(frozen=True)
class Event:
    """One thing that happened, as a viewer saw it: ``kind`` and ``data``; fields hidden from the viewer are
    ``None`` (and ``hidden`` is true). A field reads as an attribute (``e.player``; ``None`` if absent).
    Each game's events are listed in its own views module."""

    kind: str
    data: dict[str, Any]
    hidden: bool = False

    @property
    def player(self) -> str | None:
        return self.data.get("player")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self.__dict__["data"].get(name)
        except KeyError:  # pragma: no cover
            raise AttributeError(name) from None


def copy_data(data: Any) -> Any:
    """A copy of an event's data (its dicts and lists too): a bot that changes what its view handed out
    changes its own copy, never the game's log that every player's view and belief read.

    >>> d = {"scores": {"Ann": 3}, "cards": ("spy",)}
    >>> c = copy_data(d); c["scores"]["Ann"] = 99; d["scores"]
    {'Ann': 3}
    """
    t = type(data)
    if t is dict:
        return {k: copy_data(v) for k, v in data.items()}
    if t is list:
        return [copy_data(v) for v in data]
    return data


class AllEvents:
    """The omniscient view's "own events": every raw event is its own (``get(i)``, as a dict of the viewer's
    own events answers)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: list[Any]) -> None:
        self._raw = raw

    def get(self, i: int) -> Any:
        return self._raw[i]


def view_label(viewer: str | None, omniscient: bool = False) -> str:
    """Whose view it is, in words: a player's, the spectator's, or the omniscient one.

    >>> view_label("Ann"), view_label("You"), view_label(None)
    ("Ann's view", 'Your view', 'Spectator (public information only)')
    """
    if omniscient:
        return "Omniscient (all secrets shown)"
    if viewer is None:
        return "Spectator (public information only)"
    return f"{possessive(viewer)} view"


class ViewBase:
    """The fields every game's view has: ``viewer`` (``None`` for the spectator), ``kind`` (``"player"``,
    ``"spectator"`` or ``"omniscient"``), ``players``, ``rules``, ``phase``, ``current_player``,
    ``active_player``, ``turn``, ``is_over`` and ``winners``; its :attr:`label` and ``repr``. A game's view
    adds its own fields (``__slots__``) and is made by ``View._of(game, player, omniscient=False)``."""

    __slots__ = ("viewer", "kind", "players", "rules", "phase", "current_player", "active_player", "turn",
                 "is_over", "winners")
    viewer: str | None
    kind: str
    players: tuple[str, ...]
    rules: Any
    phase: str
    current_player: str | None
    active_player: str | None
    turn: int
    is_over: bool
    winners: tuple[str, ...] | None
    #: How ``repr`` names a view of this game.
    REPR_NAME: ClassVar[str] = "View"

    @property
    def label(self) -> str:
        """Whose view this is, in words."""
        return view_label(self.viewer, omniscient=self.kind == "omniscient")

    def __repr__(self) -> str:
        return f"<{self.REPR_NAME}: {self.label}, turn {self.turn}, {self.phase}>"

    def _repr_html_(self) -> str:
        """How a notebook shows it: the game's ``display`` (its spec), else a table
        (:mod:`heimlich_lab.engine.display`)."""
        from .display import html_of
        return html_of(self)
