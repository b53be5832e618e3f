"""The kit as a Voila app (issue 24, item 10): notebooks/app.ipynb served by heimlich_lab.commands.voila_app.

The page has a title and a header, asks which game (every game of the registry) and which mode (hot seat,
against bots, watch, replay a file) and only then shows ONE table; it loads offline (the page fixture fails a
test on any request that leaves 127.0.0.1) and the wrapper shuts Voila and its kernels down on SIGTERM.
Screenshots: test-artifacts/.
"""
from __future__ import annotations

import re

import pytest
from board_page import one_screen_boxes
from notebook_page import SCREEN, axe_violations, inside

from heimlich_lab.commands.app import (
    MODES,
    TITLE,
    playable_games as games,  # the registry's games that have a table
)

pytestmark = pytest.mark.browser

BOARD = ".heimlich-board"
TABLES = ".heimlich-board, .secrets-table, .topsecret-table"   # every game's table
#: webpack's words for a lab extension built on another JupyterLab than the page's (module federation)
VERSION_MISMATCH = re.compile(r"Unsatisfied version|No satisfying version")


def open_app(page, voila):
    page.goto(voila, timeout=120_000)
    page.locator(".hl-app-chooser").wait_for(timeout=120_000)


def choose(page, game_title: str, mode: str) -> None:
    """Click the game and the mode, then wait until the kernel has shown that choice's options: before that the
    chooser may still change shape under the next click (another game's switches, the bots' drop-down)."""
    page.locator(".hl-app-chooser .widget-toggle-button", has_text=game_title).first.click()
    page.locator(".hl-app-chooser .widget-toggle-button", has_text=MODES[mode]).first.click()
    name = next(s.name for s in games() if s.title == game_title)
    page.locator(f".hl-app-help[data-choice='{name}/{mode}']").wait_for(timeout=30_000)


def start(page):
    page.locator(".hl-app-start").click()
    page.wait_for_selector(f"{TABLES}, [data-testid='app-error']", timeout=60_000)
    error = page.locator("[data-testid='app-error']")
    assert error.count() == 0, f"the app refused to start: {error.first.text_content()}"
    page.wait_for_function("() => !document.querySelector('.hl-app-chooser')"
                           " || document.querySelector('.hl-app-chooser').offsetParent === null", timeout=30_000)


def choose_again(page):
    page.locator(".hl-app-again").click()
    page.locator(".hl-app-chooser").wait_for(timeout=30_000)
    page.wait_for_function(f"() => document.querySelectorAll('{TABLES}').length === 0", timeout=30_000)


def upload(page, path):
    """Choose a file with the app's upload button (ipywidgets opens the browser's file chooser)."""
    with page.expect_file_chooser() as chooser:
        page.locator(".hl-app-chooser .widget-upload").click()
    chooser.value.set_files(str(path))


