"""The student release: nbgrader's ``generate_assignment`` run on the instructor's source notebooks.

The source (``instructor/notebooks/``: the course ``NN-*.ipynb`` and the app ``play.ipynb``) holds the worked
solutions, the hidden tests and the instructor's notes, in nbgrader's markup (:mod:`heimlich_lab.course.markup`,
docs/assessment.md). The release (``notebooks/``, committed, what ``make lab`` and Binder open) is generated:

- every solution region becomes ``# YOUR CODE HERE`` (no ``raise``: a blank copy runs top to bottom), every
  open question's model answer ``YOUR ANSWER HERE``;
- every hidden test is removed (its cell stays, locked, with its comment and points);
- cells tagged ``solution-text`` (instructor notes) are left out, and so are the old format's self-check cells
  (``from selfcheck import ...``: hashed answers, an oracle); a code cell of the old format tagged ``solution``
  keeps only its leading comments;
- outputs are cleared, and nbgrader's per-cell checksums are dropped (the autograder takes them from its
  gradebook, and the release carries no digest at all).

nbgrader works on a *course root* with one folder per assignment. This module stages one in a temporary folder,
never kept: each notebook is an assignment of its own, named after its file (``03-bayes-one-move``), holding that
one notebook. :mod:`heimlich_lab.course.grading` stages the same course root to grade submissions.

:func:`answer_material` searches a release for anything of the answers: the solution regions' lines, the
open questions' model answers, the instructor notes, every number of a hidden test's asserts, nbgrader's
markers, hex digests and files that are not notebooks. The release refuses to write a release where it finds
any.

    python scripts/make_release.py           # write notebooks/ from instructor/notebooks/
    python scripts/make_release.py --check   # CI: notebooks/ is current and holds no answer material

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[
...     nbformat.v4.new_markdown_cell("b) is right", metadata={"tags": ["solution-text"]}),
...     nbformat.v4.new_code_cell("# Store it in p.\\np = 0.5", metadata={"tags": ["solution"]}),
...     nbformat.v4.new_code_cell("from selfcheck import check\\ncheck('x', p)")])
>>> [c.source for c in prepare(nb).cells]
['# Store it in p.\\n# YOUR CODE HERE']
"""
from __future__ import annotations

import ast
import contextlib
import copy
import json
import re
import sys
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

# nbformat (with jsonschema) is imported where it is used: `heimlich-lab` builds its parser from every command
# module, and importing jsonschema costs seconds of CPU (its rfc3987-syntax grammars) on every command.
from ..errors import HeimlichError
from . import markup

if TYPE_CHECKING:
    import nbformat

__all__ = ["ReleaseError", "DEFAULT_SOURCE", "DEFAULT_RELEASE", "CODE_STUB", "TEXT_STUB", "source_notebooks",
           "prepare", "nbgrader_config", "course_root", "stage", "generate_assignments", "student_copy",
           "build_release", "answer_material", "write_release"]

_CHECKOUT = Path(__file__).resolve().parents[2]
#: The instructor's source notebooks of this checkout (a wheel has none: pass the folder).
DEFAULT_SOURCE = _CHECKOUT / "instructor" / "notebooks"
#: Where the release goes (committed; ``make lab`` opens it).
DEFAULT_RELEASE = _CHECKOUT / "notebooks"
CODE_STUB = "# YOUR CODE HERE"
TEXT_STUB = "YOUR ANSWER HERE"


class ReleaseError(HeimlichError):
    """The source cannot be released (a missing folder, markup nbgrader refuses, answer material found)."""


def source_notebooks(source: str | Path) -> list[Path]:
    """The source's notebooks in course order: ``NN-*.ipynb`` sorted, then the others (the app).

    >>> [p.name for p in source_notebooks(DEFAULT_SOURCE)][:2]
    ['00-rules-primer.ipynb', '01-start-here.ipynb']
    """
    source = Path(source)
    if not source.is_dir():
        raise ReleaseError(f"no source folder {source}")
    course = sorted(source.glob("[0-9]*.ipynb"))
    paths = course + sorted(p for p in source.glob("*.ipynb") if p not in course)
    if not paths:
        raise ReleaseError(f"no notebook in {source}")
    return paths


def prepare(nb) -> nbformat.NotebookNode:
    """A copy of a source notebook as nbgrader gets it: instructor notes and the old self-check cells left out,
    an old-format solution cell cut to its prompt. nbgrader's own cells are left to nbgrader."""
    import nbformat
    nb = copy.deepcopy(nbformat.from_dict(nb))
    cells = []
    for cell in nb.cells:
        what = markup.kind(cell)
        if what in ("instructor-note", "legacy-selfcheck"):
            continue
        if what == "legacy-solution":
            cell.source = "\n".join(filter(None, [markup.legacy_prompt(cell.source), CODE_STUB]))
            rest = sorted(markup.tags(cell) - {markup.LEGACY_SOLUTION_TAG})
            if rest:
                cell.metadata["tags"] = rest
            else:
                cell.metadata.pop("tags", None)
        cells.append(cell)
    nb.cells = cells
    return nb


