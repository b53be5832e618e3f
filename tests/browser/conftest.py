"""Real-browser fixtures: one JupyterLab server (127.0.0.1, no token) and one headless Chromium per session.

Chromium is Debian's (``/usr/bin/chromium``, installed by ``make browser``); Playwright only drives it (nothing
is downloaded). The test notebooks are written into a temporary root directory by :func:`write_notebook`.
Screenshots go to ``test-artifacts/`` (gitignored).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 1700}   # tall enough for a whole board in the notebook


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, cells: list[str]) -> Path:
    """A notebook of code cells (python3 kernel)."""
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                   "source": src} for i, src in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1))
    return path


@pytest.fixture(scope="session")
def server_env(tmp_path_factory):
    """Environment for a Jupyter server: private config/runtime dirs, the venv first on PATH."""
    home = tmp_path_factory.mktemp("server-home")
    env = dict(os.environ)
    env.update({"JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
                "IPYTHONDIR": str(home / "ipython"), "JUPYTER_PLATFORM_DIRS": "1",
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"})
    env.pop("JUPYTER_TOKEN", None)
    return env


def wait_for_http(url: str, proc, log_path: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the server at {url} did not start:\n" + log_path.read_text()[-3000:])
        time.sleep(0.25)


@pytest.fixture(scope="session")
def make_notebook():
    """:func:`write_notebook`, for the test modules."""
    return write_notebook


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("lab-root")


def start_server(cmd: list[str], env: dict, cwd: Path, ready_url: str, log_path: Path) -> subprocess.Popen:
    """Start a server process (logging to ``log_path``) and wait until ``ready_url`` answers 200."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd = [*cmd, "--allow-root"]     # containers and CI runners often run as root
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=str(cwd))
    wait_for_http(ready_url, proc, log_path)
    return proc


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def lab(lab_root, server_env, tmp_path_factory):
    """A JupyterLab server on a free loopback port, no token; yields its base URL."""
    home = tmp_path_factory.mktemp("lab-home")
    config = Path(server_env["JUPYTER_CONFIG_DIR"])
    (config / "labconfig").mkdir(parents=True, exist_ok=True)
    # no news, no update checks: the server and the page make no request outside 127.0.0.1
    (config / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    settings = home / "settings"
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True)
    # render every cell (no virtual scrolling): widgets below the fold exist in the DOM
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"}))
    port = free_port()
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
           "--ServerApp.password=", "--ServerApp.open_browser=False", f"--ServerApp.root_dir={lab_root}",
           "--ServerApp.disable_check_xsrf=True", "--LabApp.expose_app_in_browser=True",
           "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.extension_manager=readonly",
           f"--LabApp.workspaces_dir={home / 'workspaces'}", f"--LabApp.user_settings_dir={settings}"]
    url = f"http://127.0.0.1:{port}"
    proc = start_server(cmd, server_env, lab_root, f"{url}/api/status", home / "lab.log")
    yield url
    stop_server(proc)


@pytest.fixture(scope="module")
def voila(server_env, tmp_path_factory):
    """notebooks/app.ipynb (the app: a chooser, then one table) served by Voila on a free loopback port; yields
    the app's URL. One server for a test module: Voila runs the notebook in a new kernel for each page request,
    so each test's page starts from a fresh app all the same."""
    pytest.importorskip("voila", reason="Voila is the optional 'app' extra (pip install -e '.[app]')")
    tmp_path = tmp_path_factory.mktemp("voila")
    root = tmp_path / "voila-root"
    root.mkdir()
    (root / "app.ipynb").write_bytes((ROOT / "notebooks" / "app.ipynb").read_bytes())
    port = free_port()
    from heimlich_lab.commands.voila_app import voila_command
    # the offline template (Voila's lab template without its CDN links): what `make app` runs
    cmd, env = voila_command("app.ipynb", ["--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}"],
                             root=tmp_path / "voila-share", env=server_env)
    url = f"http://127.0.0.1:{port}/"
    proc = _start_voila(cmd, env, root, port, tmp_path / "voila.log")
    yield url
    stop_server(proc)


def _start_voila(cmd, env, root, port, log_path):
    """Voila runs the notebook for each page request: only wait until the port listens."""
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=str(root))
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("Voila did not start:\n" + log_path.read_text()[-3000:])
        time.sleep(0.25)


# Module scope, not session: Playwright's sync API keeps an asyncio loop running in the main thread while it
# is open, which would break later (non-browser) tests that run their own loop (asyncio.run).
@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    """Headless Debian Chromium with a fresh profile (Playwright's sync API)."""
    from playwright.sync_api import sync_playwright
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, headless=True,
                                                    args=CHROMIUM_ARGS, viewport=VIEWPORT)
        yield ctx
        ctx.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _outside(url: str) -> bool:
    """A request that would leave this machine (anything but 127.0.0.1 / localhost, data: and blob:)."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob", "about", "chrome", "chrome-extension") and \
        parts.hostname not in ("127.0.0.1", "localhost")


@pytest.fixture
def page(browser_context, request):
    """A fresh page; afterwards the test's kernels are shut down (the server stays up).

    Every request the page makes is recorded: none may leave 127.0.0.1 (no CDN, nothing external).
    """
    p = browser_context.new_page()
    outside: list[str] = []
    p.on("request", lambda req: outside.append(req.url) if _outside(req.url) else None)
    yield p
    p.close()
    if "lab" in request.fixturenames:
        _shutdown_sessions(request.getfixturevalue("lab"))
    assert outside == [], f"the page requested something outside 127.0.0.1: {outside[:5]}"


def _shutdown_sessions(lab: str) -> None:
    """Shut down the kernels the test's notebooks started (the JupyterLab server stays up)."""
    with urllib.request.urlopen(f"{lab}/api/sessions", timeout=10) as r:
        sessions = json.load(r)
    for s in sessions:
        req = urllib.request.Request(f"{lab}/api/sessions/{s['id']}", method="DELETE")
        try:
            urllib.request.urlopen(req, timeout=20).close()
        except OSError:
            pass
