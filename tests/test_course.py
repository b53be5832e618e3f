"""The course notebooks: structure, the exercise format, the student release, the answer key, the no-stderr rule.

The notebooks themselves run under nbval (``make test-notebooks``: the source strictly or laxly, the release
laxly); the autograder runs end to end in tests/test_assessment.py. These tests check what those do not: every
notebook opens with its title and learning goals; every exercise is in nbgrader's markup (docs/assessment.md):
an answer cell with a solution region and nothing after it, its hidden test cell with asserts about the answer
and points, grade ids unique across the course, multiple-choice answers that vary and options whose form does
not mark the right one; the committed release (``notebooks/``) holds every notebook and no answer material (no
solution line, no hidden test's number, no digest, no instructor note, no self-check); the answer key is current
and has every solution and test; the stderr hook in ``instructor/notebooks/conftest.py`` really fails a cell that
writes to stderr.

The format checks are functions, each tested on a small fixture with planted faults (tests/course_fixture.py),
then run on the course. Notebooks still in the old format (a solution cell tagged ``solution``, a self-check
importing ``selfcheck``) are listed in :data:`LEGACY` while their conversion is under way;
``test_the_legacy_list_is_current`` fails as soon as one is converted (remove it from the list) and
``test_selfcheck_is_gone_once_no_notebook_uses_it`` once the last one is (delete instructor/notebooks/selfcheck.py).
"""
from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import nbformat
import pytest

import course_fixture as fx
from heimlich_lab.course import markup

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "instructor" / "notebooks"
RELEASE = ROOT / "notebooks"
COURSE = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
APPS = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p not in COURSE)     # app.ipynb, play.ipynb: not lessons
STRICT = [line.strip() for line in (NOTEBOOKS / "STRICT").read_text().splitlines() if line.strip()]

#: Course notebooks still in the old format (being converted to nbgrader's markup). Remove each one as it is
#: converted: test_the_legacy_list_is_current says which.
LEGACY: set[str] = set()


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)
    spec.loader.exec_module(mod)
    return mod


def _read(path: Path):
    return nbformat.read(path, as_version=4)


def _number(path: Path) -> int:
    return int(path.name.split("-", 1)[0])


def test_the_course_is_there():
    numbers = [_number(p) for p in COURSE]
    assert numbers == list(range(len(numbers))) and len(numbers) >= 12, \
        f"expected notebooks 00, 01, ... (at least 12), found {[p.name for p in COURSE]}"
    assert [p.name for p in APPS] == ["app.ipynb", "play.ipynb"], f"unexpected notebooks: {[p.name for p in APPS]}"


@pytest.mark.parametrize("path", COURSE + APPS, ids=lambda p: p.name)
def test_title_and_learning_goals(path):
    first = _read(path).cells[0]
    assert first.cell_type == "markdown", f"{path.name}: the first cell must be the markdown title"
    lines = first.source.splitlines()
    if path in APPS:            # not numbered: any '# Title'
        assert lines and re.fullmatch(r"# \S.*", lines[0]), f"{path.name}: the first line must be '# Title'"
    else:
        assert re.fullmatch(rf"# {_number(path)}\. \S.*", lines[0]), \
            f"{path.name}: the first line must be '# {_number(path)}. Title', not {lines[0]!r}"
    assert "**Learning goals**" in first.source, f"{path.name}: the title cell has no '**Learning goals**'"
    after = first.source.split("**Learning goals**", 1)[1]
    goals = [ln for ln in after.splitlines() if ln.lstrip().startswith("- ")]
    assert len(goals) >= 2, f"{path.name}: the learning goals must be a list (at least two '- ' items)"


# ------------------------------------------------------------------------------------ the exercise format
def _kinds(nb) -> Counter:
    return Counter(markup.kind(c) for c in nb.cells)


def is_legacy(nb) -> bool:
    kinds = _kinds(nb)
    return bool(kinds["legacy-solution"] or kinds["legacy-selfcheck"])


