"""Play a whole Secrets game between bots (the loop is the engine's, :mod:`heimlich_lab.engine.play`)."""
from __future__ import annotations

from typing import Mapping, Sequence

from ...engine.play import MAX_ACTIONS, SEAT_NAMES, play_game as play_to_the_end

__all__ = ["NAMES", "play", "play_game"]

#: Default seat names for :func:`play` given a list of bots.
NAMES = SEAT_NAMES


def play_game(bots: "Mapping[str, object] | Sequence[object]", seed: int | None = None,
              rules=None, max_actions: int = MAX_ACTIONS):
    """Play to the end and return the finished :class:`~heimlich_lab.games.secrets.game.Game`. ``bots``: player
    -> bot, or a list of bots (seated as Ann, Bob, Cy, ...). Each bot sees only ``game.view(player)`` and the
    legal actions."""
    from .game import Game
    return play_to_the_end(Game, bots, max_actions=max_actions, seed=seed, rules=rules)


def play(bots: "Mapping[str, object] | Sequence[object]", seed: int | None = None, rules=None):
    """Play a bots-only game and return its :class:`~heimlich_lab.games.secrets.SecretsRecord`.

    >>> from heimlich_lab.secrets import RandomBot
    >>> rec = play({"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3), "Dee": RandomBot(4)}, seed=3)
    >>> rec.seed, rec.replay().is_over
    (3, True)
    """
    return play_game(bots, seed=seed, rules=rules).record
