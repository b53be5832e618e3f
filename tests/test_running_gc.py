"""A unit of work leaves the objects that were there before it out of the cyclic collector's passes while it runs
(``gc.freeze``), and puts them back after it, also when it fails; a process that froze objects itself keeps them."""
from __future__ import annotations

import gc

import pytest

from heimlich_lab.analysis import running, tournament
from heimlich_lab.analysis.grid import game_tasks
from heimlich_lab.errors import HeimlichError
from heimlich_lab.games.heimlich.analysis import BeliefEvaluator


class _Seen(BeliefEvaluator):
    """The default evaluator, noting how many objects were frozen while it read each game."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.frozen: list[int] = []

    def evaluate_games(self, games):
        self.frozen.append(gc.get_freeze_count())
        return super().evaluate_games(games)


@pytest.fixture
def nothing_frozen():
    gc.unfreeze()       # (whatever an earlier test left)
    yield
    gc.unfreeze()


def _tasks(games=4):
    return game_tasks(3, "basic", "boltzmann", games=games, seed=3)


def test_a_unit_of_work_freezes_what_was_there_and_puts_it_back(nothing_frozen):
    ev = _Seen(until=None)
    before = len(gc.get_objects())
    rows = running._play_chunk(_tasks(), ev)
    assert gc.get_freeze_count() == 0                   # nothing is left frozen
    assert ev.frozen and min(ev.frozen) >= before // 2  # while it ran, the process's objects were left out
    assert len(rows) == 4 * 3 and all(r["belief_log_loss"] == r["belief_log_loss"] for r in rows)


def test_a_unit_of_work_that_fails_puts_the_objects_back(nothing_frozen):
    class Broken(BeliefEvaluator):
        def evaluate_games(self, games):
            raise HeimlichError("broken on purpose")
    with pytest.raises(HeimlichError, match="broken on purpose"):
        running._play_chunk(_tasks(), Broken(until=None))
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_objects_itself_keeps_them_frozen(nothing_frozen):
    gc.freeze()
    mine = gc.get_freeze_count()
    young = [{"n": i} for i in range(10_000)]      # made after the freeze: a unit that froze would freeze them too
    ev = _Seen(until=None)
    running._play_chunk(_tasks(), ev)
    assert ev.frozen and max(ev.frozen) <= mine     # (frozen objects may be freed, never added)
    assert 0 < gc.get_freeze_count() <= mine and len(young) == 10_000


def test_the_table_is_the_same_with_the_objects_left_out_or_not(nothing_frozen):
    grid = dict(player_counts=3, variants="basic", bots="boltzmann", games=4, seed=3, progress=False,
                evaluate=BeliefEvaluator(until=None))
    left_out = tournament(**grid)
    gc.freeze()         # (a process that froze its objects itself: the unit leaves them as they are)
    as_they_are = tournament(**grid)
    assert left_out.equals(as_they_are)
