"""Play a whole Heimlich & Co. game between bots (the loop is the engine's, :mod:`heimlich_lab.engine.play`).

Every game's ``play`` and ``play_game`` take the same keywords, ``bots=``, ``seed=`` and ``rules=``
(``play(bots=..., seed=..., rules=...)``); this game's also keeps its first order, ``play(rules, bots, seed)``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ...engine.play import MAX_ACTIONS
from ...errors import HeimlichError

if TYPE_CHECKING:  # the engine is imported when a game is played: `import heimlich_lab` stays light
    from .rules.game import Game
    from .rules.records import GameRecord
    from .rules.ruleset import Rules

__all__ = ["MAX_ACTIONS", "play", "play_game"]


def _the_bots(players_to_bots: Any, bots: Any) -> Mapping[str, Any] | Sequence[Any]:
    """The bots, given once: positionally (``players_to_bots``) or as every game's keyword ``bots=``."""
    if bots is None:
        bots = players_to_bots
    elif players_to_bots is not None:
        raise HeimlichError("give the bots once: players_to_bots or bots=, not both")
    if bots is None:
        raise HeimlichError("name the players and their bots: play(rules, {player: bot}) or play(bots=...)")
    return bots


def play_game(rules: Rules | None = None, players_to_bots: Mapping[str, object] | None = None,
              seed: int | None = None, start=None, max_actions: int = MAX_ACTIONS, *,
              bots: Mapping[str, object] | Sequence[object] | None = None) -> Game:
    """Play a game to the end and return the finished :class:`Game`.

    Each bot sees only ``game.view(player)`` and the legal actions. ``bots``: player -> bot, or a list of bots
    (seated as Ann, Bob, Cy, ...), given as ``players_to_bots`` or as ``bots=``.
    """
    from ...engine.play import play_game as play_to_the_end
    from .rules.game import Game
    return play_to_the_end(Game, _the_bots(players_to_bots, bots), max_actions=max_actions, rules=rules, seed=seed,
                           start=start)


def play(rules: Rules | None = None, players_to_bots: Mapping[str, object] | None = None, seed: int | None = None,
         start=None, *, bots: Mapping[str, object] | Sequence[object] | None = None) -> GameRecord:
    """Play a bots-only game and return its :class:`GameRecord`.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
    >>> rec.result is not None and rec.replay().is_over
    True
    >>> play(bots={"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3, rules=Rules()) == rec   # every game's keywords
    True
    """
    return play_game(rules, players_to_bots, seed=seed, start=start, bots=bots).record
