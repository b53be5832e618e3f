"""The weekly slides (scripts/make_slides.py): decks that run offline and show no answers.

One week's deck is built into a temporary folder. Every script and stylesheet it loads (``<script src>``,
``<link rel=stylesheet>``, the modules ``require`` loads, ``@import`` and ``url()`` inside the stylesheets, followed
through the local files) must be a file in that folder, never an http(s) URL; and nothing of an answer may be in
it: no line of a solution region, no hidden test, no instructor-only text, no printed answer. The class copy's
rules are also checked on a small notebook in nbgrader's format (answers, hidden tests, open answers, feedback).
The schedule that drives the decks lists every notebook of the course once.
"""
from __future__ import annotations

import html
import importlib.util
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parents[1]
#: Notebooks 0, 1 and 2: pictures, a widget, maths, an exercise in each, instructor-only text. Nothing is executed
#: here: notebooks 0 and 2 have committed outputs, and notebook 1 (no committed outputs) shows its code only.
WEEK = 1


def _load_tool():
    spec = importlib.util.spec_from_file_location("make_slides", ROOT / "scripts" / "make_slides.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_slides", mod)
    spec.loader.exec_module(mod)
    return mod


tool = _load_tool()


@pytest.fixture(scope="module")
def deck(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("slides")
    weeks = [w for w in tool.load_schedule() if w.week == WEEK]
    (path,) = tool.build(weeks, out, execute_missing=False, log=lambda *a: None)
    return path


# ---------------------------------------------------------------------------------------------------------------
# What a deck loads.

class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts, self.styles, self.inline_js, self.inline_css = [], [], [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            if a.get("src"):
                self.scripts.append(a["src"])
            self._in = "script"
        elif tag == "link" and "stylesheet" in (a.get("rel") or ""):
            self.styles.append(a["href"])
        elif tag == "style":
            self._in = "style"

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.inline_js.append(data)
        elif self._in == "style":
            self.inline_css.append(data)


def _remote(url: str) -> bool:
    return url.startswith("//") or urlsplit(url).scheme in ("http", "https")


def _css_refs(css: str) -> list[str]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)           # comments may cite web pages
    refs = re.findall(r"@import\s+(?:url\()?\s*['\"]?([^'\")\s;]+)", css)
    refs += re.findall(r"url\(\s*['\"]?([^'\")]+?)['\"]?\s*\)", css)
    return [r for r in refs if not r.startswith(("data:", "#"))]


def _required_modules(js: str) -> list[str]:
    """The paths passed to require([...]) in an inline script."""
    out = []
    for block in re.findall(r"require\(\s*\{.*?\}\s*,\s*\[(.*?)\]", js, flags=re.S):
        out += re.findall(r"['\"]([^'\"]+)['\"]", block)
    return out


def test_every_script_and_stylesheet_is_a_local_file(deck):
    parser = _Refs()
    parser.feed(deck.read_text(encoding="utf-8"))
    required = [m for js in parser.inline_js for m in _required_modules(js)]
    assert any(m.endswith("reveal.js/dist/reveal.js") for m in required), "the deck does not load reveal.js"
    assert any("MathJax.js" in s for s in parser.scripts) and any("require.js" in s for s in parser.scripts)
    loaded = parser.scripts + parser.styles + required
    remote = [u for u in loaded if _remote(u)]
    remote += [u for css in parser.inline_css for u in _css_refs(css) if _remote(u)]
    assert remote == [], f"the deck loads from the network: {remote}"
    # every local file exists; stylesheets are followed through their @import and url() references
    todo = [deck.parent / urlsplit(u).path for u in loaded]
    seen, missing = set(), []
    while todo:
        path = todo.pop().resolve()
        if path in seen:
            continue
        seen.add(path)
        if not path.is_file():
            missing.append(str(path.relative_to(deck.parent.resolve())))
            continue
        if path.suffix == ".css":
            for ref in _css_refs(path.read_text(encoding="utf-8", errors="replace")):
                assert not _remote(ref), f"{path.name} loads {ref} from the network"
                todo.append(path.parent / urlsplit(ref).path)
    assert missing == [], f"the deck refers to files that are not beside it: {missing}"
    assert len(seen) >= 6


def test_the_deck_has_slides_for_each_section(deck):
    text = deck.read_text(encoding="utf-8")
    sections = re.findall(r"<section\b", text)
    assert len(sections) >= 15
    assert "Week 1" in text and "0. The rules" in text and "2. The rules as a program" in text
    assert ".ipynb" not in re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S), "a link to a notebook"


# ---------------------------------------------------------------------------------------------------------------
# No answers in the deck.

