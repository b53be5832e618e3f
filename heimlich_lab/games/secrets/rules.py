"""The pieces of Secrets (2017) and the rule options (every reading of the OCR'd rulebook is in docs/secrets.md).

>>> SecretsRules().markers_for(6)
{'CIA': 3, 'KGB': 3, 'Hippie': 1}
>>> SecretsRules().end_size(7), SecretsRules().end_size(5)
(4, 5)
>>> sum(CARD_COUNTS.values()), card_value("scientist"), SecretsRules(double_agent_value=-1).value("double-agent")
(29, 5, -1)
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ...errors import HeimlichError

TEAMS = ("CIA", "KGB", "Hippie")
#: The slot of the identity marker in the middle of the table.
MIDDLE = "middle"
CARDS = ("psychiatrist", "double-agent", "politician", "journalist", "diplomat", "detective", "scientist",
         "assassin")
CARD_COUNTS = {"psychiatrist": 2, "double-agent": 3, "politician": 4, "journalist": 4, "diplomat": 3,
               "detective": 3, "scientist": 6, "assassin": 4}
#: Printed values; the Double Agent's is lost in the OCR (SecretsRules.double_agent_value).
_VALUES = {"psychiatrist": -1, "politician": 3, "journalist": 3, "diplomat": 1, "detective": -2, "scientist": 5,
           "assassin": 0}
BULLETS = (0, -1, -2, -3)
#: Identity markers per player count, CIA/KGB/Hippie (docs/secrets.md: the OCR's table is garbled).
DEFAULT_MARKERS = MappingProxyType({4: (2, 2, 1), 5: (2, 2, 2), 6: (3, 3, 1), 7: (3, 3, 2), 8: (4, 4, 1)})
MIN_PLAYERS, MAX_PLAYERS = 4, 8


def card_value(card: str, double_agent_value: int = 0) -> int:
    """A face-up character's value."""
    return double_agent_value if card == "double-agent" else _VALUES[card]


@dataclass(frozen=True)
class SecretsRules:
    """Rule options where a reader of the rulebook could disagree (docs/secrets.md gives each reading).

    - ``double_agent_value``: the Double Agent's points (lost in the OCR; default 0).
    - ``markers``: player count -> (CIA, KGB, Hippie) markers, or ``None`` for :data:`DEFAULT_MARKERS`.
      Each count must give one marker per player and one for the middle, from the box's 4 CIA, 4 KGB and 2 Hippie.
      It is kept read-only (a bot reads the rules in its view and cannot change anyone's):

    >>> r = SecretsRules(markers={"4": [2, 2, 1]})
    >>> r.markers[4], SecretsRules.from_dict(r.to_dict()) == r
    ((2, 2, 1), True)
    >>> r.markers[4] = (1, 3, 1)
    Traceback (most recent call last):
    TypeError: 'mappingproxy' object does not support item assignment
    """

    double_agent_value: int = 0
    markers: Mapping[int, tuple[int, int, int]] | None = None

    def __post_init__(self):
        if type(self.double_agent_value) is not int:
            raise HeimlichError(f"double_agent_value must be a whole number, not {self.double_agent_value!r}")
        if self.markers is not None:
            if not isinstance(self.markers, Mapping):
                raise HeimlichError(f"markers must map a player count to (CIA, KGB, Hippie), not {self.markers!r}")
            fixed = {}
            for n, counts in self.markers.items():
                n = int(n)      # JSON keys are strings
                c = tuple(counts)
                if not (MIN_PLAYERS <= n <= MAX_PLAYERS and len(c) == 3 and all(type(x) is int and x >= 0 for x in c)
                        and sum(c) == n + 1 and c[0] <= 4 and c[1] <= 4 and c[2] <= 2):
                    raise HeimlichError(
                        f"markers for {n} players must be (CIA, KGB, Hippie) whole numbers adding up to {n + 1} "
                        f"(one per player and one for the middle), at most 4, 4 and 2, not {counts!r}")
                fixed[n] = c
            object.__setattr__(self, "markers", MappingProxyType(fixed))

    def __reduce__(self):
        # copies and pickles (game copies, worker processes) rebuild the rules; a read-only mapping cannot pickle
        return (type(self), (self.double_agent_value, None if self.markers is None else dict(self.markers)))

    def markers_for(self, n_players: int) -> dict[str, int]:
        """Team -> number of identity markers in play."""
        table = dict(DEFAULT_MARKERS)
        table.update(self.markers or {})
        return dict(zip(TEAMS, table[n_players]))

    @staticmethod
    def end_size(n_players: int) -> int:
        """The tableau size (characters and bullets) that ends the game at the end of the turn."""
        return 5 if n_players <= 6 else 4

    def value(self, card: str) -> int:
        return card_value(card, self.double_agent_value)

    def to_dict(self) -> dict:
        return {"double_agent_value": self.double_agent_value,
                "markers": None if self.markers is None else {str(n): list(c) for n, c in self.markers.items()}}

    @classmethod
    def from_dict(cls, d) -> "SecretsRules":
        if not isinstance(d, Mapping) or set(d) - {"double_agent_value", "markers"}:
            raise HeimlichError(f"Secrets rules are an object with double_agent_value and markers, not {d!r}")
        return cls(**d)
