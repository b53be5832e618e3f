"""What crosses the pipe to a bot that runs in its own process (:mod:`heimlich_lab.sandbox`): the contract of
a game's *wire codec*, and the tagged JSON that carries tuples and dicts with other keys than text.

Each game that lets bots run out of process names a codec module in its spec
(:class:`~heimlich_lab.engine.registry.GameSpec` ``wire``, e.g. ``heimlich_lab/games/<game>/wire.py``). The
sandbox knows no game: it asks the codec what to send for a player's view and, in the worker, to rebuild a
view from what was sent. A codec module defines:

* ``message(view, consumed=0) -> (header, entries, fields, consumed)``, in the parent: the ``header`` of the
  game (``None`` unless ``consumed == 0``: it is sent once per game), the JSON-able ``entries`` (log entries
  or events) from the view's event ``consumed`` on, the view's current ``fields`` (``None`` if the entries
  alone rebuild the view), and how many of the view's events were covered. Only what the player may know.
* ``game_mark(view)`` and ``same_game(view, mark, consumed) -> bool``, in the parent: whether ``view`` is of
  the game whose earlier view gave ``mark`` (a bot object can play several games in turn).
* ``Follower(header)``, in the worker: ``extend(entries, fields)`` takes in an update, ``view()`` is the view
  rebuilt from everything received (what the bot is handed), ``parse(text)`` reads an action's notation.
  Importing the codec module loads every module the worker needs (before the bot's limits apply).

>>> decode(encode({"a": (1, [2, None]), 3: True})) == {"a": (1, [2, None]), 3: True}
True
>>> encode(object())
Traceback (most recent call last):
...
heimlich_lab.errors.HeimlichError: a view holds object, which cannot be sent to a bot in another process
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from ..errors import HeimlichError

__all__ = ["FollowerProtocol", "WireCodec", "decode", "encode"]


@runtime_checkable
class FollowerProtocol(Protocol):
    """In the worker: a player's view rebuilt from what the parent sent."""

    def extend(self, entries: list[Any], fields: dict[str, Any] | None = None) -> None: ...

    def view(self) -> Any: ...

    def parse(self, text: str) -> Any: ...


@runtime_checkable
class WireCodec(Protocol):
    """A game's codec module (see the module doc), as the sandbox reads it."""

    def message(self, view: Any, consumed: int = 0
                ) -> tuple[dict[str, Any] | None, list[Any], dict[str, Any] | None, int]: ...

    def game_mark(self, view: Any) -> Any: ...

    def same_game(self, view: Any, mark: Any, consumed: int) -> bool: ...

    Follower: Any


def encode(x: Any) -> Any:
    """``x`` as JSON-able data that :func:`decode` turns back into an equal value (tuples stay tuples; a dict
    whose keys are not all text, or start with ``__``, is tagged)."""
    if isinstance(x, tuple):
        return {"__tuple__": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        if all(isinstance(k, str) and not k.startswith("__") for k in x):
            return {k: encode(v) for k, v in x.items()}
        return {"__dict__": [[encode(k), encode(v)] for k, v in x.items()]}
    if x is None or isinstance(x, (str, bool, int, float)):
        return x
    raise HeimlichError(f"a view holds {type(x).__name__}, which cannot be sent to a bot in another process")


def decode(x: Any) -> Any:
    """The value :func:`encode` made ``x`` from."""
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        if set(x) == {"__tuple__"}:
            return tuple(decode(v) for v in x["__tuple__"])
        if set(x) == {"__dict__"}:
            return {decode(k): decode(v) for k, v in x["__dict__"]}
        return {k: decode(v) for k, v in x.items()}
    return x
