"""Issue 24's one-screen checks, for each game, in a real JupyterLab (headless Debian Chromium, Playwright):

- 1366x768 at the default zoom, JupyterLab's file browser OPEN: the board (the Secrets circle), the current decision
  and the belief headline are on the screen without scrolling;
- projector mode at 150% zoom (1366x768 at 150% is 911x512 CSS pixels), the file browser closed: the same three,
  the score track's numbers and the score markers' letters at least 14 px, nothing covers the finish "42", and
  the choice is remembered for the notebook after a reload (the browser's localStorage, keyed by the notebook's
  path) and known to the kernel (the widget's ``projector`` traitlet).

Top Secret's table (its map is a picture of a world map, drawn to be read on a slide) has the same checks, and its
city names are at least 9 px in projector mode at 150%.

Screenshots: test-artifacts/projector-*.png.
"""
from __future__ import annotations

import pytest
from notebook_page import SCREEN, axe_violations, inside, run_all_cells, run_report

pytestmark = pytest.mark.browser

#: 1366x768 at 150% zoom, in CSS pixels.
PROJECTOR = {"width": 911, "height": 512}

REPORT = "import json\nprint('REPORT ' + json.dumps({'projector': w.projector, 'notebook': w.notebook}))"

EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]

#: Per game: the notebook, the table's root, the board's element, the decision's, what shows a decision is asked.
GAMES = {
    "heimlich": {
        "notebook": "projector-heimlich.ipynb", "root": ".heimlich-board", "board": "svg.hb-svg",
        "decision": "[data-section='controls']", "ready": "[data-action='roll']",
        "cell": "from heimlich_lab import Rules\n"
                "from heimlich_lab.bots import RandomBot\n"
                "from heimlich_lab.widget import play_in_notebook\n"
                "players = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve']\n"
                "w = play_in_notebook(players, bots={p: RandomBot(i) for i, p in enumerate(players[1:])},\n"
                "                     rules=Rules(top_secret=True, dossier=True), seed=7, speed_ms=0)\n"
                "w",
    },
    "secrets": {
        "notebook": "projector-secrets.ipynb", "root": ".secrets-table", "board": "[data-testid='table']",
        "decision": "[data-testid='decision']", "ready": "[data-action]",
        "cell": "from heimlich_lab import secrets\n"
                "players = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal']\n"
                "w = secrets.play_in_notebook(players, bots={p: secrets.RandomBot(i) for i, p in "
                "enumerate(players[1:])},\n"
                "                             seed=8, speed_ms=0)\n"
                "w",
    },
    "topsecret1985": {
        "notebook": "projector-topsecret1985.ipynb", "root": ".topsecret-table", "board": "[data-testid='table']",
        "decision": "[data-testid='decision']", "ready": "button.ts-agent",
        "cell": "from heimlich_lab import topsecret1985 as ts\n"
                "from heimlich_lab.games.topsecret1985.widget import play_in_notebook\n"
                "players = ['Ann', 'Bob', 'Cy', 'Dee']\n"
                "w = play_in_notebook(players, bots={p: ts.RandomBot(i) for i, p in enumerate(players[1:])},\n"
                "                     seed=1, speed_ms=0, autoplay=False)\n"
                "c = w.controller                  # Ann hides and places by the first decisions, up to her move\n"
                "c.send_action('contents A=5 B=3 C=1 D=bomb')\n"
                "for _ in range(60):\n"
                "    c.run_bots()\n"
                "    ds = c.widget.state['decisions']\n"
                "    if not ds or any(d['kind'] == 'step' for d in ds): break\n"
                "    c.send_action(ds[0]['notation'])\n"
                "w",
    },
}


@pytest.fixture(scope="module")
def projector_notebooks(lab_root, make_notebook):
    for g in GAMES.values():
        make_notebook(lab_root / g["notebook"], [g["cell"], REPORT])
    return lab_root


def open_game(page, lab, game):
    g = GAMES[game]
    run_all_cells(page, lab, g["notebook"])
    root = page.locator(g["root"])
    root.locator(g["ready"]).first.wait_for(timeout=60_000)
    root.locator("[data-testid='belief-headline']").wait_for(timeout=30_000)
    return root


def show_file_browser(page, shown):
    """JupyterLab's file browser open on the left (``shown``), or the left area folded away."""
    opened = page.evaluate("() => !!document.querySelector('#filebrowser') && "
                           "document.querySelector('#filebrowser').offsetParent !== null")
    if shown and not opened:
        page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    elif opened and not shown:
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")
    page.wait_for_selector("#filebrowser", state="visible" if shown else "hidden", timeout=10_000)


