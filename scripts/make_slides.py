"""Make the course's slides: one reveal.js deck per week, from the instructor's notebooks, shown offline.

Each week's notebooks (``instructor/schedule.yaml``) are joined into one notebook and exported with nbconvert's
reveal.js slides. Nothing is edited in the notebooks; the class copy is made in memory:

- answers are removed: in an exercise's answer cell (nbgrader ``solution``, or the older ``solution`` tag) the
  ``### BEGIN SOLUTION`` ... ``### END SOLUTION`` region becomes ``# YOUR CODE HERE`` (a cell with the older tag
  keeps only its leading comment lines, the prompt) and its output is cleared; graded test cells (hidden tests),
  markdown cells tagged ``solution-text`` and open answers (nbgrader markdown ``solution`` cells) are dropped;
  formative-feedback and self-check cells are dropped (they echo the answer); a later cell that uses a name an
  answer assigned keeps its code but loses its output;
- ``# NBVAL_...`` markers and widget state are dropped (a live widget shows its text form);
- slide breaks are chosen from the cells: a markdown cell that opens with a heading starts a new slide, other
  cells go below it as vertical sub-slides, and a short code cell stays on the slide of the markdown above it.

The decks load reveal.js, require.js, jQuery and MathJax 2 from the deck's own folder: the npm packages pinned
in ``instructor/slides/package.json`` (``make slides-vendor`` runs ``npm ci`` there) are copied next to the decks,
and nbconvert's URLs (``SlidesExporter.reveal_url_prefix``, ``mathjax_url``, ``require_js_url``, ``jquery_url``)
point at the copies. Mermaid, which the template would import from a CDN, is left out (no notebook uses it).

Notebooks without committed outputs (those not listed in ``instructor/notebooks/STRICT``) are executed first, in
memory, with their solutions (so that later cells run), unless ``--no-execute``.

    python scripts/make_slides.py                    # every week, into instructor/slides/build/
    python scripts/make_slides.py --week 2 --out DIR # one week
"""
from __future__ import annotations

import argparse
import ast
import copy
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "instructor" / "notebooks"
SCHEDULE = ROOT / "instructor" / "schedule.yaml"
SLIDES = ROOT / "instructor" / "slides"
NODE_MODULES = SLIDES / "node_modules"
TEMPLATES = SLIDES / "templates"
DEFAULT_OUT = SLIDES / "build"

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
PLACEHOLDER = "# YOUR CODE HERE"
#: A code cell that gives feedback on an answer (and prints it back): not shown in class.
FEEDBACK = re.compile(r"^\s*(from\s+selfcheck\s+import|from\s+heimlich_lab\.course\s+import\s+formative|"
                      r"formative\.\w+\()", re.M)
#: A link to another notebook (``[notebook 0](00-rules-primer.ipynb)``): in a deck it leads nowhere, so only its text stays.
NOTEBOOK_LINK = re.compile(r"\[([^\]]+)\]\([^)\s]+\.ipynb(#[^)]*)?\)")
NBVAL_MARK = re.compile(r"^\s*#\s*NBVAL_\w+\s*\n?", re.M)
HEADING = re.compile(r"^\s*#{1,6} ")
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
#: A code cell this short (source lines + output lines) stays on the slide of the markdown cell before it.
SHORT = 12

#: Where each file the decks load comes from (in node_modules) and goes (in the output folder).
VENDOR = {
    "reveal.js/dist": "reveal.js/dist",
    "reveal.js/plugin": "reveal.js/plugin",
    "requirejs/require.js": "vendor/require.js",
    "jquery/dist/jquery.min.js": "vendor/jquery.min.js",
    "mathjax/MathJax.js": "mathjax/MathJax.js",
    "mathjax/config": "mathjax/config",
    "mathjax/extensions": "mathjax/extensions",
    "mathjax/localization/en": "mathjax/localization/en",
    "mathjax/jax/element": "mathjax/jax/element",
    "mathjax/jax/input/TeX": "mathjax/jax/input/TeX",
    "mathjax/jax/output/CommonHTML": "mathjax/jax/output/CommonHTML",
    "mathjax/fonts/HTML-CSS/TeX/woff": "mathjax/fonts/HTML-CSS/TeX/woff",
}
URLS = {
    "reveal_url_prefix": "reveal.js",
    "require_js_url": "vendor/require.js",
    "jquery_url": "vendor/jquery.min.js",
    "mathjax_url": "mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
}


