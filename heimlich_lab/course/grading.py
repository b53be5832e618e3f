"""``heimlich-lab grade``: grade a folder of submitted notebooks with nbgrader; a grade table and feedback pages.

    heimlich-lab grade SUBMISSIONS --out DIR [--source instructor/notebooks]

``SUBMISSIONS`` holds one folder per student, named as the table should name the student, with the course
notebooks that student hands in, under their release names::

    SUBMISSIONS/
        ann/03-bayes-one-move.ipynb
        ann/04-one-agent-per-player.ipynb
        bob/03-bayes-one-move.ipynb

Hidden files and folders (``.ipynb_checkpoints``) are ignored, and so are other files than notebooks (each is
named in the output). A notebook whose name is not one of the source's
(``--source``, by default this checkout's ``instructor/notebooks``), a folder inside a student's folder or a
notebook outside any student folder is an error, reported before anything runs. A notebook that cannot be read
(broken JSON, not a notebook) or that nbgrader cannot grade (the kernel died, a cell ran past the time limit)
scores 0 with a note: the others are graded all the same.

Every notebook any student handed in is graded for every student (0, "not submitted", for a student without
it). nbgrader's steps run in a temporary course root, never kept (:mod:`heimlich_lab.course.release`):
``generate_assignment`` on the source (its hidden tests go into the gradebook), then for each submission
``autograde`` (the student's graded cells are put back from the gradebook, hidden tests included, and the
notebook runs) and ``generate_feedback``. ``DIR`` (new, or an empty folder: nothing is overwritten) gets

- ``grades.csv``: one row per student and notebook, ``student,notebook,score,max_score,by_hand,note``, then one
  ``TOTAL`` row per student. ``by_hand`` counts the points of open questions a student answered, which the
  autograder leaves to the instructor (counted 0 in ``score`` until then);
- ``feedback/<student>/<notebook>.html``: nbgrader's feedback page (the notebook as run, each graded cell's
  score), or a short page saying why a notebook could not be graded.
"""
from __future__ import annotations

import csv
import html
from dataclasses import dataclass
from pathlib import Path

# nbformat (with jsonschema) is imported where it is used: `heimlich-lab` builds its parser from every command
# module, and importing jsonschema costs seconds of CPU (its rfc3987-syntax grammars) on every command.
from ..errors import HeimlichError
from . import release

__all__ = ["GradingError", "Row", "plan", "grade", "write_table", "register", "run"]


class GradingError(HeimlichError):
    """Bad input to ``heimlich-lab grade`` (nothing was written)."""


@dataclass
class Row:
    """One student's grade for one notebook (``notebook`` is ``TOTAL`` on a student's total row)."""
    student: str
    notebook: str
    score: float
    max_score: float
    by_hand: float = 0.0
    note: str = ""


def plan(submissions: str | Path, source: str | Path) -> tuple[dict[str, dict[str, Path]], dict[str, Path], list[str]]:
    """Check the submissions folder against the source: ``({student: {notebook: path}}, {notebook: source
    path}, [ignored files])``, only the notebooks someone handed in, students in alphabetical order. Raises
    :class:`GradingError` listing every problem."""
    submissions, source = Path(submissions), Path(source)
    if not submissions.is_dir():
        raise GradingError(f"no submissions folder {submissions}")
    try:
        course = {p.stem: p for p in release.source_notebooks(source)}
    except release.ReleaseError as e:
        raise GradingError(f"{e} (--source: the folder of the instructor's source notebooks)") from None
    problems, students, ignored = [], {}, []
    for entry in sorted(submissions.iterdir(), key=lambda p: (p.name.casefold(), p.name)):
        if entry.name.startswith("."):
            continue
        if not entry.is_dir():
            problems.append(f"{entry.name}: a file outside any student folder (put each student's notebooks in "
                            f"{submissions.name}/<student>/)")
            continue
        handed_in = {}
        for item in sorted(entry.iterdir()):
            if item.name.startswith("."):
                continue
            if item.is_dir():
                problems.append(f"{entry.name}/{item.name}: a folder inside a student folder (put the notebooks "
                                f"directly in {entry.name}/)")
            elif item.suffix == ".ipynb":
                if item.stem in course:
                    handed_in[item.stem] = item
                else:
                    problems.append(f"{entry.name}/{item.name}: not a notebook of the course (the course's are "
                                    f"{', '.join(p.name for p in course.values())})")
            else:
                ignored.append(f"{entry.name}/{item.name}")
        students[entry.name] = handed_in
    if problems:
        raise GradingError("the submissions are not in the expected layout (nothing was graded):\n  "
                           + "\n  ".join(problems))
    if not students:
        raise GradingError(f"no student folder in {submissions} (expected {submissions.name}/<student>/NN-name.ipynb)")
    graded = sorted({name for handed_in in students.values() for name in handed_in})
    if not graded:
        raise GradingError(f"no course notebook in any student folder of {submissions}")
    return students, {name: course[name] for name in graded}, ignored


