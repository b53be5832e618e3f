"""A weekly deck opens offline in headless Chromium: reveal.js initialises and MathJax typesets the maths.

The deck (week 2: notebooks 3 and 4, much LaTeX) is built into a temporary folder and served from 127.0.0.1 by a
plain static file server; the ``page`` fixture fails the test if the page asks for anything elsewhere. Every
request must succeed (no missing file), and the console must stay free of errors.
"""
from __future__ import annotations

import functools
import http.server
import importlib.util
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


def _tool():
    spec = importlib.util.spec_from_file_location("make_slides", ROOT / "scripts" / "make_slides.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_slides", mod)
    spec.loader.exec_module(mod)
    return mod


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served_deck(tmp_path_factory):
    tool = _tool()
    out = tmp_path_factory.mktemp("slides")
    (deck,) = tool.build([w for w in tool.load_schedule() if w.week == 2], out, execute_missing=False,
                         log=lambda *a: None)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{deck.name}"
    server.shutdown()
    server.server_close()


def test_the_deck_initialises_offline(page, served_deck, artifacts):
    failed, errors = [], []
    page.on("requestfailed", lambda req: failed.append(req.url))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    # (the browser's own favicon.ico request is the test server's 404, not the deck's)
    page.on("console", lambda m: errors.append(f"{m.text} {m.location}")
            if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served_deck)
    # require.js hands reveal.js to the template's callback (no global Reveal); reveal marks its element ready
    page.wait_for_selector(".reveal.ready", state="attached", timeout=30_000)
    assert page.evaluate("() => document.querySelectorAll('.reveal .slides section').length") >= 15
    # MathJax 2 typesets every formula of the deck (hidden slides too): wait for its queue, then count
    page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0 "
                           "&& document.querySelectorAll('.MathJax_CHTML').length > 0", timeout=60_000)
    assert page.evaluate("() => document.querySelectorAll('.MathJax_CHTML').length") >= 10
    # the right arrow goes to the next section (the deck keeps its place in the URL: history: true)
    present = "() => [...document.querySelectorAll('.reveal .slides > section')].findIndex(s => s.classList.contains('present'))"
    assert page.evaluate(present) == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({present})() === 1", timeout=10_000)
    assert page.evaluate("() => location.hash") == "#/1"
    page.screenshot(path=str(artifacts / "slides-week-2.png"))
    assert failed == [], f"requests failed: {failed[:5]}"
    assert errors == [], f"console errors: {errors[:5]}"