def _names(code: str, ctx) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def format_problems(nb, name: str) -> list[str]:
    """What in one notebook breaks the exercise format (docs/assessment.md), one message each."""
    problems = []
    kinds = _kinds(nb)
    if kinds["answer"] + kinds["hidden-test"] + kinds["open-question"] and is_legacy(nb):
        problems.append(f"{name}: mixes nbgrader cells with the old format (cells tagged 'solution' or importing "
                        "selfcheck): convert them all")
    cells = nb.cells
    answers = [i for i, c in enumerate(cells) if markup.kind(c) == "answer"]
    tests = {markup.grade_id(c): i for i, c in enumerate(cells) if markup.kind(c) == "hidden-test"}
    for k, i in enumerate(answers):
        cell, gid = cells[i], markup.grade_id(cells[i])
        solution = markup.solution_region(cell.source)
        if not solution.strip():
            problems.append(f"{name}: answer {gid} has no solution region (### BEGIN SOLUTION ... ### END SOLUTION)")
        after = cell.source.split(markup.END_SOLUTION, 1)[-1] if markup.END_SOLUTION in cell.source else ""
        before = markup.prompt(cell.source)
        for part, where in ((before, "before"), (after, "after")):
            code = [ln for ln in part.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            if code:
                problems.append(f"{name}: answer {gid} has code {where} its solution region (students would see "
                                f"it): {code[0]!r}")
        if not before.strip():
            problems.append(f"{name}: answer {gid} has no prompt (comments saying what to store, before the solution)")
        test = tests.get(f"{gid}-test")
        end = answers[k + 1] if k + 1 < len(answers) else len(cells)
        if test is None or not i < test < end:
            problems.append(f"{name}: answer {gid} has no hidden test cell {gid}-test after it (before the next answer)")
            continue
        hidden = markup.hidden_tests(cells[test].source)
        try:
            asserts = [n for n in ast.walk(ast.parse(hidden)) if isinstance(n, ast.Assert)]
        except SyntaxError as e:
            problems.append(f"{name}: {gid}-test is not Python ({e.msg})")
            continue
        if not asserts:
            problems.append(f"{name}: {gid}-test has no assert between ### BEGIN HIDDEN TESTS and ### END HIDDEN TESTS")
        looked_at = {n.id for a in asserts for n in ast.walk(a.test) if isinstance(n, ast.Name)}  # not the message
        if not _names(solution, ast.Store) & looked_at:
            problems.append(f"{name}: {gid}-test does not look at what answer {gid} stores")
    answer_ids = {markup.grade_id(cells[i]) for i in answers}
    for gid, i in tests.items():
        if not (gid or "").endswith("-test") or gid[:-len("-test")] not in answer_ids:
            problems.append(f"{name}: hidden test {gid} belongs to no answer cell (grade id: <answer's id>-test)")
        if not markup.hidden_tests(cells[i].source).strip():
            problems.append(f"{name}: hidden test {gid} has no hidden tests (### BEGIN HIDDEN TESTS ...)")
    for cell in cells:
        what = markup.kind(cell)
        if what in ("hidden-test", "open-question"):
            p = markup.points(cell)
            limit = 3 if what == "hidden-test" else 10
            if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0 < p <= limit:
                problems.append(f"{name}: {markup.grade_id(cell)} has points {p!r} (expected 1 to {limit})")
        if what == "answer" or what == "open-question" or what == "hidden-test":
            gid = markup.grade_id(cell) or ""
            if not re.fullmatch(rf"{re.escape(name[:2])}-[a-z0-9][a-z0-9-]*", gid):
                problems.append(f"{name}: grade id {gid!r} should be '{name[:2]}-<short-key>'")
        if what == "other-nbgrader":
            problems.append(f"{name}: an nbgrader cell of a kind the course does not use: {markup.nbgrader(cell)}")
    return problems


def grade_ids(notebooks: dict) -> Counter:
    return Counter(markup.grade_id(c) for nb in notebooks.values() for c in nb.cells if markup.grade_id(c))


_OPTION = re.compile(r"^\s*(?:[-*]\s*)?\**\(?([a-f])\)\**\s+(\S.*)$")


def multiple_choice(nb, name: str) -> tuple[list[tuple[str, str]], list[str]]:
    """``([(grade id, right letter)], problems)``: the answer cells that store a single letter, and what is wrong
    with their options (the markdown cell before the answer lists them as ``a) ...``)."""
    found, problems = [], []
    for i, cell in enumerate(nb.cells):
        if markup.kind(cell) != "answer":
            continue
        m = re.fullmatch(r"\s*\w+\s*=\s*[\"']([a-z])[\"']\s*", markup.solution_region(cell.source))
        if not m:
            continue
        gid, letter = markup.grade_id(cell), m.group(1)
        found.append((gid, letter))
        statement = next((c.source for c in reversed(nb.cells[:i]) if c.cell_type == "markdown"
                          and markup.kind(c) == "plain"), "")
        options = dict(m.groups() for m in map(_OPTION.match, statement.splitlines()) if m)
        if letter not in options or len(options) < 2:
            problems.append(f"{name}: {gid}: the options before it ({', '.join(options) or 'none'}) do not include "
                            f"the right letter {letter!r}")
            continue
        capital = {o for o, text in options.items() if text[0].isupper()}
        if len(options) >= 3 and (capital == {letter} or set(options) - capital == {letter}):
            problems.append(f"{name}: {gid}: only the right option ({letter}) starts with "
                            f"{'a capital' if capital == {letter} else 'a small'} letter")
    return found, problems


def shuffle_problems(letters: list[str]) -> list[str]:
    """Whether the right letters vary (when there are two questions or more).

    >>> shuffle_problems(["b", "b", "b"])
    ['all 3 multiple-choice answers are "b": shuffle the options']
    >>> shuffle_problems(["b", "c"]), shuffle_problems(["a"])
    ([], [])
    """
    if len(letters) >= 2 and len(set(letters)) == 1:
        return [f'all {len(letters)} multiple-choice answers are "{letters[0]}": shuffle the options']
    return []


def test_the_format_checks_find_planted_faults():
    nb = fx.fixture_notebook()
    assert format_problems(nb, "99-fixture.ipynb") == []
    assert multiple_choice(nb, "99-fixture.ipynb") == ([("99-q1", "c"), ("99-q2", "a")], [])
    bad = fx.fixture_notebook()
    cell = {markup.grade_id(c): c for c in bad.cells if markup.grade_id(c)}
    cell["99-p-red"].source += "\nprint(p_red > 0.5)"                           # code after the solution
    cell["99-p-red-test"].metadata.nbgrader["points"] = 0                         # no points
    cell["99-p-red-test"].source = cell["99-p-red-test"].source.replace("abs(p_red", "abs(q")   # looks elsewhere
    bad.cells.remove(cell["99-q1-test"])                                          # q1 untested
    cell["99-q2"].metadata.nbgrader["grade_id"] = "99-q1"                         # a duplicate id; q2's test orphaned
    cell["99-q2"].source = "answer_q2 = None\n" + cell["99-q2"].source           # code before the solution
    bad.cells.append(fx.hidden_test("99-orphan-test", "assert True"))
    bad.cells.append(nbformat.v4.new_code_cell("from selfcheck import check"))
    found = format_problems(bad, "99-fixture.ipynb")
    expected = ["mixes nbgrader cells with the old format",
                "answer 99-p-red has code after its solution region (students would see it): 'print(p_red > 0.5)'",
                "99-p-red-test does not look at what answer 99-p-red stores",
                "99-p-red-test has points 0 (expected 1 to 3)",
                "answer 99-q1 has no hidden test cell 99-q1-test",
                "answer 99-q1 has code before its solution region (students would see it): 'answer_q2 = None'",
                "hidden test 99-q2-test belongs to no answer cell",
                "hidden test 99-orphan-test belongs to no answer cell"]
    for text in expected:
        assert any(text in f for f in found), (text, found)
    assert grade_ids({"a": bad})["99-q1"] == 2
    giveaway = fx.fixture_notebook()
    giveaway.cells[5].source = "**Question 1.** How many?\n\n- a) one\n- b) two\n- c) Three, of course"
    assert multiple_choice(giveaway, "x")[1] == ["x: 99-q1: only the right option (c) starts with a capital letter"]
    giveaway.cells[5].source = "**Question 1.** How many? One, two or three."
    assert "do not include the right letter 'c'" in multiple_choice(giveaway, "x")[1][0]


@pytest.mark.parametrize("path", COURSE + APPS, ids=lambda p: p.name)
def test_the_legacy_list_is_current(path):
    legacy = is_legacy(_read(path))
    if path.name in LEGACY:
        assert legacy, f"{path.name} is in nbgrader's markup now: remove it from LEGACY in tests/test_course.py"
    else:
        assert not legacy, f"{path.name} has old-format exercises (tagged 'solution', or importing selfcheck): " \
                           "convert them (EXERCISE-FORMAT, docs/assessment.md)"


def test_selfcheck_is_gone_once_no_notebook_uses_it():
    users = [p.name for p in COURSE + APPS if any(markup.kind(c) == "legacy-selfcheck" for c in _read(p).cells)]
    module = NOTEBOOKS / "selfcheck.py"
    if users:
        assert module.exists(), f"{', '.join(users)} still import selfcheck, and {module} is gone"
    else:
        assert not module.exists(), f"no notebook imports selfcheck any more: delete {module.relative_to(ROOT)}"
    assert not (RELEASE / "selfcheck.py").exists(), "the release must not carry the self-check module (hashed answers)"


@pytest.mark.parametrize("path", COURSE + APPS, ids=lambda p: p.name)
def test_every_exercise_is_in_the_format(path):
    nb = _read(path)
    assert format_problems(nb, path.name) == []
    if path in COURSE and path.name not in LEGACY:
        kinds = _kinds(nb)
        assert kinds["answer"] and kinds["hidden-test"], f"{path.name} has no graded exercise (answer + hidden test)"


def test_grade_ids_are_unique_across_the_course():
    counts = grade_ids({p.name: _read(p) for p in COURSE + APPS})
    assert [g for g, n in counts.items() if n > 1] == []


def test_multiple_choice_answers_vary_and_options_do_not_mark_them():
    letters, problems = [], []
    for path in COURSE + APPS:
        found, wrong = multiple_choice(_read(path), path.name)
        letters += [letter for _, letter in found]
        problems += wrong
    assert problems == []
    assert shuffle_problems(letters) == []


# --------------------------------------------------------------------------------------- the student release
def _release_texts() -> dict[str, str]:
    return {p.name: p.read_text() for p in RELEASE.glob("*.ipynb")}


def test_the_release_has_every_notebook_and_nothing_else():
    assert sorted(_release_texts()) == sorted(p.name for p in COURSE + APPS)
    others = sorted(p.name for p in RELEASE.iterdir() if p.suffix != ".ipynb" and not p.name.startswith("."))
    assert others == [], f"files in notebooks/ that are no released notebook: {others}"


def test_the_release_holds_no_answer_material():
    """Every solution line, every number of a hidden test, every instructor note and model answer, nbgrader's
    markers, hex digests (the old self-check kept its answers as salted hashes) and self-check cells: none of
    them is anywhere in notebooks/ (the search itself is tested in tests/test_assessment.py)."""
    from heimlich_lab.course import release
    assert release.answer_material(COURSE + APPS, _release_texts()) == []


@pytest.mark.parametrize("path", COURSE + APPS, ids=lambda p: p.name)
def test_the_release_has_each_exercise_blank_and_no_output(path):
    source, student = _read(path), _read(RELEASE / path.name)
    assert [markup.grade_id(c) for c in student.cells if markup.grade_id(c)] == \
        [markup.grade_id(c) for c in source.cells if markup.grade_id(c)]
    for cell in student.cells:
        if cell.cell_type == "code":
            assert not cell.get("outputs") and cell.get("execution_count") is None, f"{path.name}: outputs kept"
        if markup.kind(cell) == "answer":
            assert cell.source.endswith("# YOUR CODE HERE"), f"{path.name}: {markup.grade_id(cell)} is not blank"
    legacy = sum(markup.kind(c) == "legacy-solution" for c in source.cells)
    assert sum(c.cell_type == "code" and c.source.endswith("\n# YOUR CODE HERE") and not markup.grade_id(c)
               for c in student.cells) == legacy


# ------------------------------------------------------------------------------------------- the answer key
def test_answer_key_is_current_and_kept_from_students():
    key_tool = _load("make_answer_key", ROOT / "scripts" / "make_answer_key.py")
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        rc = key_tool.main(["--check"])
    assert rc == 0, "the answer key is stale; run: python scripts/make_answer_key.py\n" + buf.getvalue()
    key = key_tool.KEY.read_text()
    for path in COURSE + APPS:
        for cell in _read(path).cells:
            what = markup.kind(cell)
            if what == "answer":
                assert markup.solution_region(cell.source).strip() in key, f"{path.name}: {markup.grade_id(cell)}"
            elif what == "hidden-test":
                assert markup.hidden_tests(cell.source).strip() in key, f"{path.name}: {markup.grade_id(cell)}"
            elif what in ("open-question", "instructor-note", "legacy-solution"):
                assert cell.source.strip() in key, f"{path.name}: a {what} is missing from the answer key"
    assert not list(RELEASE.rglob("*answer-key*")) and RELEASE not in key_tool.KEY.parents


def test_the_answer_key_of_the_fixture(tmp_path):
    key_tool = _load("make_answer_key", ROOT / "scripts" / "make_answer_key.py")
    fx.write(tmp_path, "99-fixture.ipynb", fx.fixture_notebook())
    text = key_tool.render(tmp_path)
    assert "Graded: 6 points, 2 of them by hand." in text
    assert "### `99-p-red`" in text and "odds_red = 0.6 / 1.3\np_red = odds_red / (1 + odds_red)" in text
    assert "Hidden test `99-p-red-test` (2 points):" in text and "assert abs(p_red - 0.3158) < 5e-4, p_red" in text
    assert "**Exercise 1.** Bob's odds" in text and "c) is right: three of them" in text
    assert "### `99-open`: an open question (2 points, graded by hand)" in text
    assert "The model answer: the runner moves red" in text


def test_strict_notebooks_have_outputs_and_lax_ones_with_checks_too():
    for name in STRICT:
        nb = _read(NOTEBOOKS / name)
        assert any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), f"{name} is strict but has no outputs"
    for path in COURSE:
        nb = _read(path)
        for c in nb.cells:
            if c.cell_type == "code" and c.source.startswith("# NBVAL_CHECK_OUTPUT"):
                assert c.get("outputs"), f"{path.name}: a NBVAL_CHECK_OUTPUT cell has no committed output"
        if path.name not in STRICT and not any(c.cell_type == "code" and "NBVAL_CHECK_OUTPUT" in c.source
                                               for c in nb.cells):
            assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), \
                f"{path.name} runs lax: clear its outputs (they are not checked)"


