"""The instructor kit: the quiz bank (structure, every computable answer recomputed with the library, every number
quoted from a notebook found in it), the assignments (briefs with rubrics whose points add up, model answers that
use only the public API and are seeded), the schedule and the instructors' pages (docs/course.md,
instructor/README.md: every notebook's prerequisites, no development history, every file they name exists).
"""
from __future__ import annotations

import importlib.util
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
    entry = next(e for e in WEEKS[q["week"]]["notebooks"] if e["number"] == q["notebook"])
    if list(NOTEBOOKS.glob(f"{q['notebook']:02d}-*.ipynb")):
        where = [q["notebook"]]
    else:       # a notebook still coming: its material is in the week's other notebooks until it lands
        assert entry.get("coming"), f"{q['id']}: notebook {q['notebook']} is missing"
        where = [e["number"] for e in WEEKS[q["week"]]["notebooks"] if e["number"] != q["notebook"]
                 and list(NOTEBOOKS.glob(f"{e['number']:02d}-*.ipynb"))]
    text = "\n".join(_notebook_text(n) for n in where)
    missing = [s for s in q["notebook_quotes"] if s not in text]
    assert missing == [], f"{q['id']}: notebook(s) {where} no longer show {missing}: update the question"


def test_the_quiz_page_is_current():
    assert quiz.main(["--check"]) == 0, "run python scripts/make_quiz_bank.py"


def test_the_quiz_tool_examples():
    import doctest
    assert doctest.testmod(quiz).failed == 0


# ---------------------------------------------------------------------------------------------------------------
# The assignments.

BRIEFS = sorted(ASSIGNMENTS.glob("*/brief.md"))
ANSWERS = sorted(ASSIGNMENTS.glob("*/model-answer.ipynb"))


def _nb_text(path: Path, outputs_only: bool = False) -> str:
    nb = nbformat.read(path, as_version=4)
    parts = []
    for cell in nb.cells:
        if not outputs_only:
            parts.append(cell.source)
        for o in cell.get("outputs", []):
            parts.append("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def test_two_assignments_and_a_project():
    assert [p.parent.name for p in BRIEFS] == ["a1-compare-player-models", "a2-a-bot-that-bluffs", "project"]
    assert [p.parent for p in ANSWERS] == [p.parent for p in BRIEFS], "each brief has a model answer beside it"


@pytest.mark.parametrize("brief", BRIEFS, ids=lambda p: p.parent.name)
def test_each_brief_has_a_rubric_whose_points_add_up(brief):
    text = brief.read_text(encoding="utf-8")
    total = re.search(r"^## Rubric \((\d+) points\)", text, re.M)
    assert total, f"{brief}: no '## Rubric (N points)' section"
    rubric = text[total.end():]
    rows = re.findall(r"^\| \*\*(.+?)\*\* \((\d+)\) \|(.+)$", rubric, re.M)
    assert len(rows) >= 5, f"{brief}: the rubric has {len(rows)} criteria"
    assert sum(int(p) for _, p, _ in rows) == int(total.group(1)), f"{brief}: the criteria do not add up"
    for name, _, levels in rows:
        assert levels.count("|") >= 3, f"{brief}: criterion {name!r} needs its levels (full, partial, none)"
    assert "Handout" in text and "model answer" not in text.lower(), f"{brief}: a handout must not point at answers"


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.parent.name)
def test_model_answers_use_the_public_api_and_seeds(path):
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    imports = re.findall(r"^\s*(?:from\s+(\S+)\s+import\s+(.+)|import\s+(\S+))", code, re.M)
    for module, names, plain in imports:
        module = module or plain
        assert not module.startswith("heimlich_lab") or not re.search(r"\._|\b_\w", module + " " + names), \
            f"{path.parent.name}: a private import: {module} {names}"
    assert "default_rng()" not in code, f"{path.parent.name}: an unseeded generator"
    for call in re.findall(r"\bplay(?:_game)?\((?:[^()]|\([^()]*\))*\)", code):
        assert "seed=" in call, f"{path.parent.name}: a game without a seed: {call[:80]}"
    assert nb.cells[0].source.startswith("# ") and "do not hand out" in nb.cells[0].source
    assert all(c.get("outputs") for c in nb.cells if c.cell_type == "code" and "NBVAL_CHECK_OUTPUT" in c.source), \
        f"{path.parent.name}: checked cells must keep their outputs (nbval compares them)"


def _notes_sections() -> dict[str, str]:
    text = (ASSIGNMENTS / "grading-notes.md").read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    out = {}
    for part in parts:
        folder = re.search(r"\(`([\w-]+)/`\)", part.splitlines()[0])
        assert folder, f"grading notes: section {part.splitlines()[0]!r} names no folder"
        out[folder.group(1)] = part
    return out


def test_the_grading_notes_quote_the_model_answers():
    sections = _notes_sections()
    assert sorted(sections) == sorted(p.parent.name for p in ANSWERS)
    for folder, text in sections.items():
        printed = _nb_text(ASSIGNMENTS / folder / "model-answer.ipynb")
        numbers = set(re.findall(r"(?<![\w.])\d+\.\d+", text))
        assert len(numbers) >= 5, folder
        missing = sorted(n for n in numbers if n not in printed)
        assert missing == [], f"grading notes, {folder}: not in the model answer: {missing}"


# ---------------------------------------------------------------------------------------------------------------
# The schedule and the instructors' pages.

