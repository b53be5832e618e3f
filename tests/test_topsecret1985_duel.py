"""The duel solver of Top Secret (1985): hand-solved duels, the equilibrium conditions, and its errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from heimlich_lab.games.topsecret1985.duel import (
    DUEL_CARDS,
    DuelSolution,
    DuelValues,
    duel_equilibrium,
    remaining_after,
)


def test_the_outcomes_follow_the_book():
    # higher card wins, a tie goes to the aggressor, losing with a 0 only sends the agent home
    v = DuelValues(win_eliminates=3, win_sends_home=2, lose_eliminated=-7, lose_sent_home=-5)
    assert v.outcome(4, 2) == 3
    assert v.outcome(4, 0) == 2
    assert v.outcome(2, 4) == -7
    assert v.outcome(0, 4) == -5
    assert v.outcome(3, 3) == 3 and v.outcome(0, 0) == 2
    defender = DuelValues(win_eliminates=3, win_sends_home=2, lose_eliminated=-7, lose_sent_home=-5, aggressor=False)
    assert defender.outcome(3, 3) == -7 and defender.outcome(0, 0) == -5


def test_one_duel_alone_is_pure():
    # ahead: play the card that wins; behind: lose with the 0
    ahead = duel_equilibrium([1, 4], [2, 3])
    assert ahead.mine == {1: 0.0, 4: 1.0} and ahead.value == 1.0
    behind = duel_equilibrium([0, 2], [3, 4])
    assert behind.mine == {0: 1.0, 2: 0.0} and behind.value == -0.5
    # their side plays its best reply too: against my 0 any card wins, and the 4 also wins against my 2
    assert behind.theirs[4] == pytest.approx(1.0) or behind.theirs[3] + behind.theirs[4] == pytest.approx(1.0)


def test_two_duels_hand_solved():
    # [0, 5] against [0, 5], I attack, two duels. Now and then, the hands left:
    #   (0, 0): +0.5, then 5 v 5 (tie, mine) +1   = 1.5
    #   (0, 5): -0.5, then 5 v 0           +0.5 = 0.0
    #   (5, 0): +0.5, then 0 v 5           -0.5 = 0.0
    #   (5, 5): +1,   then 0 v 0 (tie)     +0.5 = 1.5
    # matching pennies on [[1.5, 0], [0, 1.5]]: both mix 1/2, value 0.75.
    s = duel_equilibrium([0, 5], [0, 5], duels=2)
    np.testing.assert_allclose(s.table, [[1.5, 0.0], [0.0, 1.5]])
    assert s.mine == pytest.approx({0: 0.5, 5: 0.5}) and s.theirs == pytest.approx({0: 0.5, 5: 0.5})
    assert s.value == pytest.approx(0.75)


def test_a_two_by_two_matches_the_closed_form():
    # values chosen so the 2-duel table has no saddle point: the mixed strategy is (d - c) / (a - b - c + d)
    values = DuelValues(win_eliminates=2.0, win_sends_home=0.25, lose_eliminated=-3.0, lose_sent_home=-0.5)
    s = duel_equilibrium([0, 4], [0, 4], values, duels=2)
    (a, b), (c, d) = s.table
    assert not _has_saddle(s.table)
    p = (d - c) / (a - b - c + d)
    assert s.mine[0] == pytest.approx(p, abs=1e-9)
    assert s.value == pytest.approx((a * d - b * c) / (a - b - c + d), abs=1e-9)


def _has_saddle(table):
    return table.min(axis=1).max() == table.max(axis=0).min()


hands = st.lists(st.sampled_from(DUEL_CARDS), min_size=1, max_size=4).filter(
    lambda h: all(h.count(c) <= DUEL_CARDS.count(c) for c in set(h)))
prices = st.floats(min_value=-5, max_value=5, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(hands, hands, prices, prices, prices, prices, st.booleans(), st.integers(1, 2))
def test_the_solution_is_an_equilibrium_and_zero_sum(mine, theirs, w1, w2, l1, l2, aggressor, duels):
    values = DuelValues(win_eliminates=w1, win_sends_home=w2, lose_eliminated=l1, lose_sent_home=l2,
                        aggressor=aggressor)
    s = duel_equilibrium(mine, theirs, values, duels=duels)
    x, y = np.array(list(s.mine.values())), np.array(list(s.theirs.values()))
    assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1) and (x >= 0).all() and (y >= 0).all()
    # no column does better against my strategy, no row does better against theirs
    assert (x @ s.table >= s.value - 1e-7).all()
    assert (s.table @ y <= s.value + 1e-7).all()
    # the same duel seen from the other side: the values mirror and the value changes sign
    mirrored = DuelValues(win_eliminates=-l1, win_sends_home=-l2, lose_eliminated=-w1, lose_sent_home=-w2,
                          aggressor=not aggressor)
    assert duel_equilibrium(theirs, mine, mirrored, duels=duels).value == pytest.approx(-s.value, abs=1e-7)


def test_sampling_follows_the_strategy_and_the_seed():
    s = duel_equilibrium([0, 5], [0, 5], duels=2)
    draws = [s.sample(np.random.default_rng(seed)) for seed in range(400)]
    assert set(draws) == {0, 5} and 150 < draws.count(0) < 250
    assert [s.sample(np.random.default_rng(7)) for _ in range(3)] == [s.sample(np.random.default_rng(7))] * 3


def test_remaining_cards_cycle_as_the_book_says():
    hand = tuple(DUEL_CARDS)
    for card in (5, 0, 4, 0, 3, 2):
        hand = remaining_after(hand, card)
    assert hand == (1,)
    assert remaining_after(hand, 1) == tuple(sorted(DUEL_CARDS))   # all 7 used: all 7 return


@pytest.mark.parametrize("call, message", [
    (lambda: duel_equilibrium([], [1]), "my_cards is empty"),
    (lambda: duel_equilibrium([6], [1]), "my_cards holds 6"),
    (lambda: duel_equilibrium([1], [0, 0, 0]), "more 0s than"),
    (lambda: duel_equilibrium([1], ["a"]), "their_cards holds 'a'"),
    (lambda: duel_equilibrium([1], [2], duels=0), "duels must be"),
    (lambda: duel_equilibrium([1], [2], values={"win": 1}), "values must be DuelValues"),
    (lambda: DuelValues(win_eliminates=float("nan")), "win_eliminates must be a finite number"),
    (lambda: remaining_after([1, 2], 3), "cannot play a 3"),
])
def test_bad_input_says_what_is_wrong(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_a_solution_reads_as_text_and_html():
    s = duel_equilibrium([0, 5], [0, 5], duels=2)
    assert isinstance(s, DuelSolution)
    assert str(s) == "me: 0 with 0.500, 5 with 0.500 | them: 0 with 0.500, 5 with 0.500 | value +0.750 per 2 duels"
    assert "<table>" in s._repr_html_() and "+0.750" in s._repr_html_()