def nbgrader_config(root: str | Path):
    """nbgrader's configuration for a course root: the code stub without ``raise``, the text stub, deleted
    graded cells put back when grading, a generous time per cell."""
    from traitlets.config import Config
    c = Config()
    c.CourseDirectory.root = str(root)
    c.ClearSolutions.code_stub = {"python": CODE_STUB}
    c.ClearSolutions.text_stub = TEXT_STUB
    c.OverwriteCells.add_missing_cells = True
    c.Execute.timeout = 600
    return c


def _alembic_head() -> str:
    """The gradebook schema's version, read in this process (nbgrader runs the ``alembic`` program for it,
    which is not on ``PATH`` in a venv that is not activated, and costs a Python start)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR
    config = Config()
    config.set_main_option("script_location", ALEMBIC_DIR)
    return ScriptDirectory.from_config(config).get_current_head()


@contextlib.contextmanager
def course_root() -> Iterator[Path]:
    """A temporary nbgrader course root, removed afterwards. Meanwhile nbgrader's gradebook reads its schema
    version in this process (:func:`_alembic_head`); SQLAlchemy's warnings about its sessions and nbformat's about
    the cells it puts back without an id are silenced."""
    import nbgrader.api
    with tempfile.TemporaryDirectory(prefix="heimlich-nbgrader-") as tmp:
        original = nbgrader.api.get_alembic_version
        nbgrader.api.get_alembic_version = _alembic_head
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", module="nbgrader")
                warnings.filterwarnings("ignore", message=".*not in session.*")
                # nbgrader puts a deleted graded cell back without a cell id
                warnings.filterwarnings("ignore", message="Cell is missing an id field")
                yield Path(tmp)
        finally:
            nbgrader.api.get_alembic_version = original


def stage(paths: Iterable[Path], root: Path) -> list[str]:
    """Write each notebook, prepared, as the one notebook of its assignment in ``root/source/``; returns the
    assignment ids (the file names without ``.ipynb``)."""
    import nbformat
    ids = []
    for path in paths:
        try:
            nb = nbformat.read(path, as_version=4)
        except Exception as e:            # nbformat raises several kinds for a broken file
            raise ReleaseError(f"{path}: not a readable notebook ({e})") from None
        folder = root / "source" / path.stem
        folder.mkdir(parents=True)
        nbformat.write(prepare(nb), folder / path.name)
        ids.append(path.stem)
    return ids


def generate_assignments(root: Path, ids: Iterable[str]) -> None:
    """nbgrader's ``generate_assignment`` for each assignment of the course root (into ``root/release/``)."""
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.utils import capture_log
    config = nbgrader_config(root)
    for assignment in ids:
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id = assignment
        app = GenerateAssignment(coursedir=coursedir, config=config)
        app.force = True
        result = capture_log(app)
        if not result["success"]:
            raise ReleaseError(f"nbgrader could not release {assignment}.ipynb:\n"
                               + _nbgrader_error(result))


def _nbgrader_error(result: dict) -> str:
    """The useful lines of nbgrader's log: its own error messages (a traceback's last line)."""
    log = result.get("log", "") + "\n" + result.get("error", "")
    lines = [ln.strip() for ln in log.splitlines() if ln.strip()]
    errors = [ln for ln in lines if re.match(r"(\[ERROR\]|\w+(Error|Exception):)", ln)
              and "Please see the" not in ln and "There was an error processing" not in ln]
    return "\n".join(dict.fromkeys(errors)) or log.strip()[-2000:]


def student_copy(nb) -> str:
    """A released notebook as committed: nbgrader's checksums, run times and widget state dropped, outputs
    cleared."""
    import nbformat
    nb = copy.deepcopy(nbformat.from_dict(nb))
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.get("nbgrader", {}).pop("checksum", None)
        cell.metadata.pop("execution", None)            # the source's run times
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nbformat.writes(nb) + "\n"


def build_release(source: str | Path = DEFAULT_SOURCE) -> dict[str, str]:
    """file name -> the student copy's text, for every notebook of ``source`` (nothing is written)."""
    import nbformat
    paths = [p.resolve() for p in source_notebooks(source)]    # absolute: nbgrader changes the working folder
    with course_root() as root:
        ids = stage(paths, root)
        generate_assignments(root, ids)
        return {f"{a}.ipynb": student_copy(nbformat.read(root / "release" / a / f"{a}.ipynb", as_version=4))
                for a in ids}


