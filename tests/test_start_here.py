"""Notebook 1's "Run All" does not play the student's game: the autopilot is opt-in (issue 24, item 8).

The test runs the notebook's own cells (the board, then the cell after it) the way "Run All" does, without a
click, and checks that the student's board is left at its first decision while the rest of the notebook gets a
finished record; with ``AUTOPILOT = True`` the autopilot finishes the student's own game instead.
"""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "instructor" / "notebooks"
OFF = "AUTOPILOT = False"


def _cells(name: str = "01-start-here.ipynb") -> tuple[str, str]:
    """The source of the board's cell and of the autopilot's cell."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    board = next(s for s in code if "play_in_notebook(" in s and "w\n" in s + "\n")
    autopilot = next(s for s in code if OFF in s)
    return board, autopilot


def _history(ctl) -> int:
    return len(ctl.game.history)


def test_run_all_leaves_the_students_board_alone():
    board, autopilot = _cells()
    ns: dict = {}
    exec(board, ns)
    w = ns["w"]
    before = _history(w.controller)
    assert not w.controller.game.is_over
    exec(autopilot, ns)
    assert _history(w.controller) == before, "the autopilot played the student's game"
    assert not w.controller.game.is_over
    assert ns["ctl"] is not w.controller
    assert ns["record"].winners is not None and ns["ctl"].game.is_over
    assert set(ns["record"].owners) == {"You", "Bob", "Cy"}


def test_the_autopilot_finishes_the_students_game_when_switched_on():
    board, autopilot = _cells()
    assert autopilot.count(OFF) == 1
    ns: dict = {}
    exec(board, ns)
    exec(autopilot.replace(OFF, "AUTOPILOT = True"), ns)
    w = ns["w"]
    assert ns["ctl"] is w.controller and w.controller.game.is_over
    assert ns["record"].result == w.controller.record.result


@pytest.mark.parametrize("flag", [False, True])
def test_a_finished_game_is_the_students_own(flag):
    """A student who finished the game on the board gets that game, whatever the flag."""
    board, autopilot = _cells()
    ns: dict = {}
    exec(board, ns)
    exec(autopilot.replace(OFF, "AUTOPILOT = True"), ns)   # finish it, as a student would by clicking
    finished = ns["w"].controller
    exec(autopilot.replace(OFF, f"AUTOPILOT = {flag}"), ns)
    assert ns["ctl"] is finished