def test_the_app_asks_game_and_mode_then_shows_one_table(page, voila, artifacts, tmp_path):
    """Title and header; the games are the registry's; nothing is played before Start; each choice shows one
    table; a saved game is replayed from an uploaded file."""
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if VERSION_MISMATCH.search(m.text) else None)
    open_app(page, voila)
    assert page.title() == TITLE
    assert page.locator("[data-testid='app-header'] h1").text_content() == TITLE
    buttons = page.locator(".hl-app-chooser .widget-toggle-buttons").nth(0).locator(".widget-toggle-button")
    assert buttons.all_text_contents() == [s.title for s in games()]
    modes = page.locator(".hl-app-chooser .widget-toggle-buttons").nth(1).locator(".widget-toggle-button")
    assert modes.all_text_contents() == list(MODES.values())
    assert page.locator(TABLES).count() == 0                 # nothing is played before the choice
    assert "Learning goals" not in page.locator("body").inner_text()      # the notebook's lab-only cell
    linked = page.evaluate("() => [...document.querySelectorAll('link[href], script[src]')].map((e) => e.href || e.src)"
                           ".filter((u) => /^https?:/.test(u) && !u.startsWith(location.origin))")
    assert linked == [] and "cdn.jsdelivr" not in page.content() and "cdnjs" not in page.content()
    page.screenshot(path=str(artifacts / "app-01-chooser.png"))

    # Heimlich & Co. against bots: one board, the human's roll works
    choose(page, "Heimlich & Co.", "bots")
    start(page)
    assert page.locator(TABLES).count() == 1
    board = page.locator(BOARD)
    board.locator("[data-action='roll']").wait_for(timeout=30_000)
    assert board.locator("[data-testid='decision']").text_content() == "You: roll the die"
    assert "you against" in page.locator("[data-testid='app-summary']").text_content()
    board.locator("[data-action='roll']").click()
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-action=\"roll\"]')", timeout=15_000)
    assert board.locator("[data-die]").get_attribute("data-die") in ("1-3", "2", "3", "4", "5", "6")
    page.screenshot(path=str(artifacts / "app-02-heimlich-bots.png"))

    # every other game, as a hot seat: one table, behind the curtain
    for spec in games()[1:]:
        choose_again(page)
        choose(page, spec.title, "hotseat")
        start(page)
        assert page.locator(TABLES).count() == 1
        page.locator("[data-testid='curtain']").wait_for(timeout=30_000)
        page.screenshot(path=str(artifacts / f"app-03-{spec.name}-hotseat.png"))

    # watch: bots only, Play is enabled
    choose_again(page)
    choose(page, "Heimlich & Co.", "watch")
    start(page)
    assert page.locator(TABLES).count() == 1
    assert page.locator(f"{BOARD} [data-control='play']").is_enabled()

    # replay a file: a record saved here, uploaded through the page
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.heimlich.bots.model_bots import GreedyBot
    from heimlich_lab.games.heimlich.rules.game import Game
    game = play_game(Game, {"Ann": GreedyBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": GreedyBot(seed=3)}, seed=5)
    saved = game.record.save(tmp_path / "game.json")
    choose_again(page)
    choose(page, "Heimlich & Co.", "replay")
    upload(page, saved)
    page.locator(".hl-app-chooser select").wait_for(timeout=30_000)     # "Seen by": the file was read
    start(page)
    assert page.locator(TABLES).count() == 1
    assert page.locator(f"{BOARD} [data-testid='view-label']").text_content().startswith("Replay, a spectator")
    assert page.locator(f"{BOARD} [data-bind='replay']").text_content().startswith("0 /")
    page.screenshot(path=str(artifacts / "app-04-replay.png"))
    assert warnings == [], "version warnings in Voila's console:\n" + "\n".join(warnings)


def test_a_record_of_another_game_is_refused_with_a_clear_message(page, voila, tmp_path):
    """A replay of the wrong game's record: the app says which game the file is of, and shows no table."""
    other = games()[1]
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.heimlich.bots.model_bots import GreedyBot
    from heimlich_lab.games.heimlich.rules.game import Game
    game = play_game(Game, {"Ann": GreedyBot(seed=1), "Bob": GreedyBot(seed=2)}, seed=3)
    saved = game.record.save(tmp_path / "heimlich-game.json")
    open_app(page, voila)
    choose(page, other.title, "replay")
    upload(page, saved)
    error = page.locator("[data-testid='app-error']")
    error.wait_for(timeout=30_000)
    assert f"not of {other.title}" in error.text_content()
    page.locator(".hl-app-start").click()
    page.wait_for_function("() => /replay first/"
                           ".test(document.querySelector('[data-testid=\"app-error\"]').textContent)", timeout=30_000)
    assert page.locator(TABLES).count() == 0


def test_the_app_fits_its_board_on_one_screen_and_passes_axe(page, voila, artifacts):
    """At 1366x768, after the choice, the board, the decision, the heatmap and the belief headline are on one
    screen; axe-core finds no serious or critical violation on the chooser nor on the app's board."""
    page.set_viewport_size(SCREEN)
    open_app(page, voila)
    found = axe_violations(page, ".hl-app")
    assert found == [], found
    choose(page, "Heimlich & Co.", "bots")
    start(page)
    first = page.locator(BOARD)
    first.locator("[data-action='roll']").wait_for(timeout=60_000)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    boxes = one_screen_boxes(first)
    page.screenshot(path=str(artifacts / "app-05-one-screen-1366x768.png"))
    for name, box in boxes.items():
        assert inside(box), f"the {name} is not inside the 1366x768 screen in the app: {box}"
    found = axe_violations(page, BOARD)
    assert found == [], found


def test_the_voila_wrapper_leaves_no_process_after_sigterm(tmp_path, server_env):
    """``python -m heimlich_lab.commands.voila_app``, stopped with a plain kill (SIGTERM): Voila and its kernel
    end."""
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    import psutil
    pytest.importorskip("voila")
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "app.ipynb").write_bytes((root / "notebooks" / "app.ipynb").read_bytes())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(server_env, JUPYTER_PATH=str(tmp_path / "share"))
    cmd = [sys.executable, "-m", "heimlich_lab.commands.voila_app", "app.ipynb", "--no-browser",
           "--Voila.ip=127.0.0.1", f"--port={port}"]
    with open(tmp_path / "voila.log", "w") as log:
        wrapper = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=90).read()   # starts a kernel
                break
            except OSError:
                assert wrapper.poll() is None and time.monotonic() < deadline, (tmp_path / "voila.log").read_text()
                time.sleep(0.5)
        assert f"<title>{TITLE}</title>".encode() in page
        family = psutil.Process(wrapper.pid).children(recursive=True)
        names = [" ".join(p.cmdline()) for p in family]
        assert any("-m voila" in n for n in names) and any("kernel" in n for n in names), names
        wrapper.send_signal(signal.SIGTERM)
        assert wrapper.wait(timeout=30) == 0
        gone, alive = psutil.wait_procs(family, timeout=20)
        assert alive == [], [p.pid for p in alive]
        assert not any(psutil.pid_exists(p.pid) and psutil.Process(p.pid).status() != psutil.STATUS_ZOMBIE
                       for p in family)
    finally:
        if wrapper.poll() is None:
            wrapper.kill()