# ------------------------------------------------------------------------------------------- answer material
_HEX = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{16,}(?![0-9A-Za-z])")
_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")


def _significant_digits(text: str) -> int:
    """The significant digits of a number as written.

    >>> _significant_digits("0.3169"), _significant_digits("5e-4"), _significant_digits("360")
    (4, 1, 2)
    """
    mantissa = re.split(r"[eE]", text)[0].replace(".", "").replace("_", "").lstrip("+-")
    return len(mantissa.strip("0"))


#: Calls whose arguments may be an expected value (``abs(p - 0.3169)``, ``np.isclose(p, 0.3169)``); the arguments
#: of any other call (a seed, a sample size, a function of the library) are not answers.
_VALUE_CALLS = {"abs", "round", "float", "int", "isclose", "allclose", "approx", "array", "asarray", "list", "tuple",
                "set", "frozenset", "sorted", "dict", "Series", "Fraction"}


def _expected_values(node, out: list) -> None:
    """The constants of an expression that may be an expected value (see :data:`_VALUE_CALLS`); keyword
    arguments (``atol=``, ``seed=``) and tolerances (the right side of ``abs(...) < tol``) left out."""
    if isinstance(node, ast.Constant):
        out.append(node)
    elif isinstance(node, ast.Call):
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if func in _VALUE_CALLS:
            for arg in node.args:
                _expected_values(arg, out)
    elif isinstance(node, ast.Compare) and all(isinstance(op, (ast.Lt, ast.LtE)) for op in node.ops) \
            and isinstance(node.left, ast.Call) and getattr(node.left.func, "id", "") == "abs":
        _expected_values(node.left, out)
    else:
        for child in ast.iter_child_nodes(node):
            _expected_values(child, out)


def _is_literal(node: ast.AST) -> bool:
    """Whether ``node`` is a literal (a number, a table of numbers written out), not a computation."""
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def answer_like_numbers(tests: str) -> set[str]:
    """The numbers in hidden tests that could give an answer away, as written: the constants of each assert's
    condition and of each assignment of a literal (an expected table, not a computation), keeping whole numbers above 12
    and other numbers with at least 3 significant digits. Tolerances (``abs(...) < tol``, ``atol=``), assert messages
    and arguments of other calls than ``abs``, ``isclose`` and the like (a seed, a sample size) are left out, and so are
    small and round numbers, which are in any text.

    >>> sorted(answer_like_numbers("assert abs(p_red - 0.3169) < 5e-4, p_red\\nassert n == 360\\nassert k == 3"))
    ['0.3169', '360']
    >>> sorted(answer_like_numbers("assert np.isclose(x, 1.2345, atol=0.0125)\\nassert abs(y - 2.5) <= 0.001"))
    ['1.2345']
    >>> sorted(answer_like_numbers("ref = fit(play(seed=2026), 1000).beta\\nexpected = {'Ann': 0.4375}\\n"
    ...                            "assert abs(beta - ref) < 0.05 and table == expected"))
    ['0.4375']
    >>> sorted(answer_like_numbers("w = 0.4 / 21 + 0.125; assert abs(p - w) < 1e-4"))   # a computation's inputs
    []
    """
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return set()
    constants: list = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            _expected_values(node.test, constants)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and _is_literal(node.value):
            _expected_values(node.value, constants)   # an expected table written out; a computation's inputs are not
    found = set()
    for node in constants:
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            continue
        text = ast.get_source_segment(tests, node) or repr(node.value)
        if isinstance(node.value, int) and "." not in text and "e" not in text.lower():
            if abs(node.value) > 12:
                found.add(text)
        elif _significant_digits(text) >= 3:
            found.add(text)
    return found


def _visible_and_secret_lines(nb) -> tuple[set[str], set[str]]:
    """(lines students see, lines of the answers) of a source notebook, stripped, empty lines left out."""
    visible, secret = [], []
    for cell in nb.cells:
        src = cell.get("source", "")
        what = markup.kind(cell)
        if what == "answer":
            visible.append(markup.outside(src, markup.BEGIN_SOLUTION, markup.END_SOLUTION))
            secret.append(markup.solution_region(src))
        elif what == "hidden-test":
            visible.append(markup.outside(src, markup.BEGIN_HIDDEN, markup.END_HIDDEN))
            secret.append(markup.hidden_tests(src))
        elif what in ("open-question", "instructor-note"):
            secret.append(src)
        elif what == "legacy-solution":
            visible.append(markup.legacy_prompt(src))
            secret.append(src[len(markup.legacy_prompt(src)):])
        elif what == "legacy-selfcheck":
            secret.append(src)
        else:
            visible.append(src)

    def lines(texts):
        return {ln.strip() for t in texts for ln in t.splitlines() if ln.strip()}
    return lines(visible), lines(secret)