def _plain(s: str) -> str:
    """Text with markup, punctuation and spacing flattened (for comparing markdown with rendered HTML)."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`$\\{}#|>\[\]()]", " ", s)).strip()


def _deck_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def _answer_material(nb, also_public: str = "") -> tuple[list[str], list[str]]:
    """(code lines, prose) that only the instructor may see, minus what the student's cells also say (here, or in
    ``also_public``: the plain text of the student cells of the deck's other notebooks)."""
    public_code, public_prose, code, prose = [], [], [], []
    for cell in nb.cells:
        if tool.is_instructor_text(cell):
            prose.append(cell.source)
        elif cell.cell_type == "code" and tool.is_test_cell(cell):
            code += cell.source.splitlines()
        elif tool.is_answer_cell(cell):
            code += tool.solution_lines(cell)
            for o in cell.get("outputs", []):         # what the answer printed
                text = o.get("text") or o.get("data", {}).get("text/plain", "")
                code += "".join(text).splitlines()
            public_code += tool.blank_answer(cell.source).splitlines()
        elif cell.cell_type == "code":
            public_code += cell.source.splitlines()
            for o in cell.get("outputs", []):         # an answer may equal what another cell shows anyway
                public_code += "".join(o.get("text") or o.get("data", {}).get("text/plain", "")).splitlines()
        else:
            public_prose.append(cell.source)
    public = " ".join(_plain(s) for s in public_code + public_prose) + " " + also_public
    code = sorted({c.strip() for c in code
                   if len(c.strip()) >= 8 and not c.strip().startswith("#") and _plain(c) not in public})
    phrases = []
    for text in prose:                                   # six-word runs that the public text does not have
        words = _plain(text).split()
        phrases += [" ".join(words[i:i + 6]) for i in range(0, max(len(words) - 5, 0), 3)]
    return code, [p for p in phrases if p not in public]


def _public_text(nb) -> str:
    """What a student sees of a notebook: its cells with the answers blanked, no test, no instructor note."""
    parts = []
    for cell in nb.cells:
        if tool.is_instructor_text(cell) or (cell.cell_type == "code" and tool.is_test_cell(cell)):
            continue
        parts.append(tool.blank_answer(cell.source) if tool.is_answer_cell(cell) else cell.source)
    return "\n".join(parts)


def test_the_deck_shows_no_answer(deck):
    text = _plain(_deck_text(deck))
    week = next(w for w in tool.load_schedule() if w.week == WEEK)
    checked = 0
    notebooks = {entry.path().name: nbformat.read(entry.path(), as_version=4) for entry in week.entries}
    for entry in week.entries:
        nb = notebooks[entry.path().name]
        others = " ".join(_plain(_public_text(other)) for name, other in notebooks.items() if name != entry.path().name)
        code, phrases = _answer_material(nb, others)
        assert code, f"{entry.path().name}: no answer found to look for (has the exercise format changed?)"
        leaked = [c for c in code if _plain(c) in text] + [p for p in phrases if p in text]
        assert leaked == [], f"{entry.path().name}: the deck shows answer material: {leaked[:5]}"
        checked += len(code) + len(phrases)
    assert checked >= 10
    assert "YOUR CODE HERE" in text
    assert "NBVAL" not in text and "selfcheck" not in text


# ---------------------------------------------------------------------------------------------------------------
# The class copy, on a notebook in nbgrader's format.

def _nbgrader(cell, **meta):
    cell.metadata["nbgrader"] = {"schema_version": 3, **meta}
    return cell


def _stream(text):
    return new_output("stream", name="stdout", text=text)


def _sample():
    return new_notebook(cells=[
        new_markdown_cell("# 3. A notebook\n\nIntro."),
        new_code_cell("# NBVAL_CHECK_OUTPUT\nx = 2\nprint(x)", outputs=[_stream("2\n")]),
        new_markdown_cell("## Exercises\n\n**Exercise 1.** Store the posterior in `p_red`."),
        _nbgrader(new_code_cell("# Exercise 1: store P(red) in p_red.\n### BEGIN SOLUTION\n"
                                "lik = helper_secret(0.31)\np_red = 0.3169\n### END SOLUTION\np_red",
                                outputs=[_stream("0.3169\n")]),
                  grade=False, solution=True, locked=False, grade_id="03-p_red"),
        new_code_cell("from heimlich_lab.course import formative\nformative.probability('p_red')",
                      outputs=[_stream("p_red: a probability (0.3169).\n")]),
        _nbgrader(new_code_cell("# Graded by your instructor\n### BEGIN HIDDEN TESTS\n"
                                "assert abs(p_red - 0.3169) < 5e-4\n### END HIDDEN TESTS"),
                  grade=True, solution=False, locked=True, points=2, grade_id="03-p_red-test"),
        new_code_cell("print(round(p_red * 100))", outputs=[_stream("32\n")]),
        new_markdown_cell("**Question 2.** Why?"),
        _nbgrader(new_markdown_cell("Because the likelihood ratio is large."),
                  grade=True, solution=True, locked=False, points=2, grade_id="03-why"),
        new_markdown_cell("For instructors: the trap is the prior.", metadata={"tags": ["solution-text"]}),
        new_code_cell("# Question 3: store a letter in q3.\nq3 = 'c'", metadata={"tags": ["solution"]}),
    ])


