"""Serve a notebook with Voila, offline: a tiny Voila template that extends Voila's ``lab`` template, leaves
out the cells tagged ``lab-only`` (so that the app opens on its board) and drops its outside links (Font
Awesome from a CDN, which the board does not use, and nbconvert's loader of mermaid.js from a CDN, used only
by Mermaid diagrams, which these notebooks have none of).

    python -m heimlich_lab.commands.voila_app notebooks/app.ipynb [more voila options]

writes the template into a cache directory, puts it on ``JUPYTER_PATH`` and runs
``voila --template=heimlich-offline`` in a process group of its own; stopping the wrapper (SIGTERM, SIGINT,
Ctrl-C) ends Voila and its kernels. :func:`voila_command` gives the command and environment
(for tests and scripts).
"""
from __future__ import annotations

import json
import os
import signal
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


#: The app hides the course's instructor cells (tagged ``solution-text``: answers to the notebook's questions,
#: which the student release leaves out too; scripts/make_release.py).
HIDDEN_CELLS = ("--TagRemovePreprocessor.enabled=True", "--TagRemovePreprocessor.remove_cell_tags=solution-text")

#: Lab extensions the app page does not load: nbgrader's (the ``instructor`` extra) and Notebook 7's (which
#: nbgrader brings in) are built on a newer JupyterLab than Voila 0.5.8's page (4.2.5), so loading them fills the
#: console with "Unsatisfied version" warnings, and an app needs neither.
NOT_IN_THE_APP = ("@jupyter/nbgrader", "@jupyter-notebook/lab-extension")
LAB_EXTENSIONS = tuple(f"--VoilaConfiguration.extension_denylist={name}" for name in NOT_IN_THE_APP)


def _index_template() -> str:
    drop = "".join(f" | replace({json.dumps(link)}, '')" for link in CDN_LINKS)
    return ("{%- extends 'lab/index.html.j2' -%}\n"
            "{#- Voila's lab template without its CDN links (heimlich_lab.commands.voila_app) -#}\n"
            "{%- block notebook_css -%}\n"
            "{%- set css = super() | string -%}\n"
            "{{ css" + drop + " }}\n"
            "{%- endblock notebook_css -%}\n"
            "{#- nbconvert's loader of mermaid.js from a CDN (no diagram here) -#}\n"
            "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n"
            "{#- cells tagged lab-only (how to open the app, say) are not part of the app: the board comes first -#}\n"
            "{%- block any_cell scoped -%}\n"
            "{%- if 'lab-only' not in cell.metadata.get('tags', []) -%}{{ super() }}{%- endif -%}\n"
            "{%- endblock any_cell -%}\n")


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
    return [sys.executable, "-m", "voila", f"--template={TEMPLATE}", *HIDDEN_CELLS, *LAB_EXTENSIONS, *args,
            str(notebook)], env


def stop(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """End Voila and everything it started: SIGTERM to its process group (Voila shuts its kernels down), then,
    after ``grace`` seconds, SIGKILL to whatever of it is left (its kernels run in sessions of their own, so
    they are found as its descendants, not by group)."""
    import psutil  # comes with ipykernel, which Voila needs
    try:
        family = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        family = []
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    _, alive = psutil.wait_procs(family, timeout=grace)
    for p in alive:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=5)
    proc.poll()


def main(argv: Sequence[str] | None = None) -> int:
    """Run Voila until it ends, or until this process gets SIGTERM or SIGINT: then end Voila and its kernels
    (:func:`stop`) and return 0. Voila runs in a process group of its own, so a plain ``kill`` of this
    wrapper leaves nothing behind."""
    argv = list(sys.argv[1:] if argv is None else argv)
    notebooks = [a for a in argv if not a.startswith("-")]
    if len(notebooks) != 1:
        print("usage: python -m heimlich_lab.commands.voila_app NOTEBOOK.ipynb [voila options]",
              file=sys.stderr)
        return 2
    cmd, env = voila_command(notebooks[0], [a for a in argv if a.startswith("-")])
    proc = subprocess.Popen(cmd, env=env, start_new_session=True)
    stopping = []

    def on_signal(signum, frame):
        stopping.append(signum)
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return proc.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        stop(proc)


if __name__ == "__main__":
    sys.exit(main())