def boxes_at_top(page, root, game):
    """The table's top scrolled to the top of the notebook; the boxes of the board, the decision, the headline."""
    g = GAMES[game]
    root.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(400)
    return {"board": root.locator(g["board"]).bounding_box(),
            "decision": root.locator(g["decision"]).first.bounding_box(),
            "belief headline": root.locator("[data-testid='belief-headline']").bounding_box()}


# the part of the window where the notebook shows (its scroll box: below the toolbar, above the status bar)
NOTEBOOK_AREA = """(sel) => {
  let e = null;
  for (let a = document.querySelector(sel).parentElement; a; a = a.parentElement) {
    if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowY) && a.clientHeight > 0
        && (!e || a.clientHeight < e.clientHeight)) e = a;
  }
  const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, right: r.x + e.clientWidth, bottom: r.y + e.clientHeight};
}"""


def assert_seen(page, game, boxes, screen, where):
    """Each box inside the window ``screen`` and inside the notebook's visible area (not under the status bar)."""
    area = page.evaluate(NOTEBOOK_AREA, GAMES[game]["root"])
    for name, box in boxes.items():
        assert inside(box, screen), f"{game}, {where}: the {name} is not on the screen: {box}"
        assert box["y"] >= area["y"] - 0.5 and box["y"] + box["height"] <= area["bottom"] + 0.5 \
            and box["x"] + box["width"] <= area["right"] + 0.5, \
            f"{game}, {where}: the {name} is outside the notebook's visible area {area}: {box}"


def kernel_report(page, projector: bool, tries: int = 20) -> dict:
    """The kernel's report once its widget says projector mode is ``projector`` (the toggle's class changes in the
    page at once; the traitlet reaches the kernel a moment later, so a report read right after a click may be the
    one before it): the last report read, after at most ``tries`` reads a quarter of a second apart."""
    rep = run_report(page)
    for _ in range(tries - 1):
        if rep["projector"] is projector:
            break
        page.wait_for_timeout(250)
        rep = run_report(page)
    return rep


def set_projector(page, game, on):
    """Click the projector toggle (when it is not ``on`` already) and wait for the table to follow."""
    sel = GAMES[game]["root"]
    button = page.locator(sel).locator("[data-control='projector']")
    if (button.get_attribute("aria-pressed") == "true") != on:
        button.click()
    page.wait_for_function("([sel, on]) => document.querySelector(sel).classList.contains('tb-projector') === on",
                           arg=[sel, on])


def assert_board_decision_and_headline_on_one_1366x768_screen_with_the_file_browser_open(page, root, artifacts, game):
    """The table as it opens (projector mode off) on a 1366x768 screen, JupyterLab's file browser open."""
    page.set_viewport_size(SCREEN)
    show_file_browser(page, True)
    assert root.locator("[data-control='projector']").get_attribute("aria-pressed") == "false"
    boxes = boxes_at_top(page, root, game)
    page.screenshot(path=str(artifacts / f"projector-{game}-01-1366x768-file-browser-open.png"))
    assert_seen(page, game, boxes, SCREEN, "1366x768, file browser open")


# the font size on the screen of each SVG text in a layer (its font size times the board's scale)
SVG_TEXT_PX = """([sel, layer]) => {
  const svg = document.querySelector(sel);
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll(`[data-layer="${layer}"] text`)].map((t) =>
    parseFloat(getComputedStyle(t).fontSize) * scale);
}"""

