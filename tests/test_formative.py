"""The course's formative feedback: it reads the student's variable by name, never raises, and says only
things about form (a probability, a distribution, a shape, a letter, a direction)."""
from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

from heimlich_lab.course import formative

@pytest.mark.parametrize("value, says", [
    (None, "not answered yet"), (0.25, "a probability (0.25)"), (25, "looks like a percentage"),
    (-0.1, "is not a probability"), (float("nan"), "one number"), ("0.3", "a probability (0.3)"),
    ([0.1, 0.2], "one number"), (True, "one number"),
])
def test_probability(value, says, capsys):
    answer = value  # noqa: F841 (read by name from this frame)
    formative.probability("answer")
    assert says in capsys.readouterr().out

def test_missing_name_does_not_raise(capsys):
    formative.probability("no_such_name_anywhere")
    formative.distribution("no_such_name_anywhere")
    formative.shape("no_such_name_anywhere", (2,))
    assert capsys.readouterr().out.count("not answered yet") == 3

@pytest.mark.parametrize("value, says", [
    ({"a": 0.5, "b": 0.5}, "a distribution over 2"), (pd.Series([0.2, 0.8]), "a distribution over 2"),
    (np.array([1, 1]), "sum to 2"), ({"a": -0.5, "b": 1.5}, "cannot be negative"), ("abc", "finite numbers"),
])
def test_distribution(value, says, capsys):
    table = value  # noqa: F841
    formative.distribution("table")
    assert says in capsys.readouterr().out

def test_distribution_labels(capsys):
    table = {"Ann": 1.0}  # noqa: F841
    formative.distribution("table", labels=["Ann", "Bob"])
    assert "missing: Bob" in capsys.readouterr().out

def test_number_shape_choice_direction(capsys):
    n = 7.5  # noqa: F841
    grid = np.zeros((2, 3))  # noqa: F841
    q = "B"  # noqa: F841
    before, after = 0.2, 0.1  # noqa: F841
    formative.number("n", integer=True)
    formative.number("n", low=10)
    formative.shape("grid", (3, 2))
    formative.choice("q", options="abc")
    formative.direction("after", than="before", way="up")
    formative.direction("after", than="before", way="down")
    out = capsys.readouterr().out.splitlines()
    assert "whole number" in out[0] and "outside the plausible range" in out[1]
    assert "shape (2, 3), expected (3, 2)" in out[2]
    assert "recorded (b)" in out[3]
    assert "moved down" in out[4] and "should move it up" in out[4]
    assert "as the evidence should" in out[5]
    with pytest.raises(ValueError, match="way must be"):
        formative.direction("after", than="before", way="sideways")

def test_knows_no_answer():
    """The module holds no answer: its source has no number with three or more decimals and no digest."""
    import re
    source = inspect.getsource(formative)
    assert not re.search(r"\b0\.\d{3,}", source)
    assert not re.search(r"\b[0-9a-f]{16,}\b", source)
