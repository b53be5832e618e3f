"""The README's Python examples run as written (a newcomer copies them first)."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_python_examples():
    assert len(python_blocks()) >= 3


def test_the_readme_python_examples_run_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)           # they write game.json and results.parquet
    namespace: dict = {}
    for i, block in enumerate(python_blocks()):
        try:
            exec(compile(block, f"README.md python block {i + 1}", "exec"), namespace)
        except Exception as exc:          # say which block, then fail
            raise AssertionError(f"README python block {i + 1} fails: {exc!r}\n{block}") from exc
    assert (tmp_path / "game.json").exists() and (tmp_path / "results.parquet").exists()
    belief, df = namespace["belief"], namespace["df"]
    assert abs(sum(belief.marginals()["Ann"].values()) - 1) < 1e-9
    assert set(namespace["secret_dossier"](belief).values()) <= {"Ann", "Cy", "free"}
    assert len(df) == (3 + 5) * 2 * 2 * 20      # a row per player: 3 and 5 players x 2 variants x 2 line-ups x 20
