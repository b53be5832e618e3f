"""Play a whole game between bots."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ...errors import HeimlichError, IllegalAction

if TYPE_CHECKING:  # the engine is imported when a game is played: `import heimlich_lab` stays light
    from .rules.game import Game
    from .rules.records import GameRecord
    from .rules.ruleset import Rules

MAX_ACTIONS = 100_000


def play_game(rules: Rules | None, players_to_bots: Mapping[str, object], seed: int | None = None,
              start=None, max_actions: int = MAX_ACTIONS) -> Game:
    """Play a game to the end and return the finished :class:`Game`.

    Each bot sees only ``game.view(player)`` and the legal actions.
    """
    from .rules.game import Game
    if not players_to_bots:
        raise HeimlichError("players_to_bots is empty: name the players and their bots")
    for p, b in players_to_bots.items():
        if not callable(getattr(b, "choose", None)):
            raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
    g = Game(list(players_to_bots), rules=rules, seed=seed, start=start)
    bots = dict(players_to_bots)
    n = 0
    view, legal_actions, apply = g.view, g.legal_actions, g.apply
    while not g.is_over:
        p = g.current_player
        a = bots[p].choose(view(p), legal_actions())
        try:
            apply(a)
        except HeimlichError as e:
            raise IllegalAction(f"the bot for {p} chose {a!s}, which is not legal: {e}", rule="bot") from None
        n += 1
        if n > max_actions:
            raise HeimlichError(f"the game did not end within {max_actions} actions")
    return g


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
