"""Serve a notebook with Voila, offline: a tiny Voila template that extends Voila's ``lab`` template and
drops its outside links (Font Awesome from a CDN, which the board does not use, and nbconvert's
loader of mermaid.js from a CDN, used only by Mermaid diagrams, which these notebooks have none of).

    python -m heimlich_lab.widget.voila_app notebooks/play.ipynb [more voila options]

writes the template into a cache directory, puts it on ``JUPYTER_PATH`` and runs
``voila --template=heimlich-offline``. :func:`voila_command` gives the command and environment
(for tests and scripts).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

TEMPLATE = "heimlich-offline"

# the links Voila 0.5's lab template puts in <head>; the test of the app checks no request leaves 127.0.0.1
CDN_LINKS = (
    '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css"'
    ' type="text/css" />',
    '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/v4-shims.min.css"'
    ' type="text/css" />',
)


def _index_template() -> str:
    drop = "".join(f" | replace({json.dumps(link)}, '')" for link in CDN_LINKS)
    return ("{%- extends 'lab/index.html.j2' -%}\n"
            "{#- Voila's lab template without its CDN links (heimlich_lab.widget.voila_app) -#}\n"
            "{%- block notebook_css -%}\n"
            "{%- set css = super() | string -%}\n"
            "{{ css" + drop + " }}\n"
            "{%- endblock notebook_css -%}\n"
            "{#- nbconvert's loader of mermaid.js from a CDN (no diagram here) -#}\n"
            "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n")


def write_template(root: str | Path | None = None) -> Path:
    """Write the template under ``root/voila/templates/heimlich-offline``; returns ``root`` (for ``JUPYTER_PATH``)."""
    root = Path(root) if root is not None else Path(tempfile.gettempdir()) / f"heimlich-voila-{os.getuid()}"
    d = root / "voila" / "templates" / TEMPLATE
    d.mkdir(parents=True, exist_ok=True)
    (d / "conf.json").write_text(json.dumps({"base_template": "lab"}) + "\n")
    (d / "index.html.j2").write_text(_index_template())
    return root


def voila_command(notebook: str | Path, args: Sequence[str] = (), root: str | Path | None = None,
                  env: dict | None = None) -> tuple[list[str], dict]:
    """``(command, environment)`` to serve ``notebook`` with Voila and the offline template."""
    root = write_template(root)
    env = dict(os.environ if env is None else env)
    env["JUPYTER_PATH"] = os.pathsep.join([str(root), *filter(None, [env.get("JUPYTER_PATH", "")])])
    return [sys.executable, "-m", "voila", f"--template={TEMPLATE}", *args, str(notebook)], env


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    notebooks = [a for a in argv if not a.startswith("-")]
    if len(notebooks) != 1:
        print("usage: python -m heimlich_lab.widget.voila_app NOTEBOOK.ipynb [voila options]", file=sys.stderr)
        return 2
    cmd, env = voila_command(notebooks[0], [a for a in argv if a.startswith("-")])
    return subprocess.call(cmd, env=env)


if __name__ == "__main__":
    sys.exit(main())
