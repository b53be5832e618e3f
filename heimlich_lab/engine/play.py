"""The play loop, once for every game: seat the bots, ask whoever decides for one of the legal actions, apply
it, until the game is over (or ``max_actions`` actions were played, which no finished game needs).

>>> from heimlich_lab.bots import RandomBot
>>> from heimlich_lab.games.secrets.game import Game
>>> g = play_game(Game, [RandomBot(i) for i in range(4)], seed=7)
>>> g.is_over, g.players
(True, ('Ann', 'Bob', 'Cy', 'Dee'))
>>> seat_names(3)
('Ann', 'Bob', 'Cy')
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import HeimlichError, IllegalAction

#: Actions after which a game that has not ended is given up (no finished game of the kit comes near it).
MAX_ACTIONS = 100_000
#: The names seats get when bots are given as a list (and the players of ``evaluate``'s self-play games).
SEAT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def seat_names(n: int) -> tuple[str, ...]:
    """The first ``n`` seat names (:data:`SEAT_NAMES`)."""
    if not 0 <= n <= len(SEAT_NAMES):
        raise HeimlichError(f"there are {len(SEAT_NAMES)} seat names, not {n}")
    return SEAT_NAMES[:n]


def seat_bots(bots: Mapping[str, Any] | Sequence[Any], title: str = "a game") -> dict[str, Any]:
    """Player -> bot: a mapping as it is, a list of bots seated as :data:`SEAT_NAMES`; each bot checked for
    ``choose(view, legal_actions)``."""
    if not isinstance(bots, Mapping):
        if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
            raise HeimlichError(f"bots are a mapping player -> bot or a list of bots, not {type(bots).__name__}")
        bots = list(bots)
        if len(bots) > len(SEAT_NAMES):
            raise HeimlichError(f"{title} is for at most {len(SEAT_NAMES)} players, not {len(bots)}")
        bots = dict(zip(SEAT_NAMES, bots))
    if not bots:
        raise HeimlichError("players_to_bots is empty: name the players and their bots")
    for p, b in bots.items():
        if not callable(getattr(b, "choose", None)):
            raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
    return dict(bots)


def play_game(game_class: Callable[..., Any], bots: Mapping[str, Any] | Sequence[Any],
              max_actions: int = MAX_ACTIONS, *, watch: Callable[[Any, str, Any], None] | None = None,
              **options: Any) -> Any:
    """Play a bots-only game of ``game_class`` to the end and return the finished game.

    ``bots``: player -> bot, or a list of bots (seated as Ann, Bob, Cy, ...); ``options`` go to the game
    (``seed``, ``rules``, ``start``, ...). Each bot sees only ``game.view(player)`` and the legal actions; a
    bot's illegal choice raises :class:`~heimlich_lab.errors.IllegalAction` (rule ``bot``) naming the bot.
    ``watch(game, player, action)``, if given, is called with every action a bot chose, just before it is
    applied (an evaluator reads the game as it is played instead of replaying its record; it must not change
    the game).

    >>> from heimlich_lab.bots import RandomBot
    >>> from heimlich_lab.games.secrets.game import Game
    >>> seen = []
    >>> g = play_game(Game, [RandomBot(i) for i in range(4)], seed=7, watch=lambda g, p, a: seen.append(p))
    >>> len(seen) > 0 and set(seen) <= set(g.players)
    True
    """
    bots = seat_bots(bots, getattr(game_class, "TITLE", "a game"))
    g = game_class(list(bots), **options)
    n = 0
    view, legal_actions, apply = g.view, g.legal_actions, g.apply
    while not g.is_over:
        p = g.current_player
        a = bots[p].choose(view(p), legal_actions())
        if watch is not None:
            watch(g, p, a)
        try:
            apply(a)
        except HeimlichError as e:
            raise IllegalAction(f"the bot for {p} chose {a!s}, which is not legal: {e}", rule="bot") from None
        n += 1
        if n > max_actions:
            raise HeimlichError(f"the game did not end within {max_actions} actions")
    return g