def _tiny_notebook(path: Path, source: str) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


#: The stderr hook's cases: a notebook of one cell each, and whether the hook must fail it.
STDERR_CASES = {
    "stderr": ("import sys\nprint('a warning', file=sys.stderr)", True),
    "warning": ("import warnings\nwarnings.warn('deprecated')", True),
    "clean": ("print('hello')", False),
}


@pytest.fixture(scope="module")
def stderr_hook_run(tmp_path_factory):
    """One nbval run (as ``make test-notebooks`` runs it: lax, with the course's conftest.py) over one tiny
    notebook per case in :data:`STDERR_CASES`; nbval gives each notebook its own kernel and test item, so each
    case's outcome is read from the JUnit report on its own: {case: (failure message or None, nbval's output)}."""
    import xml.etree.ElementTree as ET
    folder = tmp_path_factory.mktemp("stderr-hook")
    shutil.copy(NOTEBOOKS / "conftest.py", folder / "conftest.py")
    for name, (source, _) in STDERR_CASES.items():
        _tiny_notebook(folder / f"{name}.ipynb", source)
    report = folder / "report.xml"
    res = subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env",
                          "-p", "no:cacheprovider", "-q", f"--junitxml={report}", str(folder)],
                         cwd=folder, capture_output=True, text=True, timeout=300)
    log = res.stdout[-3000:] + res.stderr[-2000:]
    cases = {}
    for case in ET.parse(report).iter("testcase"):
        failed = case.find("failure") if case.find("failure") is not None else case.find("error")
        name = case.get("classname").removesuffix(".ipynb")
        assert name not in cases, f"{name}: more than one item\n{log}"
        cases[name] = (None if failed is None else (failed.get("message") or "") + (failed.text or ""))
    assert sorted(cases) == sorted(STDERR_CASES), log
    assert res.returncode == (1 if any(fails for _, fails in STDERR_CASES.values()) else 0), log
    return cases, log


