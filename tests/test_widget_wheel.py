"""An installed wheel shows the board: the front end (bundle + CSS) is inside the package, and the
installed package loads it (not the checkout's ``widgets/``). Nothing is loaded from the network."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _external_urls(text: str) -> list[str]:
    """URLs other than the SVG namespace (an identifier, never fetched)."""
    text = text.replace("http://www.w3.org/2000/svg", "")
    return [m.group(0) for m in re.finditer(r"https?://[^\s\"'`)]+", text)]


def test_the_front_end_and_the_notebook_reference_no_external_url():
    for f in ["board.bundle.js", "board.css", "board.js", "logic.js", "render.js", "shell.js",
              "secrets/table.bundle.js", "secrets/table.js", "secrets/render.js", "secrets/table.css",
              "topsecret1985/table.bundle.js", "topsecret1985/table.js", "topsecret1985/render.js",
              "topsecret1985/table.css"]:
        assert _external_urls((ROOT / "widgets" / f).read_text()) == [], f
    for name in ("play.ipynb", "app.ipynb"):
        nb = json.loads((ROOT / "notebooks" / name).read_text())
        for cell in nb["cells"]:
            src = "".join(cell["source"])
            assert _external_urls(src) == [], src[:200]
            assert "cdn" not in src.lower()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--wheel-dir", str(out), str(ROOT)], check=True, capture_output=True, timeout=300)
    (whl,) = out.glob("heimlich_lab-*.whl")
    return whl


def test_the_wheel_holds_the_bundle_and_the_css(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert "heimlich_lab/games/heimlich/widget/static/board.bundle.js" in names
        assert "heimlich_lab/games/heimlich/widget/static/board.css" in names
        assert "heimlich_lab/py.typed" in names, "the wheel says the package is typed (PEP 561)"
        bundle = z.read("heimlich_lab/games/heimlich/widget/static/board.bundle.js").decode()
        tables = {f: z.read(f"heimlich_lab/games/{f}").decode() for f in (
            "topsecret1985/static/table.bundle.js", "topsecret1985/static/table.css")}
    assert bundle == (ROOT / "widgets" / "board.bundle.js").read_text(), "the wheel ships the committed bundle"
    for f, text in tables.items():       # Top Secret's table too (Secrets': tests/test_secrets_widget.py)
        assert text == (ROOT / "widgets" / f.replace("/static", "")).read_text(), f


def test_an_installed_wheel_loads_its_own_bundle(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", "--target",
                    str(target), str(wheel)], check=True, capture_output=True, timeout=300)
    assert not (target / "widgets").exists()
    script = (
        "import json, heimlich_lab, heimlich_lab.widget as w\n"
        "from heimlich_lab.widget.board import static_dir\n"
        "b = w.BoardWidget()\n"
        "print(json.dumps({'package': heimlich_lab.__file__, 'static': str(static_dir()), 'esm': b._esm,\n"
        "                  'css': b._css}))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(target)
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout.strip().splitlines()[-1])
    packaged = target / "heimlich_lab" / "games" / "heimlich" / "widget" / "static"
    assert Path(got["package"]).resolve().is_relative_to(target.resolve()), got["package"]
    assert Path(got["static"]).resolve() == packaged.resolve(), "the installed package must use its own static/"
    assert got["esm"] == (packaged / "board.bundle.js").read_text()
    assert got["css"] == (packaged / "board.css").read_text()
    assert re.search(r"export \{\s*\w+ as default\s*\};\s*$", got["esm"]) and "heimlich-board" in got["css"]
