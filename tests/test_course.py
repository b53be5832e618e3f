"""The course notebooks: structure, exercises, student copies and the no-stderr rule.

The notebooks themselves run under nbval (``make test-notebooks``); these tests check what nbval does not:
every notebook opens with its title and learning goals, every notebook but the first (where students play)
has exercises with a solution cell and a self-check which, run in the notebook's own namespace, accepts the
solution, rejects wrong answers with the hint for that mistake and survives a missing answer; the self-check
module (``notebooks/selfcheck.py``) keeps answers hashed and every one of its hints is reached by a wrong
answer below; the student copies (play.ipynb too) and the instructors' answer key are current, the copies hold
no solution code, and the stderr hook in ``notebooks/conftest.py`` really fails a cell that writes to stderr.
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
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "instructor" / "notebooks"
STUDENT = ROOT / "notebooks"
COURSE = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
APPS = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p not in COURSE)     # play.ipynb: an app, not a lesson
STRICT = [line.strip() for line in (NOTEBOOKS / "STRICT").read_text().splitlines() if line.strip()]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)            # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def _load_student_tool():
    return _load("make_student_copies", ROOT / "scripts" / "make_student_copies.py")


selfcheck = _load("selfcheck", NOTEBOOKS / "selfcheck.py")


def _read(path: Path):
    return nbformat.read(path, as_version=4)


def _tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _number(path: Path) -> int:
    return int(path.name.split("-", 1)[0])


#: Notebooks with exercises: every notebook of the course (notebook 1's comes after the game is played).
WITH_EXERCISES = list(COURSE)
_SELF_CHECK_CALL = re.compile(r"""\b(check|choose)\(\s*["']([^"']+)["']""")


def _exercises(nb):
    """(solution cell, the next code cell) pairs."""
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and "solution" in _tags(cell):
            nxt = next((c for c in nb.cells[i + 1:] if c.cell_type == "code"), None)
            out.append((i, cell, nxt))
    return out


def _assigned_names(source: str) -> set[str]:
    names = set()
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for t in targets:
            if isinstance(t, ast.Name):
                names.add(t.id)
    return names


def test_the_course_is_there():
    numbers = [_number(p) for p in COURSE]
    assert numbers == list(range(0, 13)), f"expected notebooks 00..12, found {[p.name for p in COURSE]}"
    assert [p.name for p in APPS] == ["play.ipynb"], f"unexpected notebooks: {[p.name for p in APPS]}"


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


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.name)
def test_exercises_with_solution_and_self_check(path):
    nb = _read(path)
    pairs = _exercises(nb)
    assert pairs, f"{path.name}: no exercise (a code cell tagged 'solution')"
    for i, sol, chk in pairs:
        assert any(c.cell_type == "markdown" and ("Exercise" in c.source or "Question" in c.source)
                   for c in nb.cells[:i]), \
            f"{path.name}: cell {i}: no exercise text before the solution cell"
        first = sol.source.splitlines()[0]
        assert first.startswith("#"), f"{path.name}: cell {i}: a solution cell must open with the task as comments"
        answers = _assigned_names(sol.source)
        assert answers, f"{path.name}: cell {i}: the solution cell assigns no answer variable"
        assert chk is not None, f"{path.name}: cell {i}: no self-check cell after the solution"
        assert "solution" not in _tags(chk) and "solution-text" not in _tags(chk), \
            f"{path.name}: the self-check after cell {i} must not be tagged (it stays in the student copy)"
        assert any(re.search(rf"\b{a}\b", chk.source) for a in answers), \
            f"{path.name}: the self-check after cell {i} does not look at the answer ({', '.join(sorted(answers))})"
        call = _SELF_CHECK_CALL.search(chk.source)
        # a self-check asks the selfcheck module (hashed answer, hints per mistake), or (older notebooks) says it all
        needles = ("except NameError", "hint") if call else ("except NameError", "✓", "✗", "hint")
        for needle in needles:
            assert needle in chk.source, f"{path.name}: the self-check after cell {i} has no {needle!r}"
        if call:
            assert call.group(2) in selfcheck.EXERCISES, f"{path.name}: unknown self-check key {call.group(2)!r}"
            assert _assigned_names(chk.source) <= {"_answer"}, \
                f"{path.name}: the self-check after cell {i} leaves names in the student's namespace"


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.name)
def test_self_checks_survive_a_missing_answer(path, monkeypatch):
    """In the student copy the answer is missing: each self-check must print a hint, not crash."""
    monkeypatch.syspath_prepend(str(NOTEBOOKS))          # the notebook's folder: selfcheck.py
    for i, _, chk in _exercises(_read(path)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(chk.source, f"{path.name}:cell-after-{i}", "exec"), {})   # no answer, no imports
        text = out.getvalue()
        assert "✗ Not yet" in text and "hint" in text, f"{path.name}: self-check after cell {i} printed {text!r}"
        assert "✓" not in text


# Wrong answers for every exercise, as expressions evaluated in the notebook's namespace right after the solution
# cell (so they have the answer's type), each with a fragment of the hint the self-check must then print. Where a
# self-check knows a typical mistake (nats for bits, the independent answer...), that mistake is one of the cases.
WRONG_ANSWERS = {
    "00-rules-primer.ipynb": {
        "q_pass": [('"a"', "END its move"), ('"c"', "EVERY agent scores"), ('"d"', "one of the letters")],
        "q_free": [('"a"', "takes nothing away"), ('"c"', "FARTHEST count")],
        "gains": [('{**gains, "red": -3}', "never goes below 0: look at red"),
                  ('{a: (g if a in ("yellow", "blue") else 0) for a, g in gains.items()}', "not only the agents that"),
                  ('{**gains, "yellow": 10, "blue": 5}', "into the Ruins)."),
                  ('{**gains, "yellow": 10, "blue": 5, "red": -3}', "Ruins), and a marker never"),
                  ('{a: 0 for a in gains}', "the value of the building it stands on AFTER"),
                  ('dict(list(gains.items())[:5])', "the value of the building")],
    },
    "01-start-here.ipynb": {
        "p_after": [("1.2", "multiplies the ODDS"), ("6 / 7", "even prior odds"), ("0.2", "that is the prior"),
                    ("p_after * 100", "percentage"), ("0.5", "turn the prior 1/5 into odds")],
    },
    "02-rules-as-a-program.ipynb": {
        "q_share": [('"a"', "uniformly at random, like a RandomBot"), ('"c"', "already rolled")],
        "p_red_scores": [("1 / 6", "need not take ALL"), ("4 / 6", "at most 3 points"), ("3 / 5", "divide by 6"),
                         ("p_red_scores / 2", "Count the faces")],
    },
    "03-bayes-one-move.ipynb": {
        "q_likelihood": [('"a"', "read backwards"), ('"c"', "ONE hypothesis")],
        "p_red": [("1 - p_red", "does NOT control red"),
                  ("0.2 * float(lik_other[hypotheses.index('red')])", "unnormalised"),
                  ("float((lambda l: (l / l.sum())[hypotheses.index('red')])"
                   "(np.exp(full.agent_log_likelihoods(view, 'Bob', other))[cols]))", "full model"),
                  ("p_red * 100", "percentage"), ("p_red / 2", "take the row of P")],
        "posterior_beta0": [('bayes["posterior"].to_numpy()', "posterior at beta = 1"),
                            ("np.full(5, 0.04)", "do not sum to 1"), ("np.full(4, 0.25)", "what is exp(beta")],
        "p_runner": [("0.2 * float(lik_runner[hypotheses.index('red')])", "unnormalised"),
                     ("0.6 / (0.6 + 4 * 0.4 / 21)", "random 40%"), ("(0.6 + 1 / 21) / (0.6 + 5 / 21)", "not 1 / 21"),
                     ('float(bayes.loc["Bob controls red", "posterior"])', "Boltzmann player's"),
                     ("1 - p_runner", "does NOT control"), ("p_runner / 2", "running (0.6) OR")],
    },
    "04-one-agent-per-player.ipynb": {
        "n_hyp": [("360", "before Bob showed"), ("2520", "spectator"), ("10", "ordered choices"), ("120", "ONE agent"),
                  ("n_hyp + 1", "n! / (n - k)!")],
        "q_linked": [('"a"', "linked through the whole assignment"), ('"c"', "nothing in the model")],
        "p_cy_red": [("0.7", "independent answer"), ("1 - p_cy_red", "does NOT hold red"), ("p_cy_red / 2", "list the 6")],
    },
    "05-modelling-players.ipynb": {
        "beta_hat": [("5.0", "kept rising"), ("0.41", "tremble of 0.05"), ("1.0", "log softmax")],
        "q_random": [('"a"', "property of the PLAYERS"), ('"c"', "LOW likelihood")],
        "beta_random": [("beta_random + 1.0", "fit_boltzmann(records, epsilon=0.05)"),
                        ("fit_boltzmann(random_records).beta", "epsilon free")],
    },
    "06-dossier-as-decision.ipynb": {
        "expected_points": [("expected_points / 5", "How many points"), ("expected_points + 1", "linearity")],
        "penalty_sheet": [("secret_dossier(belief)", "every entry filled in"),
                          ("{a: w for a, w in belief.most_probable()[0].items() if a in unknown}", "MAP assignment"),
                          ("{}", "empty sheet"), ("{**penalty_sheet, 'yellow': 'Bob'}", "5 p - 5 (1 - p)")],
    },
    "07-bluffing-and-information.ipynb": {
        "h": [("h * np.log(2)", "in nats"), ("h + 1", "-sum p log2(p)")],
        "kl_bits": [("float(np.sum(p * np.log2(p / q)))", "not symmetric"), ("kl_bits * np.log(2)", "in nats"),
                    ("kl_bits + 0.5", "q * log2(q / p)")],
        "q_misled": [('"a"', "large move"), ('"c"', "neither number measures certainty")],
        "bits_to_truth": [("-bits_to_truth", "wrong direction"), ("bits_to_truth * np.log(2)", "in nats"),
                          ("float(np.log2(q5[2] / p5[2]))", "that is for red"), ("bits_to_truth / 2", "build the runner's")],
    },
    "08-experiments.ipynb": {
        "n_needed": [("2100", "z = 2"), ("1029", "square 1.96"), ("2401", "worst case p = 0.5"),
                     ("n_needed // 2", "solve 1.96"), ("n_needed * 2", "solve 1.96")],
        "ece_middle": [("float(expected_calibration_error(p_matched, y_matched))", "all ten bins"),
                       ("float((middle['n'] * (middle['mean_predicted'] - middle['frequency']).abs()).sum()"
                        " / curve['n'].sum())", "share of ALL"),
                       ("float((middle['mean_predicted'] - middle['frequency']).abs().mean())", "plain mean"),
                       ("float((middle['n'] * (middle['mean_predicted'] - middle['frequency'])).sum()"
                        " / middle['n'].sum())", "absolute value"),
                       ("ece_middle + 0.05", "keep bins 1 to 8")],
    },
    "09-top-secret-cards.ipynb": {
        "p_orange": [("0.1", "FIRST card"), ("0.55", "three free cards"), ("0.3", "drawing orange now"),
                     ("1 - p_orange", "does NOT hold orange"), ("p_orange / 2", "or if his first card")],
        "n_after": [('len(HypothesisSpace.assignments(["Bob", "Cy"], ["grey", "yellow", "orange", "green", "blue"])'
                     '.refine("Bob")[0])', "(parent, drawn card) pairs"),
                    ("20", "BEFORE the take"), ("n_after + 1", "in any order")],
    },
    "10-beliefs-that-move.ipynb": {
        "q_entropy": [('"a"', "observes nothing"), ('"c"', "forgets nothing")],
        "p_hippie": [("0.25", "prediction alone"), ("0.0", "predict through the swap first"),
                     ("float((after_swap * (table['Dee'] == 'KGB'))[table['Ann'] == 'Hippie'].sum())", "unnormalised"),
                     ("p_hippie + 0.1", "arrangement")],
        "p_middle_cia": [("2 / 3", "coin flip"), ("0.2 / 3 + 0.8", "wrong way round"), ("1 - p_middle_cia", "NOT CIA"),
                         ("p_middle_cia / 2", "mixture")],
    },
    "11-when-the-model-is-wrong.ipynb": {
        "p_top_mixed": [('0.8 / len(by_hand) + 0.2 * float((by_hand["careful"] / by_hand["careful"].sum())'
                         '[by_hand["careful"].idxmax()])', "averaged the two posteriors"),
                        ('float((by_hand["careful"] / by_hand["careful"].sum())[by_hand["careful"].idxmax()])',
                         "careful type alone"),
                        ('float(by_hand["P(a) mixture"][by_hand["careful"].idxmax()])', "a half each"),
                        ("p_top_mixed / 2", "mixed likelihood")],
        "p_cy_random": [("float(np.exp(-25.1) / (np.exp(-25.1) + np.exp(-28.3)))", "left out the prior"),
                        ("1 - p_cy_random", "P(careful)"),
                        ("float(0.7 * np.exp(-25.1) / (0.7 * np.exp(-25.1) + 0.3 * np.exp(-28.3)))", "wrong way round"),
                        ("0.3 * -25.1 / (0.3 * -25.1 + 0.7 * -28.3)", "not a likelihood"),
                        ("p_cy_random / 2", "prior weight by its likelihood")],
        "q_dee": [('"a"', "prior odds"), ('"c"', "same decisions")],
    },
}


def _run_self_checks(path: Path):
    """Run the notebook's code cells up to its last self-check in one kernel; after each self-check, run it again
    with each wrong answer in the answer variable, then with the names of the solution cell deleted (the student
    copy), then restore them. Returns {(answer, case): printed text}, case being "right", a wrong expression or
    "missing"."""
    from nbclient import NotebookClient

    nb = _read(path)
    pairs = _exercises(nb)
    checks = {nb.cells.index(chk): (sol, chk) for _, sol, chk in pairs}
    wrong = WRONG_ANSWERS[path.name]
    cells, probes = [], {}

    def probe(key, source):
        probes[len(cells)] = key
        cells.append(nbformat.v4.new_code_cell(source))

    for k, cell in enumerate(nb.cells[:max(checks) + 1]):
        if cell.cell_type != "code":
            continue
        if k not in checks:
            cells.append(nbformat.v4.new_code_cell(cell.source))
            continue
        sol, chk = checks[k]
        names = sorted(_assigned_names(sol.source))
        (answer,) = [n for n in names if n in wrong]
        probe((answer, "right"), chk.source)
        cells.append(nbformat.v4.new_code_cell(f"_course_test_right = {answer}"))
        for expr, _ in wrong[answer]:
            probe((answer, "value"), f"{answer} = _course_test_right\n{answer} = {expr}\nprint(repr({answer}))")
            probe((answer, expr), chk.source)
        cells.append(nbformat.v4.new_code_cell(
            f"{answer} = _course_test_right\n"
            f"_course_test_saved = {{n: globals()[n] for n in {names!r}}}\n"
            + "".join(f"del {n}\n" for n in names)))
        probe((answer, "missing"), chk.source)
        cells.append(nbformat.v4.new_code_cell("globals().update(_course_test_saved)"))
    run = nbformat.v4.new_notebook(cells=cells)
    run.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(run, timeout=300, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    printed = {}
    for idx, key in probes.items():
        text = "".join(o.get("text", "") for o in run.cells[idx].outputs
                       if o.output_type == "stream" and o.name == "stdout")
        printed.setdefault(key, []).append(text)
    return printed


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.name)
def test_self_checks_accept_the_right_answer_and_reject_wrong_ones(path):
    """In the notebook's own namespace: the solution passes; each wrong answer (of the right type) gets the
    failure mark and the expected hint; the student copy (solution cell's names missing) gets a hint."""
    nb = _read(path)
    answers = [n for _, sol, _ in _exercises(nb) for n in _assigned_names(sol.source) if n in WRONG_ANSWERS[path.name]]
    assert sorted(answers) == sorted(WRONG_ANSWERS[path.name]), \
        f"{path.name}: every exercise needs wrong answers in WRONG_ANSWERS (found answers {answers})"
    printed = _run_self_checks(path)
    for answer, cases in WRONG_ANSWERS[path.name].items():
        (right,) = printed[(answer, "right")]
        assert right.startswith("✓ Correct"), f"{path.name}: the solution for {answer} did not pass: {right!r}"
        values = printed[(answer, "value")]
        for (expr, hint), text, value in zip(cases, [t for e, _ in cases for t in printed[(answer, e)]], values):
            assert "✓" not in text and "✗ Not yet" in text and "hint" in text.lower() and hint in text, \
                f"{path.name}: {answer} = {expr} (= {value.strip()}) should fail with a hint containing {hint!r}, " \
                f"the self-check printed {text!r}"
        (missing,) = printed[(answer, "missing")]
        assert "✓" not in missing and "✗ Not yet" in missing and "hint" in missing, \
            f"{path.name}: with {answer} missing the self-check printed {missing!r}"


def test_student_copies_are_current():
    tool = _load_student_tool()
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        rc = tool.main(["--check"])
    assert rc == 0, "student copies are stale; run: python scripts/make_student_copies.py\n" + buf.getvalue()
    assert sorted(p.name for p in STUDENT.glob("*.ipynb")) == sorted(p.name for p in COURSE + APPS)
    assert (STUDENT / "selfcheck.py").read_text() == (NOTEBOOKS / "selfcheck.py").read_text()


def test_answer_key_is_current_and_kept_from_students():
    key_tool = _load("make_answer_key", ROOT / "scripts" / "make_answer_key.py")
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        rc = key_tool.main(["--check"])
    assert rc == 0, "the answer key is stale; run: python scripts/make_answer_key.py\n" + buf.getvalue()
    key = key_tool.KEY.read_text()
    for path in WITH_EXERCISES:                     # every exercise's solution is in the key
        for _, sol, chk in _exercises(_read(path)):
            if "choose(" not in chk.source:
                assert sol.source.strip() in key, f"{path.name}: a solution is missing from the answer key"
    assert "Answer: b)." in key                    # the primer's questions, with their explanation
    assert not list(STUDENT.rglob("*answer-key*")) and STUDENT not in key_tool.KEY.parents


def _self_check_keys(path: Path) -> dict[str, str]:
    """key in selfcheck.EXERCISES -> the answer variable its self-check cell looks at."""
    out = {}
    for _, sol, chk in _exercises(_read(path)):
        call = _SELF_CHECK_CALL.search(chk.source)
        if call:
            (answer,) = [n for n in _assigned_names(sol.source) if n in WRONG_ANSWERS[path.name]]
            out[call.group(2)] = answer
    return out


def test_every_hint_of_the_self_check_module_is_tested():
    """Each foreseeable mistake's hint (and each wrong option's feedback) is printed for one of WRONG_ANSWERS."""
    used = {key: (path.name, answer) for path in WITH_EXERCISES for key, answer in _self_check_keys(path).items()}
    assert set(used) == set(selfcheck.EXERCISES), \
        f"self-check keys without a notebook: {sorted(set(selfcheck.EXERCISES) - set(used))}"
    for key, (name, answer) in used.items():
        entry = selfcheck.EXERCISES[key]
        fragments = [hint for _, hint in WRONG_ANSWERS[name][answer]]
        if isinstance(entry, selfcheck.Choice):
            right = [o for o in entry.feedback if selfcheck.matches(key, o, entry.answer)]
            hints = [text for option, text in entry.feedback.items() if option not in right]
        else:
            hints = [m.hint for m in entry.mistakes] + [entry.hint]
        for hint in hints:
            assert any(f in hint for f in fragments), f"{key}: no wrong answer in WRONG_ANSWERS reaches the hint {hint!r}"


def test_the_self_check_module_keeps_answers_unreadable():
    """No answer in readable form: neither the printed solution nor a literal answer is in selfcheck.py or in the
    self-check cell."""
    module_text = (NOTEBOOKS / "selfcheck.py").read_text()
    for path in WITH_EXERCISES:
        for _, sol, chk in _exercises(_read(path)):
            if not _SELF_CHECK_CALL.search(chk.source):
                continue
            shown = {"".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                             for o in sol.get("outputs", [])).strip()}
            for node in ast.parse(sol.source).body:
                if isinstance(node, ast.Assign):
                    with contextlib.suppress(ValueError, SyntaxError):
                        shown.add(repr(ast.literal_eval(node.value)))
            for text in shown:
                if len(text) > 3:          # a letter or a small whole number proves nothing
                    assert text not in module_text and text not in chk.source, \
                        f"{path.name}: the answer {text!r} can be read in the self-check"


def test_the_self_check_module_doctests():
    import doctest
    assert doctest.testmod(selfcheck).failed == 0


@pytest.mark.parametrize("path", COURSE + APPS, ids=lambda p: p.name)
def test_student_copy_has_no_solution_code(path):
    source = _read(path)
    student = _read(STUDENT / path.name)
    def code_lines(cells):
        return {ln.strip() for c in cells if c.cell_type == "code"
                for ln in c.source.splitlines() if ln.strip() and not ln.lstrip().startswith("#")}
    # code that appears only in solution cells (a line like "x = 1" may also appear elsewhere)
    solution_lines = (code_lines(c for c in source.cells if "solution" in _tags(c))
                      - code_lines(c for c in source.cells if "solution" not in _tags(c)))
    for cell in student.cells:
        assert not ({"solution", "solution-text"} & _tags(cell)), f"{path.name}: a solution cell is in the student copy"
        if cell.cell_type != "code":
            continue
        assert not cell.get("outputs"), f"{path.name}: the student copy keeps outputs"
        leaked = solution_lines & {ln.strip() for ln in cell.source.splitlines()}
        assert not leaked, f"{path.name}: solution code in the student copy: {sorted(leaked)[:3]}"
    n_solutions = sum("solution" in _tags(c) for c in source.cells)
    n_exercises = sum("exercise" in _tags(c) for c in student.cells)
    assert n_exercises == n_solutions, f"{path.name}: {n_solutions} solutions but {n_exercises} exercise cells"


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


def _run_nbval(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-p", "no:cacheprovider",
                           "-q", str(folder)], cwd=folder, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("source, fails", [
    ("import sys\nprint('a warning', file=sys.stderr)", True),
    ("import warnings\nwarnings.warn('deprecated')", True),
    ("print('hello')", False),
])
def test_stderr_hook(tmp_path, source, fails):
    shutil.copy(NOTEBOOKS / "conftest.py", tmp_path / "conftest.py")
    _tiny_notebook(tmp_path / "tiny.ipynb", source)
    res = _run_nbval(tmp_path)
    if fails:
        assert res.returncode != 0, "a cell writing to stderr passed:\n" + res.stdout[-2000:]
        assert "cell wrote to stderr" in res.stdout, res.stdout[-2000:]
    else:
        assert res.returncode == 0, "a clean cell failed:\n" + res.stdout[-2000:] + res.stderr[-2000:]


def test_the_app_hides_the_instructor_cells(tmp_path):
    """Voila serves notebooks/play.ipynb as an app: its answers to the questions (cells tagged solution-text)
    must not reach the page, as they do not reach the student copy."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config.loader import KVArgParseConfigLoader
    from heimlich_lab.widget.voila_app import HIDDEN_CELLS, voila_command

    cmd, _ = voila_command(NOTEBOOKS / "play.ipynb", root=tmp_path)
    assert all(flag in cmd for flag in HIDDEN_CELLS)
    nb = _read(NOTEBOOKS / "play.ipynb")
    assert any("solution-text" in _tags(c) and "For instructors" in c.source for c in nb.cells)
    html, _ = HTMLExporter(config=KVArgParseConfigLoader(list(HIDDEN_CELLS)).load_config()).from_notebook_node(nb)
    assert "For instructors" not in html and "Hot seat" in html
