"""The type checker and the linter pass on the package: ``make lint`` runs them (mypy with the configuration in
pyproject.toml, strict on the engine and the game-agnostic inference modules, and ruff: pyflakes, pycodestyle, import
order, bugbear), and ``make test`` (so CI) runs ``make lint`` before pytest and stops if it fails, which
``test_make_test_runs_the_linters`` checks; pytest does not run them a second time. The package is marked typed
(PEP 561).
"""
from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: How many modules were not yet type-clean when the checker was added; the list may only shrink.
NOT_YET_CLEAN_AT_MOST = 38


def test_the_contract_and_the_inference_core_are_checked_strictly():
    overrides = PYPROJECT["tool"]["mypy"]["overrides"]
    strict = next(o for o in overrides if o.get("disallow_untyped_defs"))
    assert {"heimlich_lab.engine.*", "heimlich_lab.inference.reader", "heimlich_lab.inference.transition"} <= set(
        strict["module"])
    for flag in ("disallow_untyped_defs", "disallow_any_generics", "warn_return_any", "disallow_untyped_calls"):
        assert strict[flag] is True, flag
    relaxed = {m for o in overrides if o.get("ignore_errors") for m in o["module"]}
    assert not any(m.startswith("heimlich_lab.engine") for m in relaxed) and not relaxed & set(strict["module"])
    assert len(relaxed) <= NOT_YET_CLEAN_AT_MOST, "a module left the list? lower NOT_YET_CLEAN_AT_MOST"


def test_the_package_is_marked_typed():
    assert (ROOT / "heimlich_lab" / "py.typed").is_file()


def test_make_test_runs_the_linters():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    test_rule = next(line for line in makefile.splitlines() if line.startswith("test:"))
    assert "lint" in test_rule.split(":", 1)[1].split()
    assert "ruff check heimlich_lab" in makefile and "-m mypy" in makefile
    test_extra = " ".join(PYPROJECT["project"]["optional-dependencies"]["test"])
    assert "mypy" in test_extra and "ruff" in test_extra
