"""The instructor kit: the quiz bank (structure, every computable answer recomputed with the library, every number
quoted from a notebook found in it), the assignments (briefs with rubrics whose points add up, model answers that
use only the public API and are seeded), the schedule and the instructors' pages (docs/course.md,
instructor/README.md: every notebook's prerequisites, no development history, every file they name exists).
"""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
INSTRUCTOR = ROOT / "instructor"
NOTEBOOKS = INSTRUCTOR / "notebooks"
ASSIGNMENTS = INSTRUCTOR / "assignments"
COURSE_DOC = ROOT / "docs" / "course.md"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)
    spec.loader.exec_module(mod)
    return mod


quiz = _load("make_quiz_bank", ROOT / "scripts" / "make_quiz_bank.py")
QUESTIONS = quiz.load()
WEEKS = {w["week"]: w for w in yaml.safe_load((INSTRUCTOR / "schedule.yaml").read_text())["weeks"]}


def _notebook_text(number: int) -> str:
    """A notebook's sources and printed outputs, as one string."""
    (path,) = NOTEBOOKS.glob(f"{number:02d}-*.ipynb")
    nb = nbformat.read(path, as_version=4)
    parts = []
    for cell in nb.cells:
        parts.append(cell.source)
        for o in cell.get("outputs", []):
            parts.append("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------------------------
# The quiz bank.

def test_the_quiz_bank_has_forty_questions_with_answers_and_explanations():
    assert len(QUESTIONS) >= 40
    ids = [q["id"] for q in QUESTIONS]
    assert len(ids) == len(set(ids)), f"duplicate ids: {[i for i, n in Counter(ids).items() if n > 1]}"
    for q in QUESTIONS:
        assert q["kind"] in quiz.KINDS, q["id"]
        assert str(q.get("question", "")).strip() and str(q.get("explanation", "")).strip(), q["id"]
        assert q.get("answer") not in (None, ""), f"{q['id']}: no answer"
        assert q["week"] in WEEKS, f"{q['id']}: week {q['week']} is not in the schedule"
        scheduled = [e["number"] for e in WEEKS[q["week"]]["notebooks"]]
        assert q["notebook"] in scheduled, f"{q['id']}: notebook {q['notebook']} is not in week {q['week']}"
        if q["kind"] == "choice":
            assert len(q["options"]) >= 3 and list(q["options"]) == list("abcd"[:len(q["options"])]), q["id"]
            assert q["answer"] in q["options"], f"{q['id']}: the answer is not an option"
        elif q["kind"] == "numeric":
            assert isinstance(q["answer"], (int, float)) and q["tolerance"] >= 0, q["id"]


def test_every_week_is_covered_with_a_mix_of_kinds():
    for week in WEEKS:
        mine = [q for q in QUESTIONS if q["week"] == week]
        assert len(mine) >= 6, f"week {week}: {len(mine)} questions"
        kinds = {q["kind"] for q in mine}
        assert {"choice", "numeric"} <= kinds, f"week {week}: only {kinds}"


def test_the_right_letters_vary():
    letters = Counter(q["answer"] for q in QUESTIONS if q["kind"] == "choice")
    assert set(letters) == set("abcd"), f"right letters used: {dict(letters)}"
    assert max(letters.values()) <= 0.4 * sum(letters.values()), f"one letter dominates: {dict(letters)}"


@pytest.mark.parametrize("q", [q for q in QUESTIONS if q.get("check")], ids=lambda q: q["id"])
def test_the_answer_is_what_the_library_computes(q):
    namespace: dict = {}
    exec(compile(q["check"], f"<quiz {q['id']}>", "exec"), namespace)
    result = namespace["result"]
    if q["kind"] == "numeric":
        assert abs(float(result) - q["answer"]) <= q["tolerance"] + 1e-12, \
            f"{q['id']}: the bank says {q['answer']}, the library computes {result}"
    else:
        assert result == q["answer"], f"{q['id']}: the bank says {q['answer']!r}, the check gives {result!r}"


def test_most_numeric_answers_are_recomputed():
    numeric = [q for q in QUESTIONS if q["kind"] == "numeric"]
    assert all(q.get("check") for q in numeric), [q["id"] for q in numeric if not q.get("check")]


@pytest.mark.parametrize("q", [q for q in QUESTIONS if q.get("notebook_quotes")], ids=lambda q: q["id"])
def test_numbers_quoted_from_a_notebook_are_in_it(q):
    text = _notebook_text(q["notebook"])
    missing = [s for s in q["notebook_quotes"] if s not in text]
    assert missing == [], f"{q['id']}: notebook {q['notebook']} no longer shows {missing}: update the question"


def test_the_quiz_page_is_current():
    assert quiz.main(["--check"]) == 0, "run python scripts/make_quiz_bank.py"


def test_the_quiz_tool_examples():
    import doctest
    assert doctest.testmod(quiz).failed == 0
