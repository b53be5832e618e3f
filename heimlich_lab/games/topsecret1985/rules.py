"""The pieces of Top Secret (Alex Randolph, 1985) and the rule options: every point the rulebook leaves open,
decided (the defaults) and, where a reader could disagree, an option. docs/topsecret1985.md quotes the book for
each.

>>> r = TopSecretRules()
>>> r.pickup, r.bonus_may_duel, r.bomb_courier, r.three_player_agent, r.must_use_roll
('along', True, 'counts', 'moved', True)
>>> TopSecretRules.from_dict(r.to_dict()) == r
True
>>> TopSecretRules(pickup="anywhere")
Traceback (most recent call last):
...
heimlich_lab.errors.HeimlichError: pickup must be one of 'along', 'stop', not 'anywhere'
>>> bomb_losses(7, "counts"), bomb_losses(4, "counts"), bomb_losses(7, "extra"), bomb_losses(7, "home")
((1, 3), (1, 1), (1, 3), (0, 4))
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from ...errors import HeimlichError

__all__ = ["AGENTS", "CONTENTS", "DIE_FACES", "DUEL_CARDS", "MAX_PLAYERS", "MIN_PLAYERS", "VALUES",
           "TopSecretRules", "bomb_losses"]

MIN_PLAYERS, MAX_PLAYERS = 2, 4
#: Agents per player ("4 x 7 agents secrets").
AGENTS = 7
#: The content cards, as the notation writes them ("une carte avec 5 points ... la quatrième a un grand point
#: rouge (indique une bombe)").
CONTENTS = ("5", "3", "1", "bomb")
#: Secrets per content card.
VALUES = {"5": 5, "3": 3, "1": 1, "bomb": 0}
#: Each player's duel cards ("7 cartes de combat numérotées de 1 à 5, plus 2 Os").
DUEL_CARDS = (0, 0, 1, 2, 3, 4, 5)
#: The faces of each special die ("chacun a une face en blanc, deux faces avec 1 point, deux avec 2 points, une
#: avec 3 points"); blank is 0.
DIE_FACES = (0, 1, 1, 2, 2, 3)

_CHOICES: dict[str, tuple[str, ...]] = {
    "pickup": ("along", "stop"),
    "bomb_courier": ("counts", "extra", "home"),
    "three_player_agent": ("moved", "extra", "none"),
}


@dataclass(frozen=True)
class TopSecretRules:
    """Rule options where a reader of the rulebook could disagree (docs/topsecret1985.md quotes each reading).

    - ``pickup``: ``"along"`` (default): an agent picks up or drops a suitcase in any city it enters during its
      move ("qu'il trouve sur son chemin", on its way), and may move on; ``"stop"``: picking up or dropping ends
      that agent's move for the turn (only where a move stops).
    - ``bonus_may_duel``: whether a bonus move ("un déplacement d'une ville à une autre") may enter a city
      holding enemies (default ``True``: the book forbids nothing).
    - ``bomb_courier``: the agent that carried a bomb home: ``"counts"`` (default: it is lost, and is one of the
      half the player loses), ``"extra"`` (it is lost, and half of the others too), ``"home"`` (it goes back to
      the start base like any courier, and is one of the agents the player may choose to lose).
    - ``three_player_agent``: with 3 players, the two players who do not have the edge ``"moved"`` (default) one
      of their 7 agents to the empty start base, add an ``"extra"`` 8th agent there, or ``"none"``.
    - ``first_three``: the French rule that one of a player's first three deliveries be an opponent's suitcase
      ("au moins une des 3 premières valises que vous portez à destination doit être d'un adversaire").
    - ``must_use_roll``: a player moves the whole roll when they can ("déplacez un ou plusieurs agents comme
      indiqué"); ``False`` lets a player end the move early.
    - ``target``: the secrets that win (10).
    - ``max_rounds``: the bounded end: after this many rounds (every seat one turn) the game ends; it also ends
      as soon as no player with an agent left can reach ``target`` (docs/topsecret1985.md#the-end).
    """

    pickup: str = "along"
    bonus_may_duel: bool = True
    bomb_courier: str = "counts"
    three_player_agent: str = "moved"
    first_three: bool = True
    must_use_roll: bool = True
    target: int = 10
    max_rounds: int = 200

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            v = getattr(self, name)
            if v not in choices:
                raise HeimlichError(f"{name} must be one of {', '.join(map(repr, choices))}, not {v!r}")
        for name in ("bonus_may_duel", "first_three", "must_use_roll"):
            if type(getattr(self, name)) is not bool:
                raise HeimlichError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if type(self.target) is not int or not 1 <= self.target <= 36:
            raise HeimlichError(f"target must be a whole number of secrets from 1 to 36, not {self.target!r}")
        if type(self.max_rounds) is not int or not 1 <= self.max_rounds <= 10_000:
            raise HeimlichError(f"max_rounds must be a whole number from 1 to 10000, not {self.max_rounds!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Any) -> TopSecretRules:
        names = {f.name for f in fields(cls)}
        if not isinstance(d, Mapping) or set(d) - names:
            extra = sorted(set(d) - names) if isinstance(d, Mapping) else d
            raise HeimlichError(f"Top Secret rules are an object with {', '.join(sorted(names))}; "
                                f"not {extra!r}")
        return cls(**d)


def bomb_losses(n_agents: int, courier: str) -> tuple[int, int]:
    """``(courier lost, agents the player then chooses)`` when a player with ``n_agents`` agents (the courier
    included) carries a bomb home: "la moitié de vos agents est immédiatement éliminée ou la moitié + 1, si le
    nombre est impair" (half, rounded up), read per ``bomb_courier``."""
    half = (n_agents + 1) // 2
    if courier == "counts":
        return 1, half - 1
    if courier == "extra":
        return 1, (n_agents - 1 + 1) // 2
    return 0, half
