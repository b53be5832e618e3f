"""Projector mode's kernel side (issue 24, item 3): every table's widget has the ``projector`` traitlet (the table
shell's toggle sets it; the kernel may read or set it) and the ``notebook`` key the front end remembers it under.
The layout itself is checked in a real browser: tests/browser/test_projector_browser.py."""
from __future__ import annotations

import pytest
import traitlets

from heimlich_lab import secrets
from heimlich_lab.bots import RandomBot
from heimlich_lab.widget import play_in_notebook
from heimlich_lab.widget.front_end import TableWidget


def both_tables():
    board = play_in_notebook(["Ann", "Bob", "Cy"], bots={"Bob": RandomBot(1), "Cy": RandomBot(2)}, seed=1,
                             beliefs=False)
    table = secrets.play_in_notebook(["Ann", "Bob", "Cy", "Dee"],
                                     bots={p: secrets.RandomBot(i) for i, p in enumerate(["Bob", "Cy", "Dee"])}, seed=3)
    return board, table


def test_both_tables_have_the_projector_traitlet_off_and_the_notebook_key(monkeypatch):
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/class/course/01-start-here.ipynb")
    for w in both_tables():
        assert isinstance(w, TableWidget)
        assert w.projector is False
        assert w.notebook == "/home/class/course/01-start-here.ipynb"
        assert {"projector", "notebook"} <= set(w.keys)        # synced to the front end
    monkeypatch.delenv("JPY_SESSION_NAME")
    assert {w.notebook for w in both_tables()} == {""}


def test_the_kernel_sets_projector_mode_and_bad_values_are_refused():
    for w in both_tables():
        state = dict(w.state)
        w.projector = True
        assert w.projector is True and w.state == state          # the layout is the front end's; the game is unchanged
        with pytest.raises(traitlets.TraitError):
            w.projector = "yes please"
        assert w.projector is True