class SlidesError(Exception):
    """A deck cannot be made (a missing notebook, reveal.js not installed, an unknown week)."""


@dataclass(frozen=True)
class Entry:
    number: int
    title: str
    coming: bool = False

    def path(self) -> Path | None:
        """The notebook's file, or None if it is not in the course (yet)."""
        found = sorted(NOTEBOOKS.glob(f"{self.number:02d}-*.ipynb"))
        if len(found) > 1:
            raise SlidesError(f"two notebooks numbered {self.number:02d}: {[p.name for p in found]}")
        return found[0] if found else None


@dataclass(frozen=True)
class Week:
    week: int
    title: str
    entries: tuple[Entry, ...]


def load_schedule(path: Path = SCHEDULE) -> list[Week]:
    """The weeks of ``instructor/schedule.yaml``.

    >>> weeks = load_schedule()
    >>> [w.week for w in weeks]
    [1, 2, 3, 4, 5, 6]
    >>> [e.number for e in weeks[1].entries]
    [3, 4]
    """
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    weeks = []
    for w in data["weeks"]:
        entries = tuple(Entry(int(e["number"]), str(e["title"]), bool(e.get("coming", False)))
                        for e in w["notebooks"])
        weeks.append(Week(int(w["week"]), str(w["title"]), entries))
    return weeks


# ---------------------------------------------------------------------------------------------------------------
# The class copy of a notebook: no answers.

