"""The rule set: which variants and options a game uses.

>>> Rules()
Rules(top_secret=False, dossier=False, safe_destination='other', agents=None, deck=None)
>>> Rules(top_secret=True).agents_for(5)
('grey', 'yellow', 'orange', 'red', 'green', 'blue', 'violet')
>>> Rules().agents_for(2)
('grey', 'yellow', 'orange', 'red', 'green')
>>> sum(Rules(top_secret=True).deck_for(7).values())
25
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Mapping

from ....errors import HeimlichError
from .board import AGENTS_FOR_PLAYERS, COLOURS
from .cards import CARD_CODES, DEFAULT_DECK

SAFE_DESTINATIONS = ("other", "unoccupied")
#: Readings the rulebooks allow, each an option whose first value is the default: the books' "may draw"
#: (docs/rules.md#drawing-cards), and the 2018 edition's readings (docs/rules.md#editions; default: 2002).
READING_OPTIONS = {
    "draws": ("may", "always"),                 # a card one may draw: a choice (collect yes|no) / always drawn
    "second_agent": ("played", "drawn"),        # the second-agent card acts when played / when drawn
    "lone_announcer": ("round", "one_card"),    # one announcer: a round anyone may join / one card, then on
    "safe_mover": ("active", "creator"),        # after a scoring the active player / its creator moves the safe
}
#: Most copies of one card a deck may hold (the books' deck has at most 2): a bound, so that a record
#: cannot ask for a supply of a trillion cards.
MAX_COPIES = 100


@dataclass(frozen=True)
class Rules:
    """Variants and options (docs/rules.md#sources: an option is a reading a player could prefer).

    - ``top_secret``: play with the Top Secret cards.
    - ``dossier``: the Secret Dossier variant (sheets at 29, +5 per correct entry).
    - ``safe_destination``: ``"other"`` (default; any other building) or
      ``"unoccupied"`` (older German editions: a different building with no
      agent in it; if there is none, any other).
    - ``agents``: the colours in play, or ``None`` for the first N of the list.
    - ``deck``: a mapping card code -> copies, or ``None`` for the 26-card deck.

    - ``draws``: ``"may"`` (default, the books' "may draw": the card a player may draw,
      on 0 points and for the Ruins, is a decision, ``collect yes`` or ``collect no``) or
      ``"always"`` (it is drawn without asking; records of version 1 read this way).

    The 2018 edition's readings, each an option with the 2002 reading as the default
    (docs/rules.md#editions):

    - ``second_agent``: ``"played"`` (the card acts when it is played) or ``"drawn"``
      (2018: "If a player draws this card": it is shown at once, ``reveal second``, and
      acts; it never reaches the hand).
    - ``lone_announcer``: ``"round"`` (if only one player announces, the others may
      still play after that player's cards) or ``"one_card"`` (2018: that player plays
      one card, then the turn goes on to scoring).
    - ``safe_mover``: ``"active"`` (the player whose turn it is moves the safe) or
      ``"creator"`` (2018: the player who created the scoring situation, which a card
      played in the Top Secret round can make another player).

    Options left at their defaults are not shown by ``repr`` nor written by :meth:`to_dict`.

    >>> Rules(top_secret=True, safe_mover="creator")
    Rules(top_secret=True, dossier=False, safe_destination='other', agents=None, deck=None, safe_mover='creator')
    """

    top_secret: bool = False
    dossier: bool = False
    safe_destination: str = "other"
    agents: tuple[str, ...] | None = None
    deck: Mapping[str, int] | None = None
    draws: str = "may"
    second_agent: str = "played"
    lone_announcer: str = "round"
    safe_mover: str = "active"

    def __post_init__(self):
        for name in ("top_secret", "dossier"):
            # exactly a bool: "no" is truthy and would silently turn the variant on
            if type(getattr(self, name)) is not bool:
                raise HeimlichError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if self.safe_destination not in SAFE_DESTINATIONS:
            raise HeimlichError(
                f"safe_destination must be one of {SAFE_DESTINATIONS}, not {self.safe_destination!r}")
        for name, values in READING_OPTIONS.items():
            if not isinstance(getattr(self, name), str) or getattr(self, name) not in values:
                raise HeimlichError(f"{name} must be one of {values}, not {getattr(self, name)!r}")
        if self.agents is not None:
            if isinstance(self.agents, str) or not isinstance(self.agents, (list, tuple)):
                raise HeimlichError(f"agents must be a list of agent colours or None, not {self.agents!r}")
            agents = tuple(self.agents)
            object.__setattr__(self, "agents", agents)
            bad = [c for c in agents if not isinstance(c, str) or c not in COLOURS]
            if bad:
                raise HeimlichError(f"unknown agent colour(s) {bad}; colours are {', '.join(COLOURS)}")
            if len(set(agents)) != len(agents):
                raise HeimlichError(f"agent colours repeat: {list(agents)}")
        if self.deck is not None:
            if isinstance(self.deck, tuple) and all(isinstance(kv, tuple) and len(kv) == 2 for kv in self.deck):
                deck = dict(self.deck)   # the normalised form below (dataclasses.replace passes it back in)
            elif isinstance(self.deck, Mapping):
                deck = dict(self.deck)
            else:
                raise HeimlichError(f"deck must be a mapping card code -> copies, or None, not {self.deck!r}")
            bad = [c for c in deck if not isinstance(c, str) or c not in CARD_CODES]
            if bad:
                raise HeimlichError(f"unknown card code(s) {bad}; codes are {', '.join(CARD_CODES)}")
            if any(type(n) is not int or not 0 <= n <= MAX_COPIES for n in deck.values()):
                raise HeimlichError(f"card counts must be whole numbers from 0 to {MAX_COPIES}, not "
                                    f"{[n for n in deck.values() if type(n) is not int or not 0 <= n <= MAX_COPIES]}")
            object.__setattr__(self, "deck", tuple(sorted(deck.items(), key=lambda kv: CARD_CODES.index(kv[0]))))

    def __hash__(self):
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __repr__(self):
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if f.name not in READING_OPTIONS or getattr(self, f.name) != f.default]
        return f"Rules({', '.join(shown)})"

    def agents_for(self, n_players: int) -> tuple[str, ...]:
        """The agent colours in play for ``n_players`` players, in board order."""
        if n_players not in AGENTS_FOR_PLAYERS:
            raise HeimlichError(f"Heimlich & Co. is for 2 to 7 players, not {n_players}")
        need = AGENTS_FOR_PLAYERS[n_players]
        if self.agents is None:
            return COLOURS[:need]
        if len(self.agents) != need:
            raise HeimlichError(
                f"{n_players} players use {need} agents (RULES: set-up), but the rules name {len(self.agents)}")
        return tuple(c for c in COLOURS if c in self.agents)

    def deck_for(self, n_players: int) -> dict[str, int]:
        """The Top Secret deck for this many players (with 7, no second-agent card)."""
        deck = dict(DEFAULT_DECK) if self.deck is None else {c: 0 for c in CARD_CODES} | dict(self.deck)
        deck = {c: deck.get(c, 0) for c in CARD_CODES}
        if n_players == 7:
            deck["second"] = 0
        return deck

    def to_dict(self) -> dict:
        """A JSON-ready dict (used by records)."""
        d = asdict(self)
        d["agents"] = list(self.agents) if self.agents is not None else None
        d["deck"] = dict(self.deck) if self.deck is not None else None
        for name, values in READING_OPTIONS.items():
            if d[name] == values[0]:    # written only when set: the records of other games stay as they were
                del d[name]
        return d

    @classmethod
    def from_dict(cls, d: Mapping) -> "Rules":
        """Inverse of :meth:`to_dict`; unknown keys are an error."""
        if not isinstance(d, Mapping):
            raise HeimlichError(f"rules are a mapping of options, not {d!r}")
        known = {f.name for f in fields(cls)}
        extra = set(d) - known
        if extra:
            raise HeimlichError(f"unknown rule option(s): {sorted(extra)}")
        d = dict(d)
        if isinstance(d.get("agents"), list):
            d["agents"] = tuple(d["agents"])
        return cls(**d)