def _check_out(out: Path) -> None:
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise GradingError(f"{out} exists and is not an empty folder: choose a new one (nothing is overwritten)")


def _read_submission(path: Path):
    """The submitted notebook, or the reason it cannot be graded."""
    import nbformat
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as e:                  # broken JSON, an old or foreign format, a schema error
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return None, f"could not be read as a notebook ({first[:200]})"
    return nb, ""


def _nbgrader_step(app) -> str:
    """Run an nbgrader converter; '' or its error, in short."""
    from nbgrader.utils import capture_log
    result = capture_log(app)
    return "" if result["success"] else release._nbgrader_error(result).splitlines()[-1][:300]


def _note_page(student: str, notebook: str, note: str) -> str:
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(notebook)}</title></head>\n"
            f"<body><h1>{html.escape(notebook)}</h1>\n<p>{html.escape(student)}: this notebook scored 0: it "
            f"{html.escape(note)}.</p>\n<p>Ask your instructor.</p></body></html>\n")


def grade(submissions: str | Path, out: str | Path, source: str | Path = release.DEFAULT_SOURCE,
          log=print) -> list[Row]:
    """Grade ``submissions`` against ``source``; write ``out/grades.csv`` and ``out/feedback/``; return the rows
    (totals last). Raises :class:`GradingError` before anything runs when the input is wrong."""
    import nbformat
    # absolute: nbgrader changes the working folder while it runs
    submissions, out, source = Path(submissions).resolve(), Path(out).resolve(), Path(source).resolve()
    if submissions in out.parents or submissions == out:
        raise GradingError(f"--out {out} is inside the submissions folder: choose a folder outside it")
    _check_out(out)
    students, notebooks, ignored = plan(submissions, source)
    for name in ignored:
        log(f"ignored {name}: not a notebook")
    try:
        from nbgrader.api import Gradebook
        from nbgrader.converters import Autograde, GenerateFeedback
        from nbgrader.coursedir import CourseDirectory
    except ImportError:
        raise GradingError("grading needs nbgrader: pip install 'heimlich-lab[instructor]'") from None
    ids = {name: f"student-{i:03d}" for i, name in enumerate(students, 1)}    # nbgrader's ids are globs
    rows, pages = [], {}
    with release.course_root() as root:
        release.stage(notebooks.values(), root)
        release.generate_assignments(root, notebooks)
        config = release.nbgrader_config(root)
        feedback_config = release.nbgrader_config(root)
        feedback_config.HTMLExporter.template_name = "feedback"
        db = f"sqlite:///{root / 'gradebook.db'}"
        with Gradebook(db) as gb:
            max_scores = {name: gb.find_notebook(name, name).max_score for name in notebooks}
        for student, sid in ids.items():
            for name in notebooks:
                note = ""
                if name not in students[student]:
                    rows.append(Row(student, name, 0.0, max_scores[name], 0.0, "not submitted"))
                    continue
                nb, note = _read_submission(students[student][name])
                if nb is not None:
                    folder = root / "submitted" / sid / name
                    folder.mkdir(parents=True)
                    nbformat.write(nb, folder / f"{name}.ipynb")
                    coursedir = CourseDirectory(config=config)
                    coursedir.assignment_id, coursedir.student_id = name, sid
                    app = Autograde(coursedir=coursedir, config=config)
                    app.force, app.create_student = True, True
                    error = _nbgrader_step(app)
                    if error:
                        note = f"could not be graded ({error})"
                if note:
                    rows.append(Row(student, name, 0.0, max_scores[name], 0.0, note))
                    pages[(student, name)] = _note_page(student, name, note)
                    log(f"{student:>16}  {name:<34} 0 / {max_scores[name]:g}  {note}")
                    continue
                coursedir = CourseDirectory(config=feedback_config)
                coursedir.assignment_id, coursedir.student_id = name, sid
                app = GenerateFeedback(coursedir=coursedir, config=feedback_config)
                app.force = True
                error = _nbgrader_step(app)
                page = root / "feedback" / sid / name / f"{name}.html"
                pages[(student, name)] = page.read_text() if not error and page.is_file() else \
                    _note_page(student, name, f"was graded, but its feedback page failed ({error})")
                with Gradebook(db) as gb:
                    sub = gb.find_submission_notebook(name, name, sid)
                    by_hand = sum(g.max_score for g in sub.grades if g.auto_score is None and g.manual_score is None)
                    note = f"{by_hand:g} points to grade by hand" if by_hand else \
                        "" if sub.max_score else "the notebook has no graded cells"
                    row = Row(student, name, float(sub.score), float(sub.max_score), float(by_hand), note)
                rows.append(row)
                log(f"{student:>16}  {name:<34} {row.score:g} / {row.max_score:g}  {row.note}".rstrip())
    totals = [Row(s, "TOTAL", sum(r.score for r in rows if r.student == s),
                  sum(r.max_score for r in rows if r.student == s),
                  sum(r.by_hand for r in rows if r.student == s)) for s in students]
    out.mkdir(parents=True, exist_ok=True)
    write_table(rows + totals, out / "grades.csv")
    for (student, name), text in pages.items():
        page = out / "feedback" / student / f"{name}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text)
    return rows + totals