def _nbgrader(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def is_answer_cell(cell) -> bool:
    """A code cell in which the student writes an answer."""
    return cell.cell_type == "code" and (_nbgrader(cell).get("solution") is True or "solution" in _tags(cell))


def is_test_cell(cell) -> bool:
    """A graded test (nbgrader ``grade`` without ``solution``), or any cell holding hidden tests."""
    nbg = _nbgrader(cell)
    if cell.cell_type == "code" and nbg.get("grade") is True and not nbg.get("solution"):
        return True
    return BEGIN_HIDDEN in cell.source


def is_instructor_text(cell) -> bool:
    """Markdown only the instructor sees: ``solution-text`` notes and open questions' model answers."""
    return cell.cell_type == "markdown" and ("solution-text" in _tags(cell) or _nbgrader(cell).get("solution") is True)


def solution_lines(cell) -> list[str]:
    """The lines of an answer cell that the class must not see (what ``blank_answer`` removes).

    >>> from nbformat.v4 import new_code_cell
    >>> c = new_code_cell("# store p\\n### BEGIN SOLUTION\\np = 0.5\\n### END SOLUTION")
    >>> c.metadata["nbgrader"] = {"solution": True}
    >>> solution_lines(c)
    ['p = 0.5']
    """
    lines = cell.source.splitlines()
    if BEGIN_SOLUTION in cell.source:
        out, inside = [], False
        for line in lines:
            if line.strip() == BEGIN_SOLUTION:
                inside = True
            elif line.strip() == END_SOLUTION:
                inside = False
            elif inside:
                out.append(line)
        return out
    prompt = 0
    while prompt < len(lines) and lines[prompt].startswith("#"):
        prompt += 1
    return lines[prompt:]


def blank_answer(source: str) -> str:
    """An answer cell's source without its answer: the solution region (or, in the older format, every line
    after the leading comments) becomes ``# YOUR CODE HERE``.

    >>> print(blank_answer("# Exercise: store p\\n### BEGIN SOLUTION\\np = 0.5\\n### END SOLUTION\\n"))
    # Exercise: store p
    # YOUR CODE HERE
    >>> print(blank_answer("# Exercise: store p\\np = 0.5\\np"))
    # Exercise: store p
    # YOUR CODE HERE
    """
    lines = source.splitlines()
    if BEGIN_SOLUTION in source:
        out, inside = [], False
        for line in lines:
            if line.strip() == BEGIN_SOLUTION:
                inside = True
                out.append(line[: len(line) - len(line.lstrip())] + PLACEHOLDER)
            elif line.strip() == END_SOLUTION:
                inside = False
            elif not inside:
                out.append(line)
        return "\n".join(out)
    prompt = []
    for line in lines:
        if not line.startswith("#"):
            break
        prompt.append(line)
    return "\n".join(prompt + [PLACEHOLDER])


def assigned_names(lines: list[str]) -> set[str]:
    """Names bound at the top level of some code (the answer's variables and helpers)."""
    names: set[str] = set()
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return {m.group(1) for line in lines for m in [re.match(r"\s*([A-Za-z_]\w*)\s*=", line)] if m}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def class_copy(nb):
    """The notebook as shown in class: no answer, no hidden test, no instructor text, no feedback on answers."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    cells, answer_names = [], set()
    for cell in nb.cells:
        if is_instructor_text(cell) or is_test_cell(cell):
            continue
        if cell.cell_type == "markdown":
            cell.source = NOTEBOOK_LINK.sub(r"\1", cell.source)
        if cell.cell_type == "code":
            if FEEDBACK.search(cell.source):
                continue
            if is_answer_cell(cell):
                answer_names |= assigned_names(solution_lines(cell))
                cell.source = blank_answer(cell.source)
                cell.outputs = []
            elif answer_names and any(re.search(rf"\b{re.escape(n)}\b", cell.source) for n in answer_names):
                cell.outputs = []             # it would show something computed from an answer
            cell.source = NBVAL_MARK.sub("", cell.source)
            cell.outputs = [_without_widgets(o) for o in cell.outputs]
            cell.outputs = [o for o in cell.outputs if o is not None]
            cell.execution_count = None
        cells.append(cell)
    nb.cells = cells
    return nb


def _without_widgets(output):
    data = output.get("data")
    if data and WIDGET_MIME in data:
        data = {k: v for k, v in data.items() if k != WIDGET_MIME}
        if not data:
            return None
        output = copy.deepcopy(output)
        output["data"] = data
    return output


# ---------------------------------------------------------------------------------------------------------------
# Slide breaks.

def _size(cell) -> int:
    lines = len(cell.source.splitlines())
    for o in cell.get("outputs", []):
        if "text" in o:
            lines += len("".join(o["text"]).splitlines())
        elif "data" in o:
            data = o["data"]
            lines += 12 if any(k.startswith("image/") for k in data) else len(
                "".join(data.get("text/plain", "")).splitlines())
    return lines


def mark_slides(cells) -> None:
    """Set each cell's ``slideshow.slide_type``: a heading starts a slide, everything else is a sub-slide below
    it, and a short code cell stays with the markdown cell just before it."""
    previous = None
    for cell in cells:
        if cell.cell_type == "markdown" and HEADING.match(cell.source):
            kind = "slide"
        elif (cell.cell_type == "code" and previous is not None and previous.cell_type == "markdown"
              and _size(cell) + len(previous.source.splitlines()) <= SHORT):
            kind = "-"
        else:
            kind = "subslide"
        if previous is None:
            kind = "slide"
        cell.metadata["slideshow"] = {"slide_type": kind}
        previous = cell


# ---------------------------------------------------------------------------------------------------------------
# Decks.

def strict_notebooks() -> set[str]:
    path = NOTEBOOKS / "STRICT"
    return {line.strip() for line in path.read_text().splitlines() if line.strip()} if path.exists() else set()


def execute(nb, path: Path):
    """Run a notebook in memory (from its folder) so that the deck shows its outputs."""
    from nbclient import NotebookClient
    nb = copy.deepcopy(nb)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}},
                   store_widget_state=False).execute()
    return nb


def week_notebook(week: Week, execute_missing: bool = True, log=print):
    """One notebook for the week: a title slide, then each notebook's class copy in order."""
    from nbformat.v4 import new_markdown_cell, new_notebook
    lines = [f"# Week {week.week}: {week.title}", ""]
    lines += [f"- Notebook {e.number}: {e.title}" + (" *(coming)*" if e.coming and e.path() is None else "")
              for e in week.entries]
    cells = [new_markdown_cell("\n".join(lines))]
    strict = strict_notebooks()
    for entry in week.entries:
        path = entry.path()
        if path is None:
            if not entry.coming:
                raise SlidesError(f"week {week.week}: notebook {entry.number:02d} is scheduled but "
                                  f"instructor/notebooks/{entry.number:02d}-*.ipynb does not exist")
            cells.append(new_markdown_cell(f"# {entry.number}. {entry.title}\n\n*This notebook is coming: its slot "
                                           "in the schedule is kept for it.*"))
            continue
        nb = nbformat.read(path, as_version=4)
        has_outputs = any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
        if execute_missing and path.name not in strict and not has_outputs:
            log(f"  executing {path.name} (no committed outputs)")
            nb = execute(nb, path)
        cells += class_copy(nb).cells
    mark_slides(cells)
    out = new_notebook(cells=cells)
    out.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    out.metadata["language_info"] = {"name": "python"}
    return out


def install_vendor(out: Path, node_modules: Path = NODE_MODULES) -> None:
    """Copy the scripts and stylesheets the decks load into ``out`` (from the pinned npm packages)."""
    if not (node_modules / "reveal.js" / "dist" / "reveal.js").exists():
        raise SlidesError(f"reveal.js is not installed in {node_modules}: run `make slides-vendor` "
                          "(npm ci --prefix instructor/slides)")
    for source, target in VENDOR.items():
        src, dst = node_modules / source, out / target
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def exporter():
    from nbconvert import SlidesExporter
    ex = SlidesExporter(template_name="offline", extra_template_basedirs=[str(TEMPLATES)])
    for name, url in URLS.items():
        setattr(ex, name, url)
    ex.reveal_theme = "white"            # its fonts are in reveal.js's folder ("simple" imports Google Fonts)
    ex.reveal_scroll = True               # a tall slide scrolls instead of running off the screen
    ex.reveal_number = "c/t"
    ex.reveal_width, ex.reveal_height = "1280", "760"   # room for a 110-character code line
    ex.exclude_input_prompt = True
    ex.exclude_output_prompt = True
    return ex


def build(weeks: list[Week], out: Path, execute_missing: bool = True, log=print) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    install_vendor(out)
    ex, written = exporter(), []
    for week in weeks:
        log(f"week {week.week}: notebooks {', '.join(str(e.number) for e in week.entries)}")
        nb = week_notebook(week, execute_missing=execute_missing, log=log)
        html, _ = ex.from_notebook_node(nb, resources={"metadata": {"name": f"Week {week.week}"}})
        path = out / f"week-{week.week}.html"
        path.write_text(html, encoding="utf-8")
        written.append(path)
        log(f"  wrote {path.relative_to(out.parent) if out.parent in path.parents else path}")
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--week", type=int, action="append", help="only this week (repeatable)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default %(default)s)")
    parser.add_argument("--no-execute", action="store_true",
                        help="do not run notebooks that have no committed outputs (their decks show code only)")
    args = parser.parse_args(argv)
    weeks = load_schedule()
    if args.week:
        known = {w.week for w in weeks}
        unknown = sorted(set(args.week) - known)
        if unknown:
            print(f"error: no week {unknown} in {SCHEDULE.relative_to(ROOT)} (weeks {sorted(known)})", file=sys.stderr)
            return 2
        weeks = [w for w in weeks if w.week in args.week]
    try:
        build(weeks, args.out, execute_missing=not args.no_execute)
    except SlidesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"open {args.out / 'week-1.html'} in a browser (no network needed); "
          f"for the best fonts serve the folder: python -m http.server -d {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
