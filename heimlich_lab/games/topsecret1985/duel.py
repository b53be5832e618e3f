"""Top Secret's duels as a zero-sum game, solved from the public duel cards.

In a duel both players lay one of their remaining duel cards face down and turn them over together: the higher card
wins and a tie goes to the aggressor. The loser's agent is eliminated, unless it lost with a 0: then it only goes back
to its start base. Played cards stay out until all 7 of a player's cards (1, 2, 3, 4, 5, 0, 0) are used; then all 7
return. Since every played card is face up, each player's remaining cards are public: a duel is a game of mixed
strategies with card counting.

:func:`duel_equilibrium` builds the payoff table from :class:`DuelValues` (what winning, losing, being eliminated or
sent home is worth to me) and solves it with :func:`scipy.optimize.linprog`, for me and for the other side.

A single duel, looked at alone, is never worth mixing: the highest card wins whenever anything wins, and a 0 loses
most cheaply. What a card is worth *later* is what makes the choice hard, so ``duels=2`` (or more) looks ahead over the
next duels between the same two hands, the spent cards gone (a hand that runs out takes all 7 back):

>>> one = duel_equilibrium([0, 5], [0, 5])
>>> one.mine, one.theirs, one.value   # I attack: my 5 wins everything; their 0 at least saves their agent
({0: 0.0, 5: 1.0}, {0: 1.0, 5: 0.0}, 0.5)
>>> two = duel_equilibrium([0, 5], [0, 5], duels=2)
>>> print(two)
me: 0 with 0.500, 5 with 0.500 | them: 0 with 0.500, 5 with 0.500 | value +0.750 per 2 duels

The table is zero-sum: what I win, the other side loses. Future duels keep today's roles (the same aggressor), and
their outcomes count in full. Both are simplifications, stated so that a reader can change them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from scipy.optimize import linprog

from .rules import DUEL_CARDS  # a player's full set (two zeros); a hand that runs out takes all of them back

Hand = tuple[int, ...]


@dataclass(frozen=True)
class DuelValues:
    """What each outcome of a duel is worth to me; the other side gets minus that (zero-sum).

    ``aggressor`` says whether I am the one who entered the city, so whether ties are mine.

    >>> DuelValues().outcome(3, 3)          # a tie goes to the aggressor: me, and they lost with a 3
    1.0
    >>> DuelValues(aggressor=False).outcome(3, 3)
    -1.0
    >>> DuelValues().outcome(0, 2)          # I lose with a 0: my agent only goes home
    -0.5
    """

    win_eliminates: float = 1.0    # I win and their agent is eliminated
    win_sends_home: float = 0.5    # I win but they played a 0: their agent goes back to its start base
    lose_eliminated: float = -1.0  # I lose with a card above 0: my agent is eliminated
    lose_sent_home: float = -0.5   # I lose with a 0: my agent goes back to my start base
    aggressor: bool = True         # ties go to the aggressor

    def __post_init__(self) -> None:
        for name in ("win_eliminates", "win_sends_home", "lose_eliminated", "lose_sent_home"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise ValueError(f"DuelValues.{name} must be a finite number, not {value!r}")

    def outcome(self, mine: int, theirs: int) -> float:
        """My payoff when I play ``mine`` and they play ``theirs``."""
        i_win = mine > theirs or (mine == theirs and self.aggressor)
        if i_win:
            return self.win_sends_home if theirs == 0 else self.win_eliminates
        return self.lose_sent_home if mine == 0 else self.lose_eliminated

    def table(self, mine: Iterable[int], theirs: Iterable[int]) -> np.ndarray:
        """The payoff table, my cards down the rows and theirs across the columns."""
        rows, cols = list(mine), list(theirs)
        return np.array([[self.outcome(m, t) for t in cols] for m in rows], dtype=float)


@dataclass(frozen=True)
class DuelSolution:
    """Both sides' mixed strategies over their distinct card values, and the game's value to me.

    ``mine[c]`` is the probability that I play a card of value ``c``; ``value`` is my expected payoff over the
    ``duels`` looked at when both sides play these strategies (and the best replies from then on).
    """

    mine: Mapping[int, float]
    theirs: Mapping[int, float]
    value: float
    duels: int = 1
    table: np.ndarray = field(repr=False, compare=False, default_factory=lambda: np.zeros((0, 0)))

    def __str__(self) -> str:
        def side(strategy: Mapping[int, float]) -> str:
            return ", ".join(f"{card} with {p:.3f}" for card, p in strategy.items())

        per = f" per {self.duels} duels" if self.duels > 1 else ""
        return f"me: {side(self.mine)} | them: {side(self.theirs)} | value {self.value:+.3f}{per}"

    def _repr_html_(self) -> str:
        cards = sorted(set(self.mine) | set(self.theirs))
        head = "".join(f"<th>{c}</th>" for c in cards)
        row_me = "".join(f"<td>{self.mine.get(c, 0.0):.3f}</td>" if c in self.mine else "<td>-</td>" for c in cards)
        row_them = "".join(f"<td>{self.theirs.get(c, 0.0):.3f}</td>" if c in self.theirs else "<td>-</td>"
                           for c in cards)
        return (f"<table><caption>Duel: value {self.value:+.3f} to me</caption>"
                f"<tr><th>card</th>{head}</tr><tr><th>me</th>{row_me}</tr><tr><th>them</th>{row_them}</tr></table>")

    def sample(self, rng: np.random.Generator) -> int:
        """Draw my card from my mixed strategy (the caller supplies the seeded generator)."""
        cards = list(self.mine)
        probabilities = np.array([self.mine[c] for c in cards])
        return int(cards[int(rng.choice(len(cards), p=probabilities / probabilities.sum()))])


def duel_equilibrium(my_cards: Iterable[int], their_cards: Iterable[int], values: DuelValues | None = None, *,
                     duels: int = 1) -> DuelSolution:
    """Solve the duel between two hands of remaining duel cards (both public) as a zero-sum game.

    ``my_cards`` and ``their_cards`` are the cards each side still holds (values 0-5, at most the full set
    1, 2, 3, 4, 5, 0, 0). ``values`` prices the outcomes (default :class:`DuelValues`: I attack; winning is worth 1,
    or 0.5 when their agent only goes home; losing costs the same). ``duels`` is how many duels between these two
    hands to look ahead, this one included.

    >>> duel_equilibrium([1, 4], [2, 3]).mine       # alone, the higher card is simply better
    {1: 0.0, 4: 1.0}
    >>> duel_equilibrium([1, 4], [2, 3]).value
    1.0
    >>> duel_equilibrium([0, 2], [3]).mine          # a lost duel: lose with the 0, and only go home
    {0: 1.0, 2: 0.0}
    >>> duel_equilibrium([1, 2, 2], [3])
    Traceback (most recent call last):
    ...
    ValueError: my_cards holds 2, more 2s than a player's duel cards have (1)
    """
    values = DuelValues() if values is None else values
    if not isinstance(values, DuelValues):
        raise TypeError(f"values must be DuelValues, not {type(values).__name__}")
    if isinstance(duels, bool) or not isinstance(duels, int) or duels < 1:
        raise ValueError(f"duels must be a whole number of duels >= 1, not {duels!r}")
    mine, theirs = _hand(my_cards, "my_cards"), _hand(their_cards, "their_cards")
    rows, cols = sorted(set(mine)), sorted(set(theirs))
    table = _stage_table(mine, theirs, values, duels)
    x, y, value = _solve_zero_sum(table)
    return DuelSolution(mine=dict(zip(rows, _tidy(x))), theirs=dict(zip(cols, _tidy(y))), value=_round(value),
                        duels=duels, table=table)


def remaining_after(hand: Iterable[int], played: int) -> Hand:
    """The hand left after playing one card of value ``played``; an empty hand takes all 7 cards back.

    >>> remaining_after([0, 5], 5)
    (0,)
    >>> remaining_after([3], 3)
    (0, 0, 1, 2, 3, 4, 5)
    """
    cards = list(_hand(hand, "hand"))
    if played not in cards:
        raise ValueError(f"cannot play a {played}: the hand holds {', '.join(map(str, cards))}")
    cards.remove(played)
    return tuple(cards) if cards else tuple(sorted(DUEL_CARDS))


def _hand(cards: Iterable[int], name: str) -> Hand:
    try:
        hand = tuple(sorted(cards))
    except TypeError:
        raise TypeError(f"{name} must be duel card values (whole numbers 0-5), not {cards!r}") from None
    if not hand:
        raise ValueError(f"{name} is empty: a player always holds at least one duel card")
    full = Counter(DUEL_CARDS)
    for card, count in Counter(hand).items():
        if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or card not in full:
            raise ValueError(f"{name} holds {card!r}: duel cards are 0, 0, 1, 2, 3, 4 and 5")
        if count > full[card]:
            raise ValueError(f"{name} holds {card}, more {card}s than a player's duel cards have ({full[card]})")
    return tuple(int(c) for c in hand)


def _stage_table(mine: Hand, theirs: Hand, values: DuelValues, duels: int) -> np.ndarray:
    rows, cols = sorted(set(mine)), sorted(set(theirs))
    table = values.table(rows, cols)
    if duels > 1:
        later = np.array([[_value(remaining_after(mine, m), remaining_after(theirs, t), values, duels - 1)
                           for t in cols] for m in rows])
        table = table + later
    return table


@lru_cache(maxsize=65536)
def _value(mine: Hand, theirs: Hand, values: DuelValues, duels: int) -> float:
    return _solve_zero_sum(_stage_table(mine, theirs, values, duels))[2]


def _solve_zero_sum(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Maximin for the rows and minimax for the columns: a saddle point when the table has one (most duels do),
    else one linear program per side (HiGHS)."""
    n_rows, n_cols = table.shape
    row_floor, col_ceiling = table.min(axis=1), table.max(axis=0)
    if row_floor.max() == col_ceiling.min():       # a pure equilibrium: no mixing needed, and exact
        x, y = np.zeros(n_rows), np.zeros(n_cols)
        x[int(row_floor.argmax())], y[int(col_ceiling.argmin())] = 1.0, 1.0
        return x, y, float(row_floor.max())
    x, value = _maximin(table)
    y, _ = _maximin(-table.T)
    return x, y, value


def _maximin(table: np.ndarray) -> tuple[np.ndarray, float]:
    # variables: the row strategy x (n) and the value v; maximise v subject to x.A[:, j] >= v for every column j
    n_rows, n_cols = table.shape
    c = np.zeros(n_rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-table.T, np.ones((n_cols, 1))])
    a_eq = np.hstack([np.ones((1, n_rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * n_rows + [(None, None)]
    result = linprog(c, A_ub=a_ub, b_ub=np.zeros(n_cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not result.success:  # a finite zero-sum table always has a solution; this would be a bug
        raise RuntimeError(f"linprog failed on the duel table: {result.message}")
    x = np.clip(result.x[:n_rows], 0.0, None)
    return x / x.sum(), float(result.x[-1])


def _tidy(strategy: np.ndarray) -> list[float]:
    return [_round(p) for p in strategy]


def _round(number: float) -> float:
    # the LP's last bits are solver noise; 12 decimals keep printed strategies and equal games equal
    return float(round(number, 12)) + 0.0