def _release_text(nb) -> str:
    """Everything of a released notebook a student could read, cell ids left out (short random hex)."""
    import nbformat
    nb = copy.deepcopy(nbformat.from_dict(nb))
    for cell in nb.cells:
        cell.pop("id", None)
    return json.dumps(nb, ensure_ascii=False)


def answer_material(sources: Iterable[Path], release: dict[str, str], extra_files: Iterable[str] = ()) -> list[str]:
    """Findings of answer material in a release (empty when there is none).

    ``sources``: the source notebooks; ``release``: file name -> released notebook text; ``extra_files``: names
    of other files in the release folder (none belongs there: the old ``selfcheck.py`` kept hashed answers).
    """
    import nbformat
    findings = [f"{name}: not a released notebook (answer files such as selfcheck.py have no place here)"
                for name in sorted(extra_files)]
    sources = {p.name: nbformat.read(p, as_version=4) for p in sources}
    # Decimals are searched in the whole release; a whole number only in its own notebook (a count such as 30 is
    # in any text, and says nothing about another notebook's exercise).
    numbers: dict[str, str] = {}
    own_numbers: dict[str, dict[str, str]] = {}
    for name, nb in sources.items():
        for cell in nb.cells:
            if markup.kind(cell) == "hidden-test":
                for number in answer_like_numbers(markup.hidden_tests(cell.source)):
                    where = f"{name} {markup.grade_id(cell)}"
                    if re.fullmatch(r"-?\d+", number):
                        own_numbers.setdefault(name, {}).setdefault(number, where)
                    else:
                        numbers.setdefault(number, where)
    for name, text in sorted(release.items()):
        try:
            nb = nbformat.reads(text, as_version=4)
        except Exception as e:
            findings.append(f"{name}: not a readable notebook ({e})")
            continue
        everything = _release_text(nb)
        for marker in _MARKERS:
            if marker in everything:
                findings.append(f"{name}: nbgrader's marker {marker!r}")
        for digest in sorted(set(_HEX.findall(everything))):
            findings.append(f"{name}: a hex digest {digest}")
        for number, where in sorted({**numbers, **own_numbers.get(name, {})}.items()):
            if re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", everything):
                findings.append(f"{name}: the number {number} of a hidden test ({where})")
        if name in sources:
            visible, secret = _visible_and_secret_lines(sources[name])
            leaked = secret - visible
        else:
            leaked = set()
            findings.append(f"{name}: no source notebook of that name")
        for i, cell in enumerate(nb.cells):
            what = markup.kind(cell)
            if what in ("instructor-note", "legacy-solution", "legacy-selfcheck"):
                findings.append(f"{name}: cell {i} is {what.replace('-', ' ')}")
            if what == "hidden-test" and any(ln.strip() and not ln.lstrip().startswith("#")
                                             for ln in cell.source.splitlines()):
                findings.append(f"{name}: cell {i}, a graded test cell, runs code students can read")
            for line in sorted({ln.strip() for ln in cell.source.splitlines()} & leaked):
                findings.append(f"{name}: cell {i} holds a line of the answers: {line[:80]!r}")
    return findings


def write_release(source: str | Path = DEFAULT_SOURCE, target: str | Path = DEFAULT_RELEASE,
                  check: bool = False, out=sys.stdout, err=sys.stderr) -> int:
    """Make the release of ``source`` in ``target`` (or, with ``check``, only compare); 0 when done or current,
    1 when stale or when answer material is found (nothing is written then)."""
    source, target = Path(source), Path(target)
    release = build_release(source)
    present = sorted(p.name for p in target.iterdir() if p.is_file() and not p.name.startswith(".")) \
        if target.is_dir() else []
    extra = [n for n in present if n not in release]
    findings = answer_material(source_notebooks(source), release)
    if findings:
        print("answer material in the release (nothing written):\n  " + "\n  ".join(findings), file=err)
        return 1
    if check:
        stale = [n for n, text in release.items() if not (target / n).is_file() or (target / n).read_text() != text]
        leftovers = answer_material([], {}, extra)
        if stale or extra:
            print(f"{target} is not the current release: "
                  + ", ".join(stale + [f"{n} (no source)" for n in extra])
                  + ("\n  " + "\n  ".join(leftovers) if leftovers else "")
                  + "\nrun: python scripts/make_release.py", file=err)
            return 1
        print(f"release current ({len(release)} notebooks in {target.name}/), no answer material")
        return 0
    target.mkdir(parents=True, exist_ok=True)
    for name, text in release.items():
        (target / name).write_text(text)
    for name in extra:
        (target / name).unlink()
    print(f"wrote {len(release)} notebooks to {target}" + (f"; removed {', '.join(extra)}" if extra else ""),
          file=out)
    return 0