# the markers' circles that overlap the finish's circle (on the screen)
COVERING_FINISH = """(sel) => {
  const svg = document.querySelector(sel);
  const finish = svg.querySelector('[data-track].hb-finish circle').getBoundingClientRect();
  const fc = [finish.x + finish.width / 2, finish.y + finish.height / 2], fr = finish.width / 2;
  return [...svg.querySelectorAll('[data-layer="markers"] [data-marker] circle')].filter((c) => {
    const b = c.getBoundingClientRect();
    return Math.hypot(b.x + b.width / 2 - fc[0], b.y + b.height / 2 - fc[1]) < fr + b.width / 2;
  }).map((c) => c.closest('[data-marker]').getAttribute('data-marker'));
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_projector_mode_at_150_percent_zoom_fits_one_screen_and_is_remembered(
        page, lab, projector_notebooks, artifacts, game):
    """First the table as it opens at 1366x768, beside the file browser; then the same page at 150% zoom (911x512
    CSS pixels, what zooming the browser does to a page already drawn), the file browser folded away, projector
    mode on: one kernel and one page for both."""
    g = GAMES[game]
    page.set_viewport_size(SCREEN)
    root = open_game(page, lab, game)
    assert_board_decision_and_headline_on_one_1366x768_screen_with_the_file_browser_open(page, root, artifacts, game)
    page.set_viewport_size(PROJECTOR)
    show_file_browser(page, False)
    before = boxes_at_top(page, root, game)
    page.screenshot(path=str(artifacts / f"projector-{game}-02-911x512-off.png"))
    set_projector(page, game, True)
    boxes = boxes_at_top(page, root, game)
    page.screenshot(path=str(artifacts / f"projector-{game}-03-911x512-projector.png"))
    print(f"{game} at 911x512: off {before}; projector {boxes}")
    assert_seen(page, game, boxes, PROJECTOR, "projector mode at 911x512")
    area = page.evaluate(NOTEBOOK_AREA, g["root"])
    assert boxes["board"]["height"] >= 0.8 * (area["bottom"] - area["y"]), f"a small board in projector mode: {boxes}"
    if game == "heimlich":
        svg = f"{g['root']} svg.hb-svg"
        track = page.evaluate(SVG_TEXT_PX, [svg, "track"])
        letters = page.evaluate(SVG_TEXT_PX, [svg, "markers"])
        print(f"track numbers {min(track):.1f} px, marker letters {min(letters):.1f} px")
        assert len(track) == 43 and min(track) >= 14, f"track numbers under 14 px: {min(track):.1f}"
        assert len(letters) == 7 and min(letters) >= 14, f"marker letters under 14 px: {min(letters):.1f}"
        assert page.evaluate(COVERING_FINISH, svg) == [], "a score marker covers the finish 42"
        # the tallest decision, the allocation of the die's steps among the seven agents, also fits beside the board
        root.locator("[data-action='roll']").click()
        root.locator("[data-testid='allocation'], [data-action='points 1']").first.wait_for(timeout=30_000)
        if root.locator("[data-action='points 1']").count():
            root.locator("[data-action='points 1']").click()
        root.locator("[data-testid='allocation']").wait_for(timeout=30_000)
        moving = boxes_at_top(page, root, game)
        page.screenshot(path=str(artifacts / f"projector-{game}-04-911x512-allocation.png"))
        print(f"allocation at 911x512: {moving}")
        assert_seen(page, game, moving, PROJECTOR, "projector mode at 911x512, the allocation")
    elif game == "topsecret1985":
        sizes = root.evaluate("""(r) => [...r.querySelectorAll('.ts-seat, .ts-btn, .ts-belief-table td, '
            + '.tb-headline-text, .ts-picture svg [data-city] text')].map((e) => {
              const svg = e.closest('svg');
              const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
              return parseFloat(getComputedStyle(e).fontSize) * scale; })""")
        print(f"smallest text in projector mode: {min(sizes):.1f} px")
        assert min(sizes) >= 9, f"text under 9 px in projector mode: {min(sizes)}"
    else:
        sizes = root.evaluate("""(r) => [...r.querySelectorAll('.st-seat b, [data-action], .tb-headline-text')]
            .map((e) => parseFloat(getComputedStyle(e).fontSize))""")
        assert min(sizes) >= 14, f"text under 14 px in projector mode: {min(sizes)}"
        table = boxes["board"]
        seats = [root.locator(f"[data-seat='{p}']").bounding_box() for p in EIGHT]
        for p, box in zip(EIGHT, seats):            # every seat inside the circle's area, none on another
            assert table["x"] <= box["x"] and table["y"] - 0.5 <= box["y"] \
                and box["x"] + box["width"] <= table["x"] + table["width"] + 0.5 \
                and box["y"] + box["height"] <= table["y"] + table["height"] + 0.5, (p, box, table)
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                        or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]), "two seats overlap"
    assert kernel_report(page, True)["projector"] is True, "the kernel's widget does not know projector mode is on"
    # axe-core on the projector layout: no serious or critical violation
    assert axe_violations(page, g["root"]) == []
    # remembered for this notebook: a reload and Run All (a new widget, the traitlet's default) keep it on
    page.reload()
    root = open_game(page, lab, game)
    page.wait_for_function("(sel) => document.querySelector(sel).classList.contains('tb-projector')", arg=g["root"],
                           timeout=10_000)
    assert root.locator("[data-control='projector']").get_attribute("aria-pressed") == "true"
    rep = run_report(page)
    assert rep["projector"] is True and rep["notebook"].endswith(g["notebook"]), rep
    set_projector(page, game, False)
    assert kernel_report(page, False)["projector"] is False, "the kernel's widget does not know projector mode is off"