@pytest.mark.parametrize("case", list(STDERR_CASES))
def test_stderr_hook(stderr_hook_run, case):
    cases, log = stderr_hook_run
    failure = cases[case]
    if STDERR_CASES[case][1]:
        assert failure is not None, f"a cell writing to stderr ({case}) passed:\n{log}"
        assert "cell wrote to stderr" in failure, failure
    else:
        assert failure is None, f"a clean cell failed:\n{failure}\n{log}"


def test_the_app_hides_the_instructor_cells(tmp_path):
    """Voila serves notebooks/play.ipynb as an app: its answers to the questions (cells tagged solution-text)
    must not reach the page, as they do not reach the student copy."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config.loader import KVArgParseConfigLoader
    from heimlich_lab.commands.voila_app import HIDDEN_CELLS, voila_command

    cmd, _ = voila_command(NOTEBOOKS / "play.ipynb", root=tmp_path)
    assert all(flag in cmd for flag in HIDDEN_CELLS)
    nb = _read(NOTEBOOKS / "play.ipynb")
    assert any("solution-text" in markup.tags(c) and "For instructors" in c.source for c in nb.cells)
    html, _ = HTMLExporter(config=KVArgParseConfigLoader(list(HIDDEN_CELLS)).load_config()).from_notebook_node(nb)
    assert "For instructors" not in html and "Hot seat" in html
