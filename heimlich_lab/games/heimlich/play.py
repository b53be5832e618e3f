"""Play a whole Heimlich & Co. game between bots (the loop is the engine's, :mod:`heimlich_lab.engine.play`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ...engine.play import MAX_ACTIONS

if TYPE_CHECKING:  # the engine is imported when a game is played: `import heimlich_lab` stays light
    from .rules.game import Game
    from .rules.records import GameRecord
    from .rules.ruleset import Rules

__all__ = ["MAX_ACTIONS", "play", "play_game"]


def play_game(rules: Rules | None, players_to_bots: Mapping[str, object], seed: int | None = None,
              start=None, max_actions: int = MAX_ACTIONS) -> Game:
    """Play a game to the end and return the finished :class:`Game`.

    Each bot sees only ``game.view(player)`` and the legal actions.
    """
    from ...engine.play import play_game as play_to_the_end
    from .rules.game import Game
    return play_to_the_end(Game, players_to_bots, max_actions=max_actions, rules=rules, seed=seed, start=start)


def play(rules: Rules | None, players_to_bots: Mapping[str, object], seed: int | None = None,
         start=None) -> GameRecord:
    """Play a bots-only game and return its :class:`GameRecord`.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
    >>> rec.result is not None and rec.replay().is_over
    True
    """
    return play_game(rules, players_to_bots, seed=seed, start=start).record
