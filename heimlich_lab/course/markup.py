"""The course's exercise markup, read from a notebook's cells: nbgrader's cell metadata and regions.

The instructor's source notebooks (``instructor/notebooks/``) mark their exercises the nbgrader way
(docs/assessment.md): an *answer cell* holds the worked solution between ``### BEGIN SOLUTION`` and
``### END SOLUTION``; a *hidden test cell* (graded, locked, with points) holds its asserts between
``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``; an *open question* is a graded markdown cell whose
source is the model answer; a cell tagged ``solution-text`` is an instructor-only note. This module only reads
that markup (no nbgrader import): the release (:mod:`heimlich_lab.course.release`), the answer key and the
tests share it.

Cells are plain dicts or nbformat nodes:

>>> answer = {"cell_type": "code", "metadata": {"nbgrader": {"solution": True, "grade": False,
...           "grade_id": "03-p-red"}}, "source": "# Set p_red.\\n### BEGIN SOLUTION\\np_red = 0.3\\n### END SOLUTION"}
>>> kind(answer), grade_id(answer)
('answer', '03-p-red')
>>> solution_region(answer["source"])
'p_red = 0.3'
>>> prompt(answer["source"])
'# Set p_red.'
>>> test = {"cell_type": "code", "metadata": {"nbgrader": {"grade": True, "solution": False, "locked": True,
...         "points": 2, "grade_id": "03-p-red-test"}},
...         "source": "# Graded by your instructor.\\n### BEGIN HIDDEN TESTS\\n"
...                   "assert abs(p_red - 0.3) < 1e-3\\n### END HIDDEN TESTS"}
>>> kind(test), points(test), hidden_tests(test["source"])
('hidden-test', 2, 'assert abs(p_red - 0.3) < 1e-3')
>>> kind({"cell_type": "markdown", "metadata": {"tags": ["solution-text"]}, "source": "b) is right"})
'instructor-note'
>>> kind({"cell_type": "code", "metadata": {}, "source": "x = 1"})
'plain'
"""
from __future__ import annotations

import re
from typing import Any, Mapping

__all__ = ["BEGIN_SOLUTION", "END_SOLUTION", "BEGIN_HIDDEN", "END_HIDDEN", "INSTRUCTOR_TAG", "nbgrader",
           "kind", "grade_id", "points", "tags", "region", "outside", "solution_region", "hidden_tests", "prompt",
           "uses_selfcheck", "legacy_prompt"]

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
#: Markdown cells with this tag are for instructors: the release leaves them out, the answer key keeps them.
INSTRUCTOR_TAG = "solution-text"
#: The old format's tag of a worked solution cell (before nbgrader): the whole cell after its leading comments.
LEGACY_SOLUTION_TAG = "solution"
_SELFCHECK = re.compile(r"^\s*(from\s+selfcheck\s+import|import\s+selfcheck)\b", re.MULTILINE)


def nbgrader(cell: Mapping[str, Any]) -> dict:
    """The cell's nbgrader metadata ({} when it has none)."""
    return dict(cell.get("metadata", {}).get("nbgrader", {}) or {})


def tags(cell: Mapping[str, Any]) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []) or [])


def kind(cell: Mapping[str, Any]) -> str:
    """What the cell is in the exercise markup: ``answer`` (a code cell the student fills in),
    ``hidden-test`` (a graded code cell), ``open-question`` (a graded markdown cell: the model answer),
    ``instructor-note`` (tagged ``solution-text``), ``legacy-solution`` (the old format: a code cell tagged
    ``solution`` without nbgrader metadata), ``legacy-selfcheck`` (the old format's self-check, which imports
    ``selfcheck``), ``other-nbgrader`` (any other nbgrader cell: read-only, task) or ``plain``."""
    meta = nbgrader(cell)
    code = cell.get("cell_type") == "code"
    if meta:
        if meta.get("solution") and not meta.get("grade") and code:
            return "answer"
        if meta.get("grade") and not meta.get("solution") and code:
            return "hidden-test"
        if meta.get("grade") and meta.get("solution") and not code:
            return "open-question"
        return "other-nbgrader"
    if INSTRUCTOR_TAG in tags(cell):
        return "instructor-note"
    if code and LEGACY_SOLUTION_TAG in tags(cell):
        return "legacy-solution"
    if code and uses_selfcheck(cell.get("source", "")):
        return "legacy-selfcheck"
    return "plain"


def grade_id(cell: Mapping[str, Any]) -> str | None:
    return nbgrader(cell).get("grade_id")


def points(cell: Mapping[str, Any]):
    """The cell's points (None when it has none)."""
    return nbgrader(cell).get("points")


def region(source: str, begin: str, end: str) -> str:
    """The lines between every ``begin`` and ``end`` marker line (several regions joined), stripped of the
    markers; '' when there is none.

    >>> region("a\\n### BEGIN SOLUTION\\nb\\n### END SOLUTION\\nc", BEGIN_SOLUTION, END_SOLUTION)
    'b'
    """
    out, inside = [], False
    for line in source.splitlines():
        if line.strip() == begin:
            inside = True
        elif line.strip() == end:
            inside = False
        elif inside:
            out.append(line)
    return "\n".join(out)


def outside(source: str, begin: str, end: str) -> str:
    """The lines outside every ``begin`` ... ``end`` region, markers left out.

    >>> outside("a\\n### BEGIN SOLUTION\\nb\\n### END SOLUTION\\nc", BEGIN_SOLUTION, END_SOLUTION)
    'a\\nc'
    """
    out, inside = [], False
    for line in source.splitlines():
        if line.strip() == begin:
            inside = True
        elif line.strip() == end:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def solution_region(source: str) -> str:
    return region(source, BEGIN_SOLUTION, END_SOLUTION)


def hidden_tests(source: str) -> str:
    return region(source, BEGIN_HIDDEN, END_HIDDEN)


def prompt(source: str) -> str:
    """An answer cell's source before its solution region (the task, as comments)."""
    lines = []
    for line in source.splitlines():
        if line.strip() == BEGIN_SOLUTION:
            break
        lines.append(line)
    return "\n".join(lines).strip()


def legacy_prompt(source: str) -> str:
    """The old format: a solution cell's leading comment lines (the task).

    >>> legacy_prompt("# Store it in p.\\np = 0.5\\n# why")
    '# Store it in p.'
    """
    lines = []
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines)


def uses_selfcheck(source: str) -> bool:
    """Whether code imports the old self-check module (hashed answers: the release leaves such cells out).

    >>> uses_selfcheck("from selfcheck import check\\ncheck('03.p', p)"), uses_selfcheck("x = 'selfcheck'")
    (True, False)
    """
    return bool(_SELFCHECK.search(source))
