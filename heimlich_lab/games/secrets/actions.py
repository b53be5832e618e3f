"""Secrets actions and their notation: every decision and chance event, ``str()`` and :meth:`Action.parse`
round-trip.

========================================  ====================================================
notation                                  meaning
========================================  ====================================================
``deal Ann=CIA ... middle=KGB``           chance: the identity markers (``deal ?`` redacted)
``reveal scientist``                      chance: the top character card is turned up
``offer scientist Bob``                   the active player offers one of the two cards (``offer ? Bob``)
``interrupt`` / ``allow``                 the UN player confiscates the offered card, or lets it be answered
``accept`` / ``refuse``                   the chosen player's answer
``swap Bob Cy``                           Psychiatrist: swap two other players' markers
``give Bob``                              Politician: put it in Bob's tableau (then look at his marker)
``side left`` / ``side right``            Diplomat: swap the middle marker with that neighbour's (``side ?``)
``look Bob`` / ``look middle``            Detective: look at one marker
``bullet -2``                             chance: the Assassin's bullet (``bullet ?``)
``shoot Bob``                             Assassin: give Bob the bullet
========================================  ====================================================

>>> [str(Action.parse(t)) for t in ["deal Ann=cia Bob=KGB middle=hippie", "offer double-agent Bob", "accept"]]
['deal Ann=CIA Bob=KGB middle=Hippie', 'offer double-agent Bob', 'accept']
>>> [str(Action.parse(t)) for t in ["swap Bob Ann", "side ?", "bullet -3", "look middle"]]
['swap Ann Bob', 'side ?', 'bullet -3', 'look middle']
>>> Action.parse("offer joker Bob")       # doctest: +ELLIPSIS
Traceback (most recent call last):
...
heimlich_lab.errors.NotationError: 'offer joker Bob': unknown card 'joker'; cards are psychiatrist, double-agent, ...
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engine.actions import HIDDEN, ActionBase, assignments, check_player_name, need
from ...errors import NotationError
from .rules import BULLETS, CARDS, MIDDLE, TEAMS

_TEAM_WORDS = {t.lower(): t for t in TEAMS}
_NO_ARGS = ("interrupt", "allow", "accept", "refuse")
_ONE_PLAYER = ("give", "shoot")
#: Chance events (the rest are decisions).
CHANCE_KINDS = frozenset(("deal", "reveal", "bullet"))
KINDS = ("deal", "reveal", "offer", *_NO_ARGS, "swap", *_ONE_PLAYER, "side", "look", "bullet")


def team(text: str) -> str:
    """A team name, read case-insensitively: ``cia`` -> ``CIA``."""
    try:
        return _TEAM_WORDS[text.lower()]
    except (KeyError, AttributeError):
        raise NotationError(f"{text!r} is not a team; teams are {', '.join(TEAMS)}") from None


def _player(text: str) -> str:
    if text == MIDDLE:
        raise NotationError(f"{MIDDLE!r} is the middle marker, not a player")
    return check_player_name(text)


@dataclass(frozen=True, slots=True, repr=False)
class Action(ActionBase):
    """One action: ``kind`` and ``args`` (see the module doc). Build it with :meth:`parse`."""

    CHANCE_KINDS = CHANCE_KINDS

    def __str__(self) -> str:
        k, a = self.kind, self.args
        if k == "deal":
            return "deal ?" if a == (HIDDEN,) else "deal " + " ".join(f"{s}={t}" for s, t in a)
        if k == "bullet" and a[0] != HIDDEN:
            return f"bullet {a[0]}"
        return " ".join([k, *map(str, a)])

    @classmethod
    def _parse(cls, text: str, k: str, rest: list[str]) -> "Action":
        """The action of ``text`` from its kind ``k`` and the words after it (:meth:`ActionBase.parse`)."""

        def card(w):
            if w not in CARDS:
                raise NotationError(f"{text!r}: unknown card {w!r}; cards are {', '.join(CARDS)}")
            return w

        if k == "deal":
            if rest == [HIDDEN]:
                return Action("deal", (HIDDEN,))
            if len(rest) < 2:
                raise NotationError(f"{text!r}: a deal lists SEAT=TEAM for every player and middle=TEAM")
            pairs = assignments(text, rest, "PLAYER=TEAM or middle=TEAM",
                                lambda s, t: (s if s == MIDDLE else _player(s), team(t)))
            if pairs[-1][0] != MIDDLE or [s for s, _ in pairs].count(MIDDLE) != 1:
                raise NotationError(f"{text!r}: the deal ends with the middle marker, like middle=KGB")
            return Action("deal", tuple(pairs))
        if k == "reveal":
            need(text, k, rest, 1)
            return Action(k, (card(rest[0]),))
        if k == "offer":
            need(text, k, rest, 2)
            return Action(k, (rest[0] if rest[0] == HIDDEN else card(rest[0]), _player(rest[1])))
        if k in _NO_ARGS:
            need(text, k, rest, 0)
            return Action(k)
        if k == "swap":
            need(text, k, rest, 2)
            a, b = _player(rest[0]), _player(rest[1])
            if a == b:
                raise NotationError(f"{text!r}: swap two different players' markers")
            return Action(k, tuple(sorted((a, b))))      # one notation for one swap
        if k in _ONE_PLAYER:
            need(text, k, rest, 1)
            return Action(k, (_player(rest[0]),))
        if k == "side":
            need(text, k, rest, 1)
            if rest[0] not in ("left", "right", HIDDEN):
                raise NotationError(f"{text!r}: the Diplomat swaps with the left or the right neighbour")
            return Action(k, (rest[0],))
        if k == "look":
            need(text, k, rest, 1)
            return Action(k, (rest[0] if rest[0] == MIDDLE else _player(rest[0]),))
        if k == "bullet":
            need(text, k, rest, 1)
            if rest[0] == HIDDEN:
                return Action(k, (HIDDEN,))
            try:
                v = int(rest[0])
            except ValueError:
                v = None
            if v not in BULLETS:
                raise NotationError(f"{text!r}: bullets are worth {', '.join(map(str, BULLETS))}")
            return Action(k, (v,))
        raise NotationError(f"{text!r}: unknown action {k!r}; actions are {', '.join(KINDS)}")
