"""The contract every game of the kit implements, declared once (as OpenSpiel's ``pyspiel.Game`` / ``State`` and
python-chess's ``BaseVisitor`` declare theirs): a game, an action, a view, a record, and the bot that plays.

These are :class:`typing.Protocol` classes: a game's classes need not inherit from them (the engine's shared
parts, :class:`~heimlich_lab.engine.game.GameBase`, :class:`~heimlich_lab.engine.actions.ActionBase`,
:class:`~heimlich_lab.engine.views.ViewBase` and :class:`~heimlich_lab.engine.records.RecordBase`, implement
most of them), and ``isinstance`` checks that the names are there (``runtime_checkable``).

>>> from heimlich_lab.games.secrets.game import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=1)
>>> isinstance(g, GameProtocol), isinstance(g.legal_actions()[0], ActionProtocol)
(True, True)
>>> isinstance(g.view("Ann"), ViewProtocol), isinstance(g.record, RecordProtocol)
(True, True)
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

#: Who acts at a chance node (the deal, a roll, a draw): the actor of chance events in histories and logs.
CHANCE = "chance"


@runtime_checkable
class ActionProtocol(Protocol):
    """One decision or chance event. ``str(action)`` is its notation and ``parse`` reads it back:
    ``type(a).parse(str(a)) == a``."""

    kind: str
    args: tuple[Any, ...]

    @property
    def is_chance(self) -> bool: ...

    @property
    def is_redacted(self) -> bool:
        """Whether a secret part is hidden (``?``), as in a public or a player's record."""

    @classmethod
    def parse(cls, text: str) -> ActionProtocol: ...


@runtime_checkable
class ViewProtocol(Protocol):
    """What one player (or the spectator, ``viewer=None``) may know now; ``kind`` is ``"player"``,
    ``"spectator"`` or ``"omniscient"``. ``log`` lists the events as the viewer saw them."""

    viewer: str | None
    kind: str
    players: tuple[str, ...]
    phase: str
    current_player: str | None
    is_over: bool

    @property
    def log(self) -> Sequence[Any]: ...

    @property
    def label(self) -> str: ...


@runtime_checkable
class GameProtocol(Protocol):
    """A game: explicit state, explicit chance (``chance="auto"`` draws it from the seeded generator,
    ``"manual"`` makes it actions too), the legal actions of the decision now, ``apply`` taking an action or
    its notation (a bad one raises an error naming its rule and changes nothing), views and a record.

    ``Game(players, seed=None, chance="auto", rules=None)`` (keywords) sets one up."""

    players: tuple[str, ...]
    seed: int
    chance: str
    history: list[tuple[str, Any]]

    @property
    def current_player(self) -> str | None:
        """Whose decision it is; ``None`` at a chance node or at the end."""

    @property
    def is_over(self) -> bool: ...

    @property
    def is_chance_node(self) -> bool: ...

    @property
    def winners(self) -> tuple[str, ...] | None: ...

    @property
    def scores(self) -> dict[str, int]: ...

    def legal_actions(self) -> tuple[ActionProtocol, ...]: ...

    def chance_outcomes(self) -> list[tuple[ActionProtocol, float]]: ...

    def apply(self, action: ActionProtocol | str, player: str | None = None) -> None: ...

    def view(self, player: str | None) -> ViewProtocol: ...

    def spectator_view(self) -> ViewProtocol: ...

    def omniscient_view(self) -> ViewProtocol: ...

    @property
    def record(self) -> RecordProtocol: ...

    def copy(self) -> GameProtocol: ...


@runtime_checkable
class RecordProtocol(Protocol):
    """A game record: versioned JSON that replays exactly (a full record; errors say where and why), a public
    export and one per player (no seed, no secret but that player's), each checked when loaded."""

    players: tuple[str, ...]
    seed: int | None
    chance: str
    result: dict[str, Any] | None
    view: str

    @property
    def is_full(self) -> bool: ...

    @property
    def winners(self) -> list[str] | None: ...

    def public(self) -> RecordProtocol: ...

    def as_player(self, player: str) -> RecordProtocol: ...

    def to_dict(self) -> dict[str, Any]: ...

    def to_json(self, indent: int | None = None) -> str: ...

    def save(self, path: Any) -> Any: ...

    @classmethod
    def load(cls, path: Any) -> RecordProtocol: ...

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "record", check: bool = True) -> RecordProtocol: ...

    def replay(self, until: int | None = None, source: str | None = None) -> GameProtocol: ...

    def games(self, source: str | None = None) -> Iterator[tuple[int, GameProtocol]]: ...


@runtime_checkable
class BotProtocol(Protocol):
    """A bot: chooses one of the legal actions from what its view shows (and nothing else)."""

    def choose(self, view: ViewProtocol, legal_actions: Sequence[ActionProtocol]) -> ActionProtocol | str: ...
