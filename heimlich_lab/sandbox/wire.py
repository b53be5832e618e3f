"""What crosses the pipe to a bot in its own process, game by game: each game's wire codec (its spec's
``wire``, the contract in :mod:`heimlich_lab.engine.wire`), found through the registry of games. The sandbox
knows no game: the codec says what a player's view becomes on the wire (only what the player may know) and how
the worker rebuilds a view from it.

>>> from heimlich_lab.engine.registry import game_names
>>> wire_games() == game_names()        # every game the kit ships lets its bots run out of process
True
>>> codec(game_names()[0]).Follower.__name__
'Follower'
"""
from __future__ import annotations

from typing import Any

from ..engine.registry import default_game, game_names, game_spec
from ..errors import HeimlichError

__all__ = ["codec", "wire_games"]


def wire_games() -> tuple[str, ...]:
    """The registered games whose bots can run out of process (their spec names a wire codec)."""
    return tuple(name for name in game_names() if game_spec(name).has("wire"))


def codec(game: str | None) -> Any:
    """The wire codec module of ``game`` (``None``: the default game), imported now; an error naming the games
    that have one if it has none."""
    spec = game_spec(game if game is not None else default_game())
    if not spec.has("wire"):
        raise HeimlichError(f"bots of {spec.name!r} cannot run out of process yet; games: {', '.join(wire_games())}")
    return spec.load("wire")