def _week_sections(text: str) -> dict[int, str]:
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^## Week (\d+)(.*?)(?=^## |\Z)", text, re.M | re.S)}


def test_the_schedule_page_follows_the_schedule_data():
    text = (INSTRUCTOR / "schedule.md").read_text(encoding="utf-8")
    sections = _week_sections(text)
    assert sorted(sections) == sorted(WEEKS)
    for week, body in sections.items():
        line = re.search(r"\*\*Notebooks\*\* ([^.]+)\.", body).group(1)
        listed = {int(n) for n in re.findall(r"\d+", line)}
        assert listed == {e["number"] for e in WEEKS[week]["notebooks"]}, f"week {week}: {line!r}"
        for part in ["**Learning objectives.**", "**In class (3 h).**", "**Homework (about"]:
            assert part in body, f"week {week}: no {part}"
    assert "third game" in sections[5] and "notebook 13" in sections[5]
    assert 13 in {e["number"] for e in WEEKS[5]["notebooks"] if not e.get("coming")}, "notebook 13 is in week 5"


COURSE = COURSE_DOC.read_text(encoding="utf-8")


def test_the_course_page_has_no_development_history():
    for pattern in [r"\b20\d\d-\d\d-\d\d\b", r"\bUTC\b", r"\bissue \d+", r"load average", r"failed (?:two|\d)",
                    r"\bsession\b", r"\bdeveloper", r"predated", r"since been"]:
        assert not re.search(pattern, COURSE, re.I), f"docs/course.md: development history ({pattern})"


def test_the_course_page_states_the_prerequisites_of_every_notebook():
    table = COURSE.split("**Notebook by notebook**", 1)[1].split("\n\n")[1]
    rows = {int(m.group(1)): m.group(0) for m in re.finditer(r"^\| (\d+) .*$", table, re.M)}
    course = {int(p.name[:2]) for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")}
    scheduled = {e["number"] for w in WEEKS.values() for e in w["notebooks"]}
    assert course | scheduled <= set(rows), f"no prerequisites for notebooks {sorted(course | scheduled - set(rows))}"
    for number, needle in [(5, "Wilks"), (7, "(KL) divergence"), (8, "clustered by game"), (10, "bootstrap"),
                           (12, "EM"), (6, "clustered by game"), (2, "law of total probability")]:
        assert needle in rows[number], f"docs/course.md: notebook {number}'s prerequisites do not name {needle}"


def test_the_course_page_tells_the_truth_about_the_exercises():
    assert "notebook 1 included" in COURSE
    assert "No exercises" not in COURSE and "still compute their answer" not in COURSE
    assert "make release" in COURSE and "heimlich-lab grade" in COURSE
    assert "instructor/schedule.md" in COURSE and "never hand it out" in COURSE.lower()


def _named_paths(text: str) -> set[str]:
    return {m for m in re.findall(r"`((?:instructor|scripts|docs|tests|notebooks)/[\w./-]*)`", text)}


@pytest.mark.parametrize("page", [COURSE_DOC, INSTRUCTOR / "README.md", INSTRUCTOR / "schedule.md"],
                         ids=lambda p: p.name)
def test_every_file_a_page_names_exists(page):
    text = page.read_text(encoding="utf-8")
    named = _named_paths(text) | {str((page.parent / link).relative_to(ROOT)) if (page.parent / link).exists()
                                  else f"{page.parent.relative_to(ROOT)}/{link}"
                                  for link in re.findall(r"\]\(([^)#:]+)\)", text)}
    build = ("instructor/slides/build", "slides/build")     # made by `make slides`
    missing = sorted(p for p in named if not p.startswith(build) and "*" not in p and not (ROOT / p).exists()
                     and not (page.parent / p).exists())
    assert missing == [], f"{page.name} names files that do not exist: {missing}"


def test_the_kit_map_warns_and_lists_everything():
    text = (INSTRUCTOR / "README.md").read_text(encoding="utf-8")
    assert "Never hand out this folder" in text
    for part in ["schedule.md", "slides", "a1-compare-player-models", "a2-a-bot-that-bluffs", "project",
                 "quiz-bank.md", "answer-key.md", "notebooks/"]:
        assert part in text, f"instructor/README.md does not map {part}"


def test_the_exercises_the_schedule_names_exist():
    """The schedule names exercises by their nbgrader grade ids; each must be an answer of its notebook once the
    notebook is in nbgrader's format (a notebook still in the older format has no grade ids to check)."""
    text = (INSTRUCTOR / "schedule.md").read_text(encoding="utf-8")
    named = sorted(set(re.findall(r"`(\d\d-[a-z0-9-]+)`", text)))
    assert len(named) >= 15
    coming = {e["number"] for w in WEEKS.values() for e in w["notebooks"] if e.get("coming")}
    for gid in named:
        paths = list(NOTEBOOKS.glob(f"{gid[:2]}-*.ipynb"))
        if not paths:
            assert int(gid[:2]) in coming, f"instructor/schedule.md names {gid} of a notebook that does not exist"
            continue
        (path,) = paths
        ids = {c.metadata["nbgrader"].get("grade_id") for c in nbformat.read(path, as_version=4).cells
               if c.get("metadata", {}).get("nbgrader", {}).get("solution")}
        assert not ids or gid in ids, f"instructor/schedule.md names {gid}, which {path.name} does not have"
