"""Play a whole Secrets game between bots."""
from __future__ import annotations

from typing import Mapping, Sequence

from ...errors import HeimlichError, IllegalAction
from .game import Game
from .rules import SecretsRules

#: Default seat names for :func:`play` given a list of bots.
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def play_game(bots: "Mapping[str, object] | Sequence[object]", seed: int | None = None,
              rules: SecretsRules | None = None) -> Game:
    """Play to the end and return the finished :class:`Game`. ``bots``: player -> bot, or a list of bots
    (seated as Ann, Bob, Cy, ...). Each bot sees only ``game.view(player)`` and the legal actions."""
    if not isinstance(bots, Mapping):
        bots = list(bots)
        if len(bots) > len(NAMES):
            raise HeimlichError(f"Secrets is for at most {len(NAMES)} players, not {len(bots)}")
        bots = dict(zip(NAMES, bots))
    for p, b in bots.items():
        if not callable(getattr(b, "choose", None)):
            raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
    g = Game(list(bots), seed=seed, rules=rules)
    view, legal, apply = g.view, g.legal_actions, g.apply
    while g._phase != "over":
        p = g.current_player
        a = bots[p].choose(view(p), legal())
        try:
            apply(a)
        except HeimlichError as e:
            raise IllegalAction(f"the bot for {p} chose {a!s}, which is not legal: {e}", rule="bot") from None
    return g


def play(bots: "Mapping[str, object] | Sequence[object]", seed: int | None = None,
         rules: SecretsRules | None = None):
    """Play a bots-only game and return its :class:`~heimlich_lab.games.secrets.SecretsRecord`.

    >>> from heimlich_lab.games.secrets import RandomBot
    >>> rec = play({"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3), "Dee": RandomBot(4)}, seed=3)
    >>> rec.seed, rec.replay().is_over
    (3, True)
    """
    return play_game(bots, seed=seed, rules=rules).record
