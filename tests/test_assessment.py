"""The student release and the autograder, end to end (nbgrader; heimlich_lab/course/release.py and grading.py).

The release of a small fixture notebook (tests/course_fixture.py) and of one real course notebook holds no answer
material, and the search for answer material finds every kind of it when it is planted. The autograder grades,
for fake students, a solved copy (the instructor's source) with full marks, a blank copy (the release as it is)
with zero, a filled-in release with a wrong answer and a deleted test cell with the right partial score, and a
corrupted notebook with 0 and a note, without stopping; it writes the grade table and feedback pages and
nothing else. Bad input is refused before anything is written.
"""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import nbformat
import pytest

import course_fixture as fx
import nbgrader  # noqa: F401  (the instructor extra, which make test installs: a missing one must fail, not skip)
from heimlich_lab.cli import main as cli_main
from heimlich_lab.course import grading, markup, release

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "instructor" / "notebooks"
#: The real notebook the end-to-end test releases and grades: the primer, the cheapest to run.
REAL = "00-rules-primer.ipynb"
#: Course notebooks still in the old format (tests/test_course.py::LEGACY keeps the list honest).
from test_course import LEGACY  # noqa: E402


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A source folder: the fixture, an old-format notebook and the real notebook."""
    folder = tmp_path_factory.mktemp("source")
    fx.write(folder, "99-fixture.ipynb", fx.fixture_notebook())
    fx.write(folder, "98-legacy.ipynb", fx.legacy_notebook())
    shutil.copy(SOURCE / REAL, folder / REAL)
    return folder


@pytest.fixture(scope="module")
def released(source) -> dict[str, str]:
    return release.build_release(source)


def _cells(text: str):
    return nbformat.reads(text, as_version=4).cells


def test_the_release_blanks_answers_and_removes_tests_notes_and_digests(released):
    cells = _cells(released["99-fixture.ipynb"])
    answers = [c for c in cells if markup.kind(c) == "answer"]
    assert [c.source for c in answers] == [
        "# Store P(Bob controls red) in p_red, a probability.\n# YOUR CODE HERE",
        "# Store the letter of your answer in answer_q1.\n# YOUR CODE HERE",
        "# Store the letter of your answer in answer_q2.\n# YOUR CODE HERE"]
    tests = [c for c in cells if markup.kind(c) == "hidden-test"]
    assert [c.source for c in tests] == [fx.GRADED.strip()] * 3
    assert [markup.points(c) for c in tests] == [2, 1, 1]
    assert all(c.metadata.nbgrader.get("locked") for c in tests)
    (open_q,) = [c for c in cells if markup.kind(c) == "open-question"]
    assert open_q.source == release.TEXT_STUB
    assert not [c for c in cells if markup.kind(c) == "instructor-note"]
    assert all("checksum" not in c.metadata.get("nbgrader", {}) for c in cells)
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in cells if c.cell_type == "code")
    for secret in fx.FIXTURE_SECRETS:
        assert secret not in released["99-fixture.ipynb"], secret


def test_the_release_of_an_old_format_notebook_keeps_prompts_and_drops_self_checks(released):
    cells = _cells(released["98-legacy.ipynb"])
    assert [c.source for c in cells[2:]] == ["# Exercise 1: store it in p_old.\n# YOUR CODE HERE"]
    assert "tags" not in cells[2].metadata
    assert "selfcheck" not in released["98-legacy.ipynb"]


def test_nothing_of_the_answers_is_in_the_release(source, released):
    assert set(released) == {"99-fixture.ipynb", "98-legacy.ipynb", REAL}
    assert release.answer_material(release.source_notebooks(source), released) == []


def _plant(text: str, cell_index: int, line: str) -> str:
    nb = nbformat.reads(text, as_version=4)
    nb.cells[cell_index].source += "\n" + line
    return nbformat.writes(nb)


@pytest.mark.parametrize("where, line, finding", [
    (1, "odds_red = 0.6 / 1.3", "a line of the answers: 'odds_red = 0.6 / 1.3'"),     # a solution line
    (1, "Almost a third: 0.3158.", "the number 0.3158 of a hidden test (99-fixture.ipynb 99-p-red-test)"),
    (3, "# 7f3a9c2b41d05e6f8a1b", "a hex digest 7f3a9c2b41d05e6f8a1b"),               # the old selfcheck digests
    (3, "### BEGIN SOLUTION", "nbgrader's marker 'BEGIN SOLUTION'"),
    (9, "**For instructors.** c) is right: three of them. a) and b) miscount.", "a line of the answers: "
        "'**For instructors.** c) is right: three of them. a) and b) miscount.'"),       # an instructor note
    (7, "from selfcheck import check", "cell 7 is legacy selfcheck"),
    (4, "assert answer_q1 == 'c'", "a graded test cell, runs code students can read"),
])
def test_the_search_finds_planted_answer_material(source, released, where, line, finding):
    planted = dict(released, **{"99-fixture.ipynb": _plant(released["99-fixture.ipynb"], where, line)})
    found = release.answer_material(release.source_notebooks(source), planted)
    assert any(finding in f for f in found), found


def test_the_search_finds_files_that_are_not_notebooks(source, released):
    found = release.answer_material(release.source_notebooks(source), released, ["selfcheck.py"])
    assert found == ["selfcheck.py: not a released notebook (answer files such as selfcheck.py have no place here)"]


def test_write_release_check_and_refusals(source, released, tmp_path):
    target = tmp_path / "notebooks"
    assert release.write_release(source, target) == 0
    assert {p.name: p.read_text() for p in target.iterdir()} == released
    assert release.write_release(source, target, check=True) == 0
    (target / "selfcheck.py").write_text("DIGESTS = {}\n")
    assert release.write_release(source, target, check=True) == 1
    assert release.write_release(source, target) == 0 and not (target / "selfcheck.py").exists()
    # a hidden test's number in the prose the students read: nothing is written
    leaky = tmp_path / "leaky"
    nb = fx.fixture_notebook()
    nb.cells[1].source += " (It is about 0.3158.)"
    fx.write(leaky, "99-fixture.ipynb", nb)
    before = {p.name: p.read_text() for p in target.iterdir()}
    assert release.write_release(leaky, target) == 1
    assert {p.name: p.read_text() for p in target.iterdir()} == before


def test_markup_nbgrader_refuses_is_a_clear_error(tmp_path):
    nb = fx.fixture_notebook()
    nb.cells[1].source += "\n### BEGIN SOLUTION\nx\n### END SOLUTION"      # a region in a cell not marked
    fx.write(tmp_path, "99-fixture.ipynb", nb)
    with pytest.raises(release.ReleaseError, match="99-fixture.ipynb"):
        release.build_release(tmp_path)
    with pytest.raises(release.ReleaseError, match="no source folder"):
        release.build_release(tmp_path / "missing")


# ------------------------------------------------------------------------------------------------- grading
@pytest.fixture(scope="module")
def graded(source, released, tmp_path_factory):
    """Four fake students: ann hands in the solved source, bob the blank release, cy the release filled in
    with a wrong answer to question 2 and the test cell of p_red deleted, dee a corrupted notebook."""
    subs = tmp_path_factory.mktemp("submissions")
    fixture, real = "99-fixture.ipynb", REAL
    for student in ("ann", "bob"):
        (subs / student).mkdir()
    for name in (fixture, real):
        shutil.copy(source / name, subs / "ann" / name)
        (subs / "bob" / name).write_text(released[name])
    cy = fx.fill_in(nbformat.reads(released[fixture], as_version=4), fx.fixture_notebook(),
                    wrong={"99-q2": 'answer_q2 = "b"'})
    cy.cells = [c for c in cy.cells if markup.grade_id(c) != "99-p-red-test"]
    fx.write(subs / "cy", fixture, cy)
    (subs / "dee").mkdir()
    (subs / "dee" / fixture).write_text('{"cells": [')
    (subs / "ann" / ".ipynb_checkpoints").mkdir()          # ignored
    (subs / "ann" / "notes.txt").write_text("my notes\n")  # ignored, and said so
    out = tmp_path_factory.mktemp("grades") / "out"
    lines = []
    rows = grading.grade(subs, out, source, log=lines.append)
    return out, {(r.student, r.notebook): r for r in rows}, lines


def _real_points() -> tuple[float, float]:
    nb = nbformat.read(SOURCE / REAL, as_version=4)
    graded = [c for c in nb.cells if markup.kind(c) in ("hidden-test", "open-question")]
    return (sum(markup.points(c) for c in graded),
            sum(markup.points(c) for c in graded if markup.kind(c) == "open-question"))


def test_a_solved_copy_scores_full_marks_and_a_blank_copy_zero(graded):
    out, rows, _ = graded
    fixture = "99-fixture"
    ann, bob = rows[("ann", fixture)], rows[("bob", fixture)]
    assert (ann.score, ann.max_score, ann.by_hand) == (fx.FIXTURE_POINTS, fx.FIXTURE_POINTS + fx.FIXTURE_BY_HAND,
                                                      fx.FIXTURE_BY_HAND)
    assert ann.note == f"{fx.FIXTURE_BY_HAND} points to grade by hand"
    assert (bob.score, bob.max_score, bob.by_hand, bob.note) == (0, ann.max_score, 0, "")
    real = REAL.removesuffix(".ipynb")
    total, by_hand = _real_points()
    ann, bob = rows[("ann", real)], rows[("bob", real)]
    assert (ann.max_score, bob.max_score) == (total, total)
    assert (ann.score, ann.by_hand) == (total - by_hand, by_hand) and (bob.score, bob.by_hand) == (0, 0)
    if REAL not in LEGACY:            # converted: the real notebook has graded exercises
        assert total - by_hand > 0, f"{REAL} has no automatically graded points"
    else:                             # the old format: nothing to grade, and the table says so
        assert ann.note == bob.note == "the notebook has no graded cells"


def test_a_wrong_answer_and_a_deleted_test_cell_are_graded_from_the_gradebook(graded):
    _, rows, _ = graded
    cy = rows[("cy", "99-fixture")]
    assert (cy.score, cy.by_hand) == (2 + 1, 0)      # p_red (its deleted test put back) and q1 right, q2 wrong
    assert rows[("cy", REAL.removesuffix(".ipynb"))].note == "not submitted"


def test_a_corrupted_notebook_scores_zero_with_a_note_and_the_others_are_graded(graded):
    out, rows, lines = graded
    dee = rows[("dee", "99-fixture")]
    assert dee.score == 0 and dee.note.startswith("could not be read as a notebook")
    page = (out / "feedback" / "dee" / "99-fixture.html").read_text()
    assert "could not be read as a notebook" in page
    assert any("dee" in ln and "could not be read" in ln for ln in lines)
    assert "ignored ann/notes.txt: not a notebook" in lines


def test_the_grade_table_and_feedback_pages(graded):
    out, rows, _ = graded
    with open(out / "grades.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert list(table[0]) == ["student", "notebook", "score", "max_score", "by_hand", "note"]
    real = REAL.removesuffix(".ipynb")
    students, notebooks = ["ann", "bob", "cy", "dee"], sorted(["99-fixture", real])
    assert [(r["student"], r["notebook"]) for r in table] == \
        [(s, n) for s in students for n in notebooks] + [(s, "TOTAL") for s in students]
    totals = {r["student"]: float(r["score"]) for r in table if r["notebook"] == "TOTAL"}
    assert totals == {s: sum(rows[(s, n)].score for n in notebooks) for s in students}
    assert totals["ann"] == fx.FIXTURE_POINTS + rows[("ann", real)].score and totals["bob"] == 0
    pages = sorted(str(p.relative_to(out)) for p in (out / "feedback").rglob("*") if p.is_file())
    assert pages == sorted([f"feedback/{s}/{n}.html" for s in ("ann", "bob") for n in notebooks]
                           + ["feedback/cy/99-fixture.html", "feedback/dee/99-fixture.html"])
    ann = (out / "feedback" / "ann" / "99-fixture.html").read_text()
    assert "99-p-red-test" in ann and "Score" in ann
    assert sorted(p.name for p in out.iterdir()) == ["feedback", "grades.csv"]      # nothing else written


def _layout_error(tmp_path, build, match):
    subs = tmp_path / "subs"
    build(subs)
    out = tmp_path / "out"
    with pytest.raises(grading.GradingError, match=match):
        grading.grade(subs, out, SOURCE)
    assert not out.exists()


def test_bad_submission_folders_are_refused_before_anything_runs(tmp_path, capsys):
    def unknown(subs):
        fx.write(subs / "ann", "03-bayes-one-move (1).ipynb", nbformat.v4.new_notebook())
        fx.write(subs / "ann", "42-no-such.ipynb", nbformat.v4.new_notebook())
    _layout_error(tmp_path / "a", unknown, r"(?s)ann/03-bayes-one-move \(1\).ipynb: not a notebook of the course.*"
                                           r"ann/42-no-such.ipynb: not a notebook of the course")
    _layout_error(tmp_path / "b", lambda subs: fx.write(subs, REAL, nbformat.v4.new_notebook()),
                  "a file outside any student folder")
    _layout_error(tmp_path / "c", lambda subs: fx.write(subs / "ann" / "week1", REAL, nbformat.v4.new_notebook()),
                  "a folder inside a student folder")
    _layout_error(tmp_path / "d", lambda subs: subs.mkdir(parents=True), "no student folder")
    _layout_error(tmp_path / "e", lambda subs: (subs / "ann").mkdir(parents=True), "no course notebook")
    with pytest.raises(grading.GradingError, match="no submissions folder"):
        grading.grade(tmp_path / "missing", tmp_path / "out", SOURCE)
    with pytest.raises(grading.GradingError, match="no source folder"):
        grading.grade(tmp_path / "a" / "subs", tmp_path / "out", tmp_path / "no-source")
    assert not (tmp_path / "out").exists()


def test_the_output_folder_is_never_overwritten(tmp_path, capsys):
    subs = tmp_path / "subs"
    fx.write(subs / "ann", REAL, nbformat.v4.new_notebook())
    out = tmp_path / "out"
    out.mkdir()
    (out / "grades.csv").write_text("earlier grades\n")
    assert cli_main(["grade", str(subs), "--out", str(out), "--source", str(SOURCE)]) == 2
    assert "exists and is not an empty folder" in capsys.readouterr().err
    assert (out / "grades.csv").read_text() == "earlier grades\n"
    assert cli_main(["grade", str(subs), "--out", str(subs / "out")]) == 2
    assert "inside the submissions folder" in capsys.readouterr().err
    assert not (subs / "out").exists()


def test_the_grade_command_is_registered():
    from heimlich_lab.cli import build_parser
    args = build_parser().parse_args(["grade", "subs", "--out", "grades"])
    assert args.func is grading.run and args.source == SOURCE and json.dumps(str(args.out)) == '"grades"'
