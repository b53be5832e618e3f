"""Top Secret actions and their notation: every decision and chance event; ``str()`` and :meth:`Action.parse`
round-trip. Agents are ``PLAYER#N`` (``Ann#3``), suitcases ``PLAYER:LETTER`` (``Bob:A``), places the map's node
ids (``london``, ``start-NW``).

==========================================  ==========================================================
notation                                    meaning
==========================================  ==========================================================
``first Bob``                               chance: the dice chose the start player
``contents A=5 B=bomb C=1 D=3``             a player hides their content cards under A-D (``contents ?``)
``place A london``                          a player puts suitcase A in a city
``roll 2 0``                                chance: the two special dice (blank is 0)
``step Ann#3 paris``                        one step of a move: agent Ann#3 to the next city (or base)
``pick Ann#3 Bob:A``                        the agent picks up a suitcase in its city
``drop Ann#3``                              the agent drops the suitcase it carries in its city
``end``                                     the player ends the move
``card 3``                                  a duel card, face down (``card ?`` while it is hidden)
``take`` / ``leave``                        the duel's winner takes the loser's suitcase, or leaves it
``eliminate Ann#5``                         a bomb: the player chooses an agent to lose
==========================================  ==========================================================

>>> [str(Action.parse(t)) for t in ["contents D=3 A=5 B=bomb C=1", "STEP Ann#3 paris", "card 0", "roll 3 0"]]
['contents A=5 B=bomb C=1 D=3', 'step Ann#3 paris', 'card 0', 'roll 3 0']
>>> Action.parse("pick Ann#3 Bob:E")
Traceback (most recent call last):
...
heimlich_lab.errors.NotationError: 'pick Ann#3 Bob:E': 'Bob:E' is not a suitcase (PLAYER:A to PLAYER:D)
>>> Action.parse("card 6")
Traceback (most recent call last):
...
heimlich_lab.errors.NotationError: 'card 6': duel cards are 0 to 5
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...engine.actions import HIDDEN, ActionBase, assignments, check_player_name, need
from ...errors import NotationError
from .map import LETTERS
from .rules import CONTENTS, DIE_FACES

__all__ = ["CHANCE_KINDS", "KINDS", "Action", "agent_id", "agent_owner", "suitcase_id", "suitcase_owner"]

#: Chance events (the rest are decisions).
CHANCE_KINDS = frozenset(("first", "roll"))
KINDS = ("first", "contents", "place", "roll", "step", "pick", "drop", "end", "card", "take", "leave", "eliminate")
_NODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def agent_id(player: str, k: int) -> str:
    """The agent ``k`` (1-based) of ``player``: ``Ann#3``."""
    return f"{player}#{k}"


def agent_owner(agent: str) -> str:
    return agent.rpartition("#")[0]


def suitcase_id(player: str, letter: str) -> str:
    """Suitcase ``letter`` of ``player``: ``Bob:A``."""
    return f"{player}:{letter}"


def suitcase_owner(suitcase: str) -> str:
    return suitcase.rpartition(":")[0]


def _agent(text: str, w: str) -> str:
    p, sep, k = w.rpartition("#")
    if not sep or not k.isdigit() or not 1 <= int(k) <= 8 or str(int(k)) != k:
        raise NotationError(f"{text!r}: {w!r} is not an agent (PLAYER#1 to PLAYER#8)")
    check_player_name(p)
    return w


def _suitcase(text: str, w: str) -> str:
    p, sep, letter = w.rpartition(":")
    if not sep or letter not in LETTERS:
        raise NotationError(f"{text!r}: {w!r} is not a suitcase (PLAYER:A to PLAYER:D)")
    check_player_name(p)
    return w


def _node(text: str, w: str) -> str:
    if not _NODE.fullmatch(w):
        raise NotationError(f"{text!r}: {w!r} is not a place of the map (one word: letters, digits, '-', '_')")
    return w


@dataclass(frozen=True, slots=True, repr=False)
class Action(ActionBase):
    """One action: ``kind`` and ``args`` (see the module doc). Build it with :meth:`parse`."""

    CHANCE_KINDS = CHANCE_KINDS

    def __str__(self) -> str:
        k, a = self.kind, self.args
        if k == "contents":
            return "contents ?" if a == (HIDDEN,) else "contents " + " ".join(f"{L}={c}" for L, c in a)
        return " ".join([k, *map(str, a)])

    @classmethod
    def _parse(cls, text: str, k: str, rest: list[str]) -> Action:
        if k == "first":
            need(text, k, rest, 1)
            return cls(k, (check_player_name(rest[0]),))
        if k == "contents":
            if rest == [HIDDEN]:
                return cls(k, (HIDDEN,))

            def read(letter: str, content: str) -> tuple[str, str]:
                if letter.upper() not in LETTERS or content.lower() not in CONTENTS:
                    raise NotationError(f"{text!r}: write each suitcase as LETTER=CONTENT, letters A-D, contents "
                                        f"{', '.join(CONTENTS)}")
                return letter.upper(), content.lower()

            pairs = sorted(assignments(text, rest, "LETTER=CONTENT", read))
            if [L for L, _ in pairs] != list(LETTERS) or sorted(c for _, c in pairs) != sorted(CONTENTS):
                raise NotationError(f"{text!r}: the four suitcases A-D hold the four contents "
                                    f"{', '.join(CONTENTS)}, one each")
            return cls(k, tuple(pairs))
        if k == "place":
            need(text, k, rest, 2)
            if rest[0].upper() not in LETTERS:
                raise NotationError(f"{text!r}: suitcases are A, B, C, D")
            return cls(k, (rest[0].upper(), _node(text, rest[1])))
        if k == "roll":
            need(text, k, rest, 2)
            if not all(w.isdigit() and int(w) in DIE_FACES and str(int(w)) == w for w in rest):
                raise NotationError(f"{text!r}: each die shows 0 (blank), 1, 2 or 3")
            return cls(k, (int(rest[0]), int(rest[1])))
        if k == "step":
            need(text, k, rest, 2)
            return cls(k, (_agent(text, rest[0]), _node(text, rest[1])))
        if k == "pick":
            need(text, k, rest, 2)
            return cls(k, (_agent(text, rest[0]), _suitcase(text, rest[1])))
        if k in ("drop", "eliminate"):
            need(text, k, rest, 1)
            return cls(k, (_agent(text, rest[0]),))
        if k in ("end", "take", "leave"):
            need(text, k, rest, 0)
            return cls(k)
        if k == "card":
            need(text, k, rest, 1)
            if rest[0] == HIDDEN:
                return cls(k, (HIDDEN,))
            if not (rest[0].isdigit() and 0 <= int(rest[0]) <= 5 and str(int(rest[0])) == rest[0]):
                raise NotationError(f"{text!r}: duel cards are 0 to 5")
            return cls(k, (int(rest[0]),))
        raise NotationError(f"{text!r}: unknown action {k!r}; actions are {', '.join(KINDS)}")
