"""The docs are self-contained: nothing cites a file outside the repository, and every citation of a
section of docs/rules.md (``docs/rules.md#anchor``) names a section that exists."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".js", ".mjs", ".css", ".html", ".txt", ".toml", ".cfg", ".ini", ".yml",
                 ".yaml", ".json", ".rst", ".sh"}
SKIP_DIRS = {"node_modules", "__pycache__", "build", "dist", "test-artifacts", "static"}

#: What may not be cited: the project's working notes and rulebook folder live outside the repository,
#: where users cannot read them (spelt in two pieces so that this file does not cite them itself).
OUTSIDE = re.compile("RULES" + r"\.md|\.\./" + "shared")
#: ``docs/rules.md#anchor`` (also ``rules.md#anchor`` from a file in docs/, and ``(#anchor)`` links in the page itself).
CITATION = re.compile(r"rules\.md#([A-Za-z0-9_-]+)")


def project_files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT).parts
        if any(p.startswith(".") or p in SKIP_DIRS or p.endswith(".egg-info") for p in rel[:-1]):
            continue
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or path.name == "Makefile"):
            out.append(path)
    return out


def slug(heading: str) -> str:
    """The anchor GitHub (and most Markdown renderers) give a heading.

    >>> slug("Top Secret variant"), slug("Where the rulebooks are silent"), slug("Set-up")
    ('top-secret-variant', 'where-the-rulebooks-are-silent', 'set-up')
    >>> slug("Rule keys and errors (`Game.apply`)")
    'rule-keys-and-errors-gameapply'
    """
    text = unicodedata.normalize("NFKC", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """The anchors of a Markdown page's headings (outside code blocks)."""
    found, fenced = set(), False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            found.add(slug(line.lstrip("#")))
    return found


def test_nothing_cites_a_file_outside_the_repository():
    files = project_files()
    assert RULES_DOC in files and Path(__file__).resolve() in files
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in files
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if OUTSIDE.search(line)]
    assert hits == []


def test_every_cited_section_of_the_rules_exists():
    sections = anchors(RULES_DOC.read_text(encoding="utf-8"))
    cited = {}
    for p in project_files():
        if p == Path(__file__).resolve():
            continue   # this file talks about citations, it makes none
        text = p.read_text(encoding="utf-8", errors="replace")
        for anchor in CITATION.findall(text):
            cited.setdefault(anchor, []).append(str(p.relative_to(ROOT)))
        if p == RULES_DOC:
            for anchor in re.findall(r"\]\(#([A-Za-z0-9_-]+)\)", text):
                cited.setdefault(anchor, []).append("docs/rules.md")
    assert len(cited) >= 5, "the code cites the rules by section"
    missing = {a: where for a, where in cited.items() if a not in sections}
    assert missing == {}, f"sections cited but not in docs/rules.md: {missing}"


def test_the_rules_page_has_the_sections_the_code_relies_on():
    sections = anchors(RULES_DOC.read_text(encoding="utf-8"))
    assert {"sources", "board", "set-up", "turn", "scoring", "safe", "game-end", "top-secret-variant", "deck",
            "second-agent", "secret-dossier-variant", "information-rule", "seeds",
            "where-the-rulebooks-are-silent"} <= sections


def test_every_rules_section_quotes_a_rulebook_and_gives_its_reason():
    """Each section of the rules (a heading with rule keys under it) quotes the rulebooks and says why."""
    text = RULES_DOC.read_text(encoding="utf-8")
    parts = re.split(r"\n(?=#{2,3} )", text)
    checked = 0
    for part in parts:
        title = part.splitlines()[0].lstrip("#").strip()
        if title in ("Top Secret variant", "Start positions", "Rule keys and errors", "Sources",
                     "Where the rulebooks are silent", "The rules as implemented", "Seeds", "Chance",
                     "Bots out of process"):
            continue   # overviews, the engine's own API and procedure, and the engine's own decisions
        if not re.search(r"\*\*[a-z0-9-]+\*\*", part):
            continue
        checked += 1
        assert re.search(r'^> ".+', part, re.M), f"section {title!r} quotes no rulebook"
        assert re.search(r"\((2002|2018)", part), f"section {title!r} does not say which rulebook it quotes"
        assert "*Why:*" in part, f"section {title!r} gives no reason"
    assert checked >= 10


@pytest.mark.parametrize("text, expected", [
    ("see " + "RULES" + ".md, the information rule", True),
    ("the rulebooks in ../" + "shared/rules", True),
    ("docs/rules.md#information-rule", False),
])
def test_the_outside_pattern(text, expected):
    assert bool(OUTSIDE.search(text)) is expected