def write_table(rows: list[Row], path: Path) -> None:
    """The grade table as CSV.

    >>> import io
    >>> buf = io.StringIO(); _write(buf, [Row("ann", "03-bayes-one-move", 3, 5, 2, "2 points to grade by hand")])
    >>> print(buf.getvalue().strip())
    student,notebook,score,max_score,by_hand,note
    ann,03-bayes-one-move,3,5,2,2 points to grade by hand
    """
    with open(path, "w", newline="") as f:
        _write(f, rows)


def _write(f, rows) -> None:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["student", "notebook", "score", "max_score", "by_hand", "note"])
    for r in rows:
        w.writerow([r.student, r.notebook, f"{r.score:g}", f"{r.max_score:g}", f"{r.by_hand:g}", r.note])


def register(sub) -> None:
    p = sub.add_parser("grade", help="grade a folder of submitted notebooks (nbgrader): grades.csv and feedback "
                       "pages", description=__doc__.split("\n\n")[0])
    p.add_argument("submissions", type=Path, help="a folder with one folder per student: SUBMISSIONS/<student>/"
                   "NN-name.ipynb")
    p.add_argument("--out", type=Path, required=True, help="a new (or empty) folder for grades.csv and feedback/")
    p.add_argument("--source", type=Path, default=release.DEFAULT_SOURCE,
                   help="the instructor's source notebooks, with the hidden tests (default: %(default)s)")
    p.set_defaults(func=run)


def run(args) -> int:
    rows = grade(args.submissions, args.out, args.source)
    students = sum(r.notebook == "TOTAL" for r in rows)
    print(f"graded {len(rows) - students} notebooks of {students} students: {args.out / 'grades.csv'}, "
          f"{args.out / 'feedback'}/")
    return 0
