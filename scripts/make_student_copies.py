"""Make the student copies of the course notebooks.

The notebooks in ``instructor/notebooks/`` (with solutions) are the single source: the course (``[0-9]*.ipynb``) and the
apps (``play.ipynb``). A student copy blanks every code cell tagged ``solution`` (keeping its first comment
lines as the exercise prompt), removes the cells tagged ``solution-text``, and clears all outputs. The
self-check module (``instructor/notebooks/selfcheck.py``: hashed answers and hints) is copied beside them, since the
self-check cells import it. ``--check`` exits 1 if ``notebooks/`` (the student copies) is not current.

    python scripts/make_student_copies.py          # write notebooks/*.ipynb (the student copies)
    python scripts/make_student_copies.py --check  # CI: are the student copies current?
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "instructor" / "notebooks"
TARGET = ROOT / "notebooks"
PLACEHOLDER = "# YOUR ANSWER HERE\n"
#: Files the student copies need beside them, copied as they are.
SUPPORT = ("selfcheck.py",)


def student_copy(nb):
    nb = nbformat.from_dict(nb)
    cells = []
    for cell in nb.cells:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if "solution-text" in tags:
            continue
        if cell.cell_type == "code":
            if "solution" in tags:
                prompt = []
                for line in cell.source.splitlines():
                    if line.startswith("#"):
                        prompt.append(line)
                    else:
                        break
                cell.source = "\n".join(prompt + [PLACEHOLDER.strip()])
                cell.metadata["tags"] = sorted(tags - {"solution"} | {"exercise"})
            cell.outputs = []
            cell.execution_count = None
        cells.append(cell)
    nb.cells = cells
    return nb


def render(path: Path) -> str:
    return nbformat.writes(student_copy(nbformat.read(path, as_version=4))) + "\n"


def sources() -> list[Path]:
    """The notebooks handed out: the course in order, then the apps (play.ipynb)."""
    course = sorted(SOURCE.glob("[0-9]*.ipynb"))
    return course + sorted(p for p in SOURCE.glob("*.ipynb") if p not in course)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that notebooks/ (the student copies) is current")
    args = ap.parse_args(argv)
    stale = []
    expected = set()
    outputs = [(TARGET / src.name, render(src)) for src in sources()]
    outputs += [(TARGET / name, (SOURCE / name).read_text()) for name in SUPPORT]
    for out, text in outputs:
        expected.add(out.name)
        if args.check:
            if not out.exists() or out.read_text() != text:
                stale.append(out.name)
        else:
            TARGET.mkdir(exist_ok=True)
            out.write_text(text)
    made = [p for pattern in ("*.ipynb", "*.py") for p in TARGET.glob(pattern)] if TARGET.exists() else []
    extra = sorted(p.name for p in made if p.name not in expected)
    if args.check:
        if stale or extra:
            print("student copies are not current: " + ", ".join(stale + [f"{e} (no source)" for e in extra])
                  + "\nrun: python scripts/make_student_copies.py", file=sys.stderr)
            return 1
        print(f"student copies current ({len(outputs)} files)")
        return 0
    for e in extra:
        (TARGET / e).unlink()
    print(f"wrote {len(outputs)} files to {TARGET.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