def test_the_class_copy_keeps_prompts_and_drops_answers():
    nb = tool.class_copy(_sample())
    sources = [c.source for c in nb.cells]
    joined = "\n".join(sources)
    for secret in ["0.3169", "helper_secret", "HIDDEN", "likelihood ratio is large", "the trap is the prior",
                   "q3 = 'c'", "formative", "NBVAL"]:
        assert secret not in joined, secret
    assert "# Exercise 1: store P(red) in p_red.\n# YOUR CODE HERE\np_red" in sources
    assert "# Question 3: store a letter in q3.\n# YOUR CODE HERE" in sources
    assert "**Question 2.** Why?" in sources and "x = 2\nprint(x)" in sources
    outputs = {c.source: c.outputs for c in nb.cells if c.cell_type == "code"}
    assert outputs["x = 2\nprint(x)"] != []                       # an ordinary cell keeps its output
    assert outputs["print(round(p_red * 100))"] == []             # computed from an answer: cleared
    assert all(outputs[s] == [] for s in sources if "YOUR CODE HERE" in s)


def test_slide_breaks_follow_the_headings():
    nb = tool.class_copy(_sample())
    tool.mark_slides(nb.cells)
    kinds = [(c.source.splitlines()[0], c.metadata["slideshow"]["slide_type"]) for c in nb.cells]
    assert kinds[0] == ("# 3. A notebook", "slide")
    assert ("## Exercises", "slide") in kinds
    assert ("x = 2", "-") in kinds                                  # a short cell stays with its markdown
    assert all(k in ("slide", "subslide", "-") for _, k in kinds)
    assert [s for s, k in kinds if k == "slide"] == ["# 3. A notebook", "## Exercises"]


# ---------------------------------------------------------------------------------------------------------------
# The schedule that drives the decks.

def test_every_notebook_is_scheduled_once():
    weeks = tool.load_schedule()
    assert [w.week for w in weeks] == [1, 2, 3, 4, 5, 6]
    numbers = [e.number for w in weeks for e in w.entries]
    assert len(numbers) == len(set(numbers)), "a notebook is scheduled twice"
    course = sorted(int(p.name[:2]) for p in tool.NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
    assert set(course) <= set(numbers), f"notebooks not in instructor/schedule.yaml: {set(course) - set(numbers)}"
    for w in weeks:
        for e in w.entries:
            assert e.coming or e.path() is not None, f"week {w.week}: notebook {e.number} is missing"
    third = [e for w in weeks for e in w.entries if e.number == 13]
    assert third and third[0].coming or third[0].path() is not None, "the third game keeps its slot (notebook 13)"


def test_a_missing_notebook_is_an_error_unless_coming(tmp_path, monkeypatch):
    schedule = tmp_path / "schedule.yaml"
    schedule.write_text("weeks:\n  - week: 1\n    title: x\n    notebooks:\n      - {number: 77, title: Nope}\n")
    (week,) = tool.load_schedule(schedule)
    with pytest.raises(tool.SlidesError, match="notebook 77 is scheduled"):
        tool.week_notebook(week, execute_missing=False)
    schedule.write_text("weeks:\n  - week: 1\n    title: x\n    notebooks:\n"
                        "      - {number: 77, title: Later, coming: true}\n")
    (week,) = tool.load_schedule(schedule)
    nb = tool.week_notebook(week, execute_missing=False)
    assert "coming" in nb.cells[-1].source and nb.cells[-1].source.startswith("# 77. Later")


def test_reveal_must_be_installed(tmp_path):
    with pytest.raises(tool.SlidesError, match="make slides-vendor"):
        tool.install_vendor(tmp_path / "out", node_modules=tmp_path / "nothing")


def test_the_tool_examples():
    import doctest
    result = doctest.testmod(tool)
    assert result.attempted >= 5 and result.failed == 0
