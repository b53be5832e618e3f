"""Actions and their notation.

Every decision and every chance event is an :class:`Action`. ``str(action)``
gives its notation and :func:`Action.parse` reads it back; the two round-trip.

>>> a = Action.parse("move blue+3 red+2")
>>> str(a)
'move red+2 blue+3'
>>> Action.parse(str(a)) == a
True
>>> [str(Action.parse(t)) for t in ["roll 1-3", "points 0", "safe ruins", "announce yes",
...     "play swap blue red", "play placesafe 4", "pass", "dossier red=Bob", "draw fwd123"]]
... # doctest: +NORMALIZE_WHITESPACE
['roll 1-3', 'points 0', 'safe ruins', 'announce yes', 'play swap red blue', 'play placesafe 4', 'pass',
 'dossier red=Bob', 'draw fwd123']

The full grammar is in ``docs/notation.md``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ....engine.actions import HIDDEN, ActionBase, assignments, check_player_name, need
from ....errors import NotationError
from .board import COLOURS, building_name, parse_building
from .cards import CARD_CODES, CARDS

__all__ = ["Action", "CHANCE_KINDS", "DECISION_KINDS", "FACES", "HIDDEN", "check_player_name"]

FACES = ("1-3", "2", "3", "4", "5", "6")
_COLOUR_ORDER = {c: i for i, c in enumerate(COLOURS)}
#: Kinds of chance outcomes: the deal, a die roll, a card drawn, a free agent card taken, and (with
#: ``Rules(second_agent="drawn")``) the second-agent card drawn and shown at once.
CHANCE_KINDS = frozenset(("deal", "roll", "draw", "take", "reveal"))
#: Kinds of a player's public decisions. (A ``dossier`` entry is a player's too, but private to its writer; and
#: ``collect``, whether to draw a card one may draw, says nothing about who one is.)
DECISION_KINDS = frozenset(("points", "move", "safe", "announce", "play", "pass", "done"))

# Card targets by shape.
_STEP_CARDS = {k.code: k.steps for k in CARDS.values() if k.steps}   # one agent by one of these steps
_PAIR_CARDS = {"twoback", "twofwd", "swap", "bonus"}  # unordered pair of different agents
_ONE_AGENT_CARDS = {"ruins", "tosafe"}
_NO_TARGET_CARDS = {"church", "second"}
def _colour(text: str) -> str:
    if not isinstance(text, str) or text not in _COLOUR_ORDER:
        raise NotationError(f"{text!r} is not an agent colour; colours are {', '.join(COLOURS)}")
    return text


def _sorted_colours(cols: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cols, key=_COLOUR_ORDER.__getitem__))


_STEP_RE = re.compile(r"([a-z]+)([+-][1-9][0-9]*|[+-]0)")   # ASCII digits only (\d takes any script's)


def _agent_step(text: str) -> tuple[str, int]:
    m = _STEP_RE.fullmatch(text)
    if not m:
        raise NotationError(f"{text!r} should be an agent and a step, like red+2 or blue-1")
    return _colour(m.group(1)), int(m.group(2))


@dataclass(frozen=True, slots=True, repr=False)
class Action(ActionBase):
    """One action: ``kind`` and its ``args`` (see the module doc).

    Prefer the constructors (:meth:`move`, :meth:`play`, ...) or :meth:`parse`.
    """

    CHANCE_KINDS = CHANCE_KINDS

    # ----- constructors -------------------------------------------------
    @staticmethod
    def roll(face: str | int) -> "Action":
        f = str(face)
        if f not in FACES:
            raise NotationError(f"die face {face!r} does not exist; faces are {', '.join(FACES)}")
        return Action("roll", (f,))

    @staticmethod
    def points(n: int) -> "Action":
        if type(n) is not int or not 0 <= n <= 3:    # not 2.7, True or "2": nothing is rounded or coerced
            raise NotationError(f"points are a whole number 0, 1, 2 or 3, not {n!r}")
        return Action("points", (n,))

    @staticmethod
    def move(steps: Mapping[str, int]) -> "Action":
        """An allocation: agent colour -> steps (agents with 0 steps are dropped).

        >>> str(Action.move({"blue": 3, "red": 2, "grey": 0}))
        'move red+2 blue+3'
        """
        if not isinstance(steps, Mapping):
            raise NotationError(f"a move is a mapping agent colour -> steps, like {{'red': 2}}, not {steps!r}")
        items = []
        for c, n in steps.items():
            _colour(c)
            if type(n) is not int or n < 0:
                raise NotationError(f"steps for {c} must be a whole number >= 0, not {n!r}")
            if n:
                items.append((c, n))
        if not items:
            raise NotationError(f"a move moves at least one agent at least one step, not {steps!r}")
        items.sort(key=lambda cn: _COLOUR_ORDER[cn[0]])
        return Action("move", tuple(items))

    @staticmethod
    def safe(building: int) -> "Action":
        return Action("safe", (parse_building(_building_text(building)),))

    @staticmethod
    def collect(want: bool) -> "Action":
        """Whether to draw the card a player may draw (``Rules(draws="may")``): ``collect yes|no``."""
        if type(want) is not bool:
            raise NotationError(f"collect takes True or False, not {want!r}")
        return Action("collect", (want,))

    @staticmethod
    def announce(want: bool) -> "Action":
        if type(want) is not bool:      # "no" is truthy: it must not become "announce yes"
            raise NotationError(f"announce takes True or False, not {want!r}")
        return Action("announce", (want,))

    @staticmethod
    def play(card: str, *targets) -> "Action":
        """A card play; targets as in the notation, e.g. ``Action.play("fwd123", "red", 2)``."""
        if not isinstance(card, str) or card not in CARD_CODES:
            raise NotationError(f"unknown card {card!r}; codes are {', '.join(CARD_CODES)}")
        return Action.parse(" ".join(["play", card, *_targets_text(card, targets)]))

    @staticmethod
    def dossier(agent: str, name: str) -> "Action":
        if name != "free":
            check_player_name(name)
        return Action("dossier", (_colour(agent), name))

    @staticmethod
    def deal(assignment: Mapping[str, str]) -> "Action":
        """The deal of agent cards, player -> colour, in seat order."""
        if not isinstance(assignment, Mapping):
            raise NotationError(f"a deal is a mapping player -> agent colour, not {assignment!r}")
        if not assignment:
            raise NotationError("a deal gives every player an agent colour; this one is empty")
        return Action("deal", tuple((check_player_name(p), _colour(c)) for p, c in assignment.items()))

    @staticmethod
    def draw(card: str) -> "Action":
        return Action.parse(f"draw {card}")

    @staticmethod
    def take(colour: str) -> "Action":
        return Action("take", (_colour(colour),))

    # ----- properties ---------------------------------------------------
    @property
    def steps(self) -> dict[str, int]:
        """For a move: agent colour -> steps."""
        return dict(self.args) if self.kind == "move" else {}

    @property
    def card(self) -> str | None:
        """For a card play: the card code."""
        return self.args[0] if self.kind == "play" else None

    @property
    def is_redacted(self) -> bool:
        """True if a secret part was hidden (``draw ?``, ``take ?``, ``deal ?``, ``dossier ?``)."""
        return HIDDEN in self.args or (self.kind == "dossier" and self.args[1] == HIDDEN)

    # ----- notation ------------------------------------------------------
    def __str__(self) -> str:
        k, a = self.kind, self.args
        if k == "roll":
            return f"roll {a[0]}"
        if k == "points":
            return f"points {a[0]}"
        if k == "move":
            return "move " + " ".join(f"{c}+{n}" for c, n in a)
        if k == "safe":
            return f"safe {building_name(a[0])}"
        if k in ("announce", "collect"):
            return f"{k} yes" if a[0] else f"{k} no"
        if k == "play":
            return " ".join(["play", a[0], *_targets_text(a[0], a[1:])])
        if k in ("pass", "done"):
            return k
        if k == "dossier":
            # both parts hidden: which agents a player writes about would reveal the player's own agent(s)
            return "dossier ?" if a[0] == HIDDEN else f"dossier {a[0]}={a[1]}"
        if k == "deal":
            return "deal ?" if a == (HIDDEN,) else "deal " + " ".join(f"{p}={c}" for p, c in a)
        if k in ("draw", "take", "reveal"):
            return f"{k} {a[0]}"
        return f"{k} {' '.join(map(str, a))}".strip()

    @classmethod
    def _parse(cls, text: str, k: str, rest: list[str]) -> "Action":
        """The action of ``text`` from its kind ``k`` and the words after it (:meth:`ActionBase.parse`)."""

        if k == "roll":
            need(text, k, rest, 1)
            return Action.roll(rest[0])
        if k == "points":
            need(text, k, rest, 1)
            if rest[0] not in ("0", "1", "2", "3"):
                raise NotationError(f"{text!r}: points are 0, 1, 2 or 3")
            return Action("points", (int(rest[0]),))
        if k == "move":
            if not rest:
                raise NotationError(f"{text!r}: a move names at least one agent, like 'move red+2'")
            steps: dict[str, int] = {}
            for w in rest:
                c, n = _agent_step(w)
                if n <= 0:
                    raise NotationError(f"{text!r}: agents move forward only; {w!r} is not a positive step")
                if c in steps:
                    raise NotationError(f"{text!r}: {c} is named twice; write its steps once, like {c}+{steps[c] + n}")
                steps[c] = n
            return Action.move(steps)
        if k == "safe":
            need(text, k, rest, 1)
            return Action("safe", (parse_building(rest[0]),))
        if k in ("announce", "collect"):
            need(text, k, rest, 1)
            if rest[0] not in ("yes", "no"):
                raise NotationError(f"{text!r}: {k} yes or {k} no")
            return Action(k, (rest[0] == "yes",))
        if k in ("pass", "done"):
            need(text, k, rest, 0)
            return Action(k)
        if k == "play":
            if not rest:
                raise NotationError(f"{text!r}: name a card; codes are {', '.join(CARD_CODES)}")
            return Action("play", (rest[0], *_parse_targets(text, rest[0], rest[1:])))
        if k == "dossier":
            need(text, k, rest, 1)
            if rest[0] == HIDDEN:
                return Action("dossier", (HIDDEN, HIDDEN))
            if rest[0].count("=") != 1:
                raise NotationError(f"{text!r}: a dossier entry is AGENT=PLAYER or AGENT=free, like dossier red=Bob")
            c, name = rest[0].split("=")
            if name != HIDDEN and name != "free":
                check_player_name(name)
            return Action("dossier", (_colour(c), name))
        if k == "deal":
            if rest == [HIDDEN]:
                return Action("deal", (HIDDEN,))
            if not rest:
                raise NotationError(f"{text!r}: a deal lists PLAYER=COLOUR for every player")
            pairs = assignments(text, rest, "PLAYER=COLOUR", lambda p, c: (check_player_name(p), _colour(c)))
            return Action("deal", tuple(pairs))
        if k == "reveal":
            need(text, k, rest, 1)
            if rest[0] != "second":
                raise NotationError(f"{text!r}: only the second-agent card is revealed when drawn: reveal second")
            return Action("reveal", ("second",))
        if k == "draw":
            need(text, k, rest, 1)
            if rest[0] != HIDDEN and rest[0] not in CARD_CODES:
                raise NotationError(f"{text!r}: unknown card {rest[0]!r}; codes are {', '.join(CARD_CODES)}")
            return Action("draw", (rest[0],))
        if k == "take":
            need(text, k, rest, 1)
            return Action("take", (rest[0] if rest[0] == HIDDEN else _colour(rest[0]),))
        raise NotationError(
            f"{text!r}: unknown action {k!r}; actions are roll, points, move, safe, announce, play, pass, done, "
            "collect, dossier (and the chance events deal, draw, take, reveal)")


def _parse_targets(text: str, card: str, t: list[str]) -> tuple:
    if card not in CARD_CODES:
        raise NotationError(f"{text!r}: unknown card {card!r}; codes are {', '.join(CARD_CODES)}")
    if card in _STEP_CARDS:
        if len(t) != 1:
            raise NotationError(f"{text!r}: {card} takes one target like red{_STEP_CARDS[card][0]:+d}")
        c, n = _agent_step(t[0])
        if n not in _STEP_CARDS[card]:
            allowed = ", ".join(f"{x:+d}" for x in _STEP_CARDS[card])
            raise NotationError(f"{text!r}: {card} moves an agent by {allowed}, not {n:+d}")
        return (c, n)
    if card in _PAIR_CARDS:
        if len(t) != 2:
            raise NotationError(f"{text!r}: {card} takes two different agents, like 'play {card} red blue'")
        a, b = _colour(t[0]), _colour(t[1])
        if a == b:
            raise NotationError(f"{text!r}: {card} takes two different agents")
        return _sorted_colours((a, b))
    if card == "join":
        if len(t) != 2:
            raise NotationError(f"{text!r}: join takes the agent that moves and the agent it joins, "
                                "like 'play join red blue'")
        a, b = _colour(t[0]), _colour(t[1])
        if a == b:
            raise NotationError(f"{text!r}: an agent cannot join itself")
        return (a, b)
    if card == "rescue":
        if len(t) not in (1, 2):
            raise NotationError(f"{text!r}: rescue takes one or two agents")
        cols = [_colour(x) for x in t]
        if len(set(cols)) != len(cols):
            raise NotationError(f"{text!r}: rescue takes two different agents")
        return _sorted_colours(cols)
    if card in _ONE_AGENT_CARDS:
        if len(t) != 1:
            raise NotationError(f"{text!r}: {card} takes one agent")
        return (_colour(t[0]),)
    if card == "placesafe":
        if len(t) != 1:
            raise NotationError(f"{text!r}: placesafe takes one building")
        return (parse_building(t[0]),)
    if t:
        raise NotationError(f"{text!r}: {card} takes no target")
    return ()


def _targets_text(card: str, targets) -> list[str]:
    targets = list(targets)
    if card in _STEP_CARDS:
        if len(targets) == 2 and type(targets[1]) is int:
            return [f"{targets[0]}{targets[1]:+d}"]
    elif card == "placesafe":
        return [_building_text(x) for x in targets]
    for x in targets:
        if not isinstance(x, str):   # a step is (agent, whole number); every other target is a name
            raise NotationError(f"card target {x!r} of {card} is not an agent colour or AGENT+STEP text")
    return list(targets)


def _building_text(b) -> str:
    """A building given as a value (``4``, ``0``, ``-3``) or as notation (``"4"``, ``"church"``): no floats, no
    bools."""
    if type(b) is int:
        return building_name(b)
    if isinstance(b, str):
        return b
    raise NotationError(f"a building is a whole number (church 0, 1..10, ruins -3) or its name, not {b!r}")
