"""Make the instructors' answer key from the source notebooks (instructor/notebooks/).

``instructor/answer-key.md`` lists, notebook by notebook and in the notebook's order, every exercise in
nbgrader's markup (docs/assessment.md): its task (the markdown statement before it), the worked solution (the
answer cell's solution region, with the value the committed notebook printed), the hidden test that grades it
and its points; every open question with its model answer (graded by hand); and every instructor note (markdown
cells tagged ``solution-text``: the explanation of each multiple-choice option, answers to questions asked in
class). A notebook still in the old format (cells tagged ``solution``) shows those cells' code. The key is
generated, never edited by hand, and lives in ``instructor/``, which students never get (the release,
``notebooks/``, has none of it).

    python scripts/make_answer_key.py          # write instructor/answer-key.md
    python scripts/make_answer_key.py --check  # CI: is the key current?
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))                         # this checkout's heimlich_lab

from heimlich_lab.course import markup  # noqa: E402

SOURCE = ROOT / "instructor" / "notebooks"
KEY = ROOT / "instructor" / "answer-key.md"
_STATEMENT = re.compile(r"\*\*(Exercise|Question)\b")


def _printed(cell) -> str:
    """What a code cell printed or returned, as committed (empty when the notebook is kept without outputs)."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            parts.append(out.get("text", ""))
        elif out.get("output_type") == "execute_result":
            parts.append(out.get("data", {}).get("text/plain", ""))
    return "".join(parts).strip()


def _task(cells, i) -> str:
    """The exercise's or question's statement: the markdown cell nearest before cell ``i`` (instructor notes and
    open questions left out), from its last '**Exercise' or '**Question' on."""
    for cell in reversed(cells[:i]):
        if cell.cell_type == "markdown" and markup.kind(cell) == "plain":
            starts = [m.start() for m in _STATEMENT.finditer(cell.source)]
            return cell.source[starts[-1] if starts else 0:].strip()
    return ""


def _points(p) -> str:
    return f"{p:g} point{'s' if p != 1 else ''}"


def _code(text: str) -> list[str]:
    return ["```python", text.strip(), "```", ""]


def _value(cell, has_outputs: bool) -> list[str]:
    printed = _printed(cell)
    if printed:
        return [f"Prints `{printed}`." if "\n" not in printed else f"Prints:\n\n```\n{printed}\n```", ""]
    if not has_outputs:
        return ["(This notebook is kept without outputs: run the cell to see the value.)", ""]
    return []


def notebook_key(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    cells = nb.cells
    has_outputs = any(c.get("outputs") for c in cells if c.cell_type == "code")
    title = cells[0].source.splitlines()[0].lstrip("# ").strip()
    tests = {markup.grade_id(c): c for c in cells if markup.kind(c) == "hidden-test"}
    graded = [c for c in cells if markup.kind(c) in ("hidden-test", "open-question")]
    total = sum(markup.points(c) or 0 for c in graded)
    by_hand = sum(markup.points(c) or 0 for c in graded if markup.kind(c) == "open-question")
    lines = [f"## {title}", "", f"`instructor/notebooks/{path.name}`", ""]
    if graded:
        lines += [f"Graded: {_points(total)}" + (f", {by_hand:g} of them by hand." if by_hand else ".") , ""]
    entries, shown = 0, set()
    for i, cell in enumerate(cells):
        what = markup.kind(cell)
        if what == "answer":
            gid = markup.grade_id(cell)
            lines += [f"### `{gid}`", "", _task(cells, i), ""]
            lines += _code(markup.solution_region(cell.source)) + _value(cell, has_outputs)
            test = tests.get(f"{gid}-test")
            if test is not None:
                lines += [f"Hidden test `{gid}-test` ({_points(markup.points(test) or 0)}):", ""]
                lines += _code(markup.hidden_tests(test.source))
                shown.add(f"{gid}-test")
            entries += 1
        elif what == "hidden-test" and markup.grade_id(cell) not in shown:
            lines += [f"### Hidden test `{markup.grade_id(cell)}` ({_points(markup.points(cell) or 0)})", ""]
            lines += _code(markup.hidden_tests(cell.source))
            entries += 1
        elif what == "open-question":
            lines += [f"### `{markup.grade_id(cell)}`: an open question ({_points(markup.points(cell) or 0)}, "
                      "graded by hand)", "", _task(cells, i), "", "Model answer:", "", cell.source.strip(), ""]
            entries += 1
        elif what == "instructor-note":
            lines += ["### Instructor note", "", cell.source.strip(), ""]
            entries += 1
        elif what == "legacy-solution":
            lines += [_task(cells, i), ""] + _code(cell.source) + _value(cell, has_outputs)
            entries += 1
    return lines if entries else []


def render(source: Path = SOURCE) -> str:
    course = sorted(source.glob("[0-9]*.ipynb"))
    paths = course + sorted(p for p in source.glob("*.ipynb") if p not in course)
    lines = ["# Answer key for instructors", "",
             "Generated by `scripts/make_answer_key.py` from the source notebooks in `instructor/notebooks/`; "
             "do not edit.",
             "Not part of `notebooks/` (the student release): do not hand it out.", ""]
    for path in paths:
        lines += notebook_key(path)
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that the key is current")
    ap.add_argument("--source", type=Path, default=SOURCE, help="the source notebooks (instructor/notebooks)")
    ap.add_argument("--key", type=Path, default=KEY, help="the key's file (instructor/answer-key.md)")
    args = ap.parse_args(argv)
    text = render(args.source)
    if args.check:
        if not args.key.exists() or args.key.read_text() != text:
            print(f"{args.key} is not current\nrun: python scripts/make_answer_key.py", file=sys.stderr)
            return 1
        print(f"{args.key} current")
        return 0
    args.key.parent.mkdir(parents=True, exist_ok=True)
    args.key.write_text(text)
    print(f"wrote {args.key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
