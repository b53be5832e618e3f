"""The 26 Top Secret cards as a data table.

Each card kind has a short *code* used by the notation (``play fwd123 red+2``).
The deck is a mapping from code to number of copies; :data:`DEFAULT_DECK`
follows RULES.md (one secondary source for the counts), and a
:class:`~heimlich_lab.Rules` may carry a different one.

>>> sum(DEFAULT_DECK.values())
26
>>> CARDS["swap"].text
'Two agents swap places.'
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class CardKind:
    """One kind of Top Secret card: its notation code, its card text, and the form of its targets."""

    code: str
    text: str
    targets: str  # notation of the targets, for the docs and the error messages


_KINDS = (
    CardKind("back12", "One agent 1 or 2 buildings back.", "AGENT-1 | AGENT-2"),
    CardKind("step1", "One agent 1 building forward or back.", "AGENT+1 | AGENT-1"),
    CardKind("twoback", "Two different agents 1 building back each.", "AGENT AGENT"),
    CardKind("twofwd", "Two different agents 1 building forward each.", "AGENT AGENT"),
    CardKind("safestep", "One agent in the safe's building 1 forward or back.", "AGENT+1 | AGENT-1"),
    CardKind("ruins", "One agent to the Ruins.", "AGENT"),
    CardKind("church", "All agents to the Church.", "(none)"),
    CardKind("swap", "Two agents swap places.", "AGENT AGENT"),
    CardKind("join", "One agent to another agent's building.", "MOVED_AGENT TO_AGENT"),
    CardKind("rescue", "One or two agents from the Ruins to the Church.", "AGENT [AGENT]"),
    CardKind("fwd123", "One agent 1, 2 or 3 buildings forward.", "AGENT+1 | AGENT+2 | AGENT+3"),
    CardKind("tosafe", "One agent to the safe.", "AGENT"),
    CardKind("placesafe", "Place the safe in any other building (no scoring by itself).", "BUILDING"),
    CardKind("bonus", "Two different scoring markers +3 each, not past 40.", "AGENT AGENT"),
    CardKind("second", "Second agent: take a free agent card at random.", "(none)"),
)

#: Card kinds by code.
CARDS = MappingProxyType({k.code: k for k in _KINDS})
CARD_CODES: tuple[str, ...] = tuple(k.code for k in _KINDS)

#: Copies of each card in the 26-card deck (RULES.md).
DEFAULT_DECK = MappingProxyType({
    "back12": 2, "step1": 2, "twoback": 2, "twofwd": 2, "safestep": 2, "ruins": 2,
    "church": 1, "swap": 1, "join": 1, "rescue": 2, "fwd123": 2, "tosafe": 2,
    "placesafe": 2, "bonus": 2, "second": 1,
})


def card_text(code: str) -> str:
    """The text of a card by code."""
    return CARDS[code].text
