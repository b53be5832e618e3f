"""Play a whole Top Secret game between bots (the loop is the engine's, :mod:`heimlich_lab.engine.play`)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.play import MAX_ACTIONS, SEAT_NAMES, play_game as play_to_the_end

__all__ = ["NAMES", "play", "play_game"]

#: Default seat names for :func:`play` given a list of bots.
NAMES = SEAT_NAMES


def play_game(bots: Mapping[str, Any] | Sequence[Any], seed: int | None = None, rules: Any = None,
              max_actions: int = MAX_ACTIONS, map: Any = None) -> Any:   # noqa: A002 - the game's keyword
    """Play to the end and return the finished :class:`~heimlich_lab.games.topsecret1985.game.Game`. ``bots``:
    player -> bot, or a list of bots (seated as Ann, Bob, Cy, Dee). Each bot sees only ``game.view(player)`` and
    the legal actions."""
    from .game import Game
    return play_to_the_end(Game, bots, max_actions=max_actions, seed=seed, rules=rules, map=map)


def play(bots: Mapping[str, Any] | Sequence[Any], seed: int | None = None, rules: Any = None,
         map: Any = None) -> Any:   # noqa: A002
    """Play a bots-only game and return its :class:`~heimlich_lab.games.topsecret1985.records.TopSecretRecord`;
    ``record.contents`` holds each player's true contents.

    >>> from heimlich_lab.games.topsecret1985 import RandomBot
    >>> rec = play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=4)
    >>> rec.seed, rec.replay().is_over, sorted(rec.contents["Cy"].values())
    (4, True, ['1', '3', '5', 'bomb'])
    """
    return play_game(bots, seed=seed, rules=rules, map=map).record
