"""Small source notebooks in the course's exercise markup (and one in the old format), for the tests of the
release, the autograder, the answer key and the format checks. Cheap to run: no game is played."""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

GOALS = "\n\n**Learning goals**\n- one\n- two"
GRADED = "# Graded by your instructor: this cell is checked when you hand the notebook in.\n"


def answer(grade_id: str, prompt: str, solution: str):
    return new_code_cell(f"{prompt}\n### BEGIN SOLUTION\n{solution}\n### END SOLUTION", metadata={"nbgrader": {
        "grade": False, "solution": True, "locked": False, "task": False, "grade_id": grade_id, "schema_version": 3}})


def hidden_test(grade_id: str, asserts: str, points: int = 1):
    return new_code_cell(f"{GRADED}### BEGIN HIDDEN TESTS\n{asserts}\n### END HIDDEN TESTS", metadata={"nbgrader": {
        "grade": True, "solution": False, "locked": True, "points": points, "grade_id": grade_id,
        "schema_version": 3}})


def open_question(grade_id: str, model_answer: str, points: int = 2):
    return new_markdown_cell(model_answer, metadata={"nbgrader": {
        "grade": True, "solution": True, "locked": False, "points": points, "grade_id": grade_id,
        "schema_version": 3}})


def instructor_note(text: str):
    return new_markdown_cell(text, metadata={"tags": ["solution-text"]})


def notebook(cells) -> nbformat.NotebookNode:
    nb = new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


#: 99-fixture: 4 points graded automatically (p_red 2, q1 1, q2 1) and 2 by hand (an open question).
FIXTURE_POINTS, FIXTURE_BY_HAND = 4, 2
#: The fixture's solution lines, its hidden tests' numbers and its instructor note: none may reach the release.
FIXTURE_SECRETS = ("odds_red = 0.6 / 1.3", "p_red = odds_red / (1 + odds_red)", "0.3158",
                   "c) is right: three of them", "The model answer: the runner moves red")


def fixture_notebook() -> nbformat.NotebookNode:
    return notebook([
        new_markdown_cell("# 99. A fixture" + GOALS),
        new_markdown_cell("**Exercise 1.** Bob's odds for red are 0.6 to 1.3. Store P(red) in `p_red`."),
        answer("99-p-red", "# Store P(Bob controls red) in p_red, a probability.",
               "odds_red = 0.6 / 1.3\np_red = odds_red / (1 + odds_red)"),
        new_code_cell('from heimlich_lab.course import formative\nformative.probability("p_red")'),
        hidden_test("99-p-red-test", "assert abs(p_red - 0.3158) < 5e-4, p_red", points=2),
        new_markdown_cell("**Question 1.** How many?\n\n- a) one\n- b) two\n- c) three"),
        answer("99-q1", '# Store the letter of your answer in answer_q1.', 'answer_q1 = "c"'),
        new_code_cell('from heimlich_lab.course import formative\nformative.choice("answer_q1", options="abc")'),
        hidden_test("99-q1-test", 'assert answer_q1 == "c", answer_q1'),
        instructor_note("**For instructors.** c) is right: three of them. a) and b) miscount."),
        new_markdown_cell("**Question 2.** Which first?\n\n- a) the runner\n- b) the sitter\n- c) nobody"),
        answer("99-q2", '# Store the letter of your answer in answer_q2.', 'answer_q2 = "a"'),
        hidden_test("99-q2-test", 'assert answer_q2 == "a", answer_q2'),
        new_markdown_cell("**Question 3 (open).** Why does the runner give himself away?"),
        open_question("99-open", "The model answer: the runner moves red more than any other agent."),
        new_code_cell("print('the end')"),
    ])


def legacy_notebook() -> nbformat.NotebookNode:
    """The old format: a solution cell tagged ``solution`` and a self-check importing selfcheck."""
    return notebook([
        new_markdown_cell("# 98. An old one" + GOALS),
        new_markdown_cell("**Exercise 1.** Store it in `p_old`."),
        new_code_cell("# Exercise 1: store it in p_old.\np_old = 0.4321 * 2", metadata={"tags": ["solution"]}),
        new_code_cell("# Self-check\nfrom selfcheck import check\ntry:\n    check('98.p_old', p_old)\n"
                      "except NameError:\n    print('not yet')"),
    ])


def write(folder: Path, name: str, nb) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / name)
    return folder / name


def fill_in(released: nbformat.NotebookNode, source: nbformat.NotebookNode, wrong: dict | None = None):
    """The release with each answer cell's stub replaced by the source's solution region (or, for a grade id in
    ``wrong``, by that code): what a student hands in."""
    from heimlich_lab.course import markup
    solutions = {markup.grade_id(c): markup.solution_region(c.source) for c in source.cells
                 if markup.kind(c) == "answer"}
    nb = nbformat.from_dict(released)
    for cell in nb.cells:
        gid = markup.grade_id(cell)
        if markup.kind(cell) == "answer":
            code = (wrong or {}).get(gid, solutions[gid])
            cell.source = cell.source.replace("# YOUR CODE HERE", code)
    return nb
