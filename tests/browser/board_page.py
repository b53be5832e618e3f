"""Driving the Heimlich board in JupyterLab from a Playwright page: the helpers and the test notebooks shared by
test_board_browser.py, test_classroom_board_browser.py, test_top_secret_browser.py and test_app_browser.py.

The test modules import it by name (pytest puts this folder, which has no ``__init__.py``, on ``sys.path``).
"""
from __future__ import annotations

import re

from notebook_page import inside, run_all_cells

BOARD = ".heimlich-board"

REPORT = """import json
def report(ctl):
    g = ctl.game
    print("REPORT " + json.dumps({
        "positions": g.positions, "scores": g.scores, "safe": g.safe, "phase": g.phase,
        "active": g.active_player, "decider": ctl.decider, "history": [[a, str(x)] for a, x in g.history],
        "hands": g.hands, "owners": g.owners, "playing": ctl.playing, "curtain": ctl.curtain,
        "timings": ctl.timings[-40:]}))
"""

# a signature of what the board shows; a click is done when it changes
SIG = """() => {
  const r = document.querySelector('.heimlich-board');
  if (!r) return null;
  const q = (s) => { const e = r.querySelector(s); return e ? e.textContent : ''; };
  const log = r.querySelector('[data-testid="log"]');
  const die = r.querySelector('[data-die]');
  return JSON.stringify([q('[data-testid="decision"]'), log ? log.children.length : 0,
    log && log.lastElementChild ? log.lastElementChild.textContent : '', q('[data-testid="curtain"]'),
    q('[data-testid="allocation"]'), die ? die.getAttribute('data-die') : '', q('[data-testid="error"]'),
    r.querySelectorAll('[data-action]').length, q('[data-testid="hand"]'), q('[data-testid="view-label"]')]);
}"""


# ---------------------------------------------------------------------------- page helpers
def open_and_run(page, lab, name, artifacts=None, shot=None):
    """Open a notebook in JupyterLab, run all cells, wait for the board."""
    run_all_cells(page, lab, name)
    page.wait_for_selector(f"{BOARD} [data-layer='buildings'] [data-building]", timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('{BOARD} [data-testid=\"decision\"]')"
                           f" && document.querySelector('{BOARD} [data-testid=\"decision\"]').textContent", timeout=30_000)
    if shot:
        screenshot(page, artifacts, shot)


def screenshot(page, artifacts, name):
    board = page.locator(BOARD).first
    board.scroll_into_view_if_needed()
    board.screenshot(path=str(artifacts / f"{name}.png"))


def sig(page):
    return page.evaluate(SIG)


def click_wait(page, selector, timeout=15_000):
    """Click something on the board and wait until the board shows a change."""
    before = sig(page)
    page.locator(f"{BOARD} {selector}").first.click()
    page.wait_for_function(f"(b) => ({SIG})() !== b", arg=before, timeout=timeout)


def dom(page, js, arg=None):
    return page.evaluate(js, arg)


def own_marks(page):
    return dom(page, f"() => [...document.querySelectorAll('{BOARD} [data-agent].hb-own')]"
                     ".map((e) => e.getAttribute('data-agent'))")


def cards_shown(page):
    return dom(page, f"() => [...document.querySelectorAll('{BOARD} [data-card]')].map((e) => e.getAttribute('data-card'))")


def agent_building(page, colour):
    label = page.locator(f"{BOARD} [data-agent='{colour}']").get_attribute("aria-label")
    return re.search(r" in (\S+?)(,|$)", label).group(1)


def timed_click(page, selector, done_js):
    """Milliseconds from a click (in the page) until ``done_js(root)`` holds in the DOM, and the
    wall-clock time (epoch ms) when it did."""
    return dom(page, """async ([sel, done]) => {
        const root = document.querySelector('.heimlich-board');
        const check = new Function('root', 'return (' + done + ')(root)');
        const t0 = performance.now();
        return await new Promise((resolve, reject) => {
          const obs = new MutationObserver(() => {
            if (check(root)) { obs.disconnect(); resolve([performance.now() - t0, Date.now()]); }
          });
          obs.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
          setTimeout(() => { obs.disconnect(); reject(new Error('timeout waiting for ' + done)); }, 15000);
          root.querySelector(sel).click();
        });
    }""", [selector, done_js])


def act_once(page):
    """One human decision, whatever it is, by clicking (simple choices)."""
    b = page.locator(BOARD)
    if b.locator("[data-action='roll']").count():
        click_wait(page, "[data-action='roll']")
    elif b.locator("[data-action='points 1']").count():
        click_wait(page, "[data-action='points 1']")
    elif b.locator("[data-testid='allocation']").count():
        n = int(re.search(r"of (\d+) point", b.locator(".hb-alloc-status").text_content()).group(1))
        plus = b.locator("[data-step='+1']").first.get_attribute("data-target")
        for _ in range(n):
            click_wait(page, f"[data-step='+1'][data-target='{plus}']")
        # confirming empties the table at once (the board waits for the kernel): wait for the move in the log
        last = f"() => {{ const l = document.querySelector('{BOARD} [data-testid=\"log\"]'); " \
               "return l && l.lastElementChild ? l.lastElementChild.textContent : ''; }"
        before = dom(page, last)
        click_wait(page, "[data-testid='confirm']")
        page.wait_for_function(f"(b) => ({last})() !== b", arg=before, timeout=15_000)
    else:
        for sel in ("[data-action^='safe ']", "[data-action='announce no']", "[data-action='collect yes']",
                    "[data-action='pass']",
                    "[data-action='done']", "[data-action^='dossier ']", "[data-action^='play ']"):
            if b.locator(sel).count():
                click_wait(page, sel)
                return
        raise AssertionError(f"no decision to click: {sig(page)}")


# ---------------------------------------------------------------------------- notebooks
def write_board_notebooks(lab_root, write_notebook):
    """Write the test notebooks of the Heimlich board into ``lab_root`` (the JupyterLab server's root)."""
    write_notebook(lab_root / "turn.ipynb", [
        "from heimlich_lab import Position, Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController\n"
        "start = Position(positions={'grey': 1, 'yellow': 2, 'orange': 3, 'red': 4, 'green': 5, 'blue': 6},\n"
        "                 owners={'Ann': 'red', 'Bob': 'blue', 'Cy': 'green'}, safe=7, active='Ann', decision='roll')\n"
        "ctl = GameController(['Ann', 'Bob', 'Cy'], bots={'Bob': RandomBot(1), 'Cy': RandomBot(2)}, seed=4,\n"
        "                     start=start, autoplay=False, speed_ms=250)\n"
        "ctl.widget",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "hotseat.ipynb", [
        "from heimlich_lab import Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import play_in_notebook\n"
        "w = play_in_notebook(['Ann', 'Bob', 'Cy'], bots={'Cy': RandomBot(3)}, rules=Rules(top_secret=True),\n"
        "                     seed=4, speed_ms=100)\n"
        "ctl = w.controller\n"
        "w",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "bots.ipynb", [
        "from heimlich_lab import Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import play_in_notebook\n"
        "w = play_in_notebook(['Ann', 'Bob', 'Cy', 'Dee'], bots={p: RandomBot(i) for i, p in\n"
        "                     enumerate(['Ann', 'Bob', 'Cy', 'Dee'])}, rules=Rules(top_secret=True), seed=2,\n"
        "                     speed_ms=120)\n"
        "ctl = w.controller\n"
        "w",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "keys.ipynb", [
        "from heimlich_lab import Position, Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController\n"
        "rules = Rules(top_secret=True)\n"
        "start = Position(positions={c: 0 for c in rules.agents_for(3)}, owners={'Ann': 'red', 'Bob': 'blue', 'Cy': 'green'},\n"
        "                 safe=7, active='Ann', decision='move', die='3', hands={'Ann': ['fwd123'], 'Bob': [], 'Cy': []})\n"
        "ctl = GameController(['Ann', 'Bob', 'Cy'], bots={'Bob': RandomBot(1), 'Cy': RandomBot(2)}, rules=rules, seed=5,\n"
        "                     start=start, speed_ms=100, ask_cards='always')   # Ann says Done herself\n"
        "ctl.widget",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "dossier.ipynb", [
        "from heimlich_lab import Position, Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController, replay_in_notebook\n"
        "rules = Rules(dossier=True)\n"
        "agents = rules.agents_for(3)\n"
        "start = Position(positions={c: 0 for c in agents} | {'grey': 6}, owners={'Ann': 'red', 'Bob': 'blue', 'Cy': 'green'},\n"
        "                 scores={c: 0 for c in agents} | {'grey': 25}, safe=7, active='Ann', decision='move', die='1-3',\n"
        "                 points=1)\n"
        "ctl = GameController(['Ann', 'Bob', 'Cy'], bots={'Bob': RandomBot(1), 'Cy': RandomBot(2)}, rules=rules, seed=5,\n"
        "                     start=start, autoplay=False)\n"
        "ctl.widget",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "replay.ipynb", [
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController, ReplayController\n"
        "g = GameController(['Ann', 'Bob', 'Cy'], bots={p: RandomBot(i) for i, p in enumerate(['Ann', 'Bob', 'Cy'])},\n"
        "                   seed=3, viewer='Ann', autoplay=False, beliefs=False)\n"
        "g.run_bots()\n"
        "r = ReplayController(g.record, viewer='Ann')\n"
        "r.seek(0)\n"
        "r.widget",
        "import json\nprint('REPORT ' + json.dumps({'index': r.index, 'length': len(r.views), "
        "'positions': r.views[r.index].positions, 'notes': r.widget.state['belief']['notes']}))",
    ])
    write_notebook(lab_root / "classroom.ipynb", [
        "from heimlich_lab import Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import play_in_notebook\n"
        "players = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve']\n"
        "w = play_in_notebook(players, bots={p: RandomBot(i) for i, p in enumerate(players[1:])},\n"
        "                     rules=Rules(top_secret=True, dossier=True), seed=7, speed_ms=0)\n"
        "ctl = w.controller\n"
        "w",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "you.ipynb", [
        "from heimlich_lab import Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import play_in_notebook\n"
        "w = play_in_notebook(['You', 'Bob', 'Cy'], bots={'Bob': RandomBot(1), 'Cy': RandomBot(2)},\n"
        "                     rules=Rules(top_secret=True, dossier=True), seed=3, speed_ms=0)\n"
        "ctl = w.controller\n"
        "w",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "banner.ipynb", [
        "from heimlich_lab import Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController\n"
        "players = ['Ann', 'You', 'Cy']\n"
        "ctl = GameController(players, bots={p: RandomBot(i) for i, p in enumerate(players)}, rules=Rules(top_secret=True),\n"
        "                     seed=3, viewer='Ann', autoplay=False, beliefs=False)\n"
        "ctl.widget",
        REPORT + "report(ctl)",
    ])
    write_notebook(lab_root / "end.ipynb", [
        "from heimlich_lab import Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController, ReplayController\n"
        "ctl = GameController(['Ann', 'Bob', 'Cy'], bots={p: RandomBot(i) for i, p in enumerate(['Ann', 'Bob', 'Cy'])},\n"
        "                     rules=Rules(dossier=True), seed=5, autoplay=False, beliefs=False)\n"
        "ctl.run_bots()\n"
        "ctl.widget",
        "ReplayController(ctl.record, viewer='Bob').widget",
        REPORT + "report(ctl)",
    ])
    players7 = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    write_notebook(lab_root / "speed.ipynb", [
        "from heimlich_lab import Position, Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController\n"
        f"players = {players7!r}\n"
        "colours = ['red', 'grey', 'yellow', 'orange', 'green', 'blue', 'violet']\n"
        "start = Position(positions={c: 0 for c in colours}, owners=dict(zip(players, colours)), safe=7,\n"
        "                 active='Ann', decision='move', die='6',\n"
        "                 hands={'Ann': ['fwd123', 'swap'], 'Bob': ['ruins'], 'Cy': ['tosafe', 'join']})\n"
        "ctl = GameController(players, bots={p: RandomBot(i) for i, p in enumerate(players[1:])},\n"
        "                     rules=Rules(top_secret=True), seed=6, start=start, autoplay=False, speed_ms=100)\n"
        "ctl.widget",
        REPORT + "report(ctl)",
    ])
    return lab_root


# ---------------------------------------------------------------------------- the classroom board (issue 13)
#: "You's", or "You" with a verb of the third person ("You rolls"); "You pass" is right
BAD_ENGLISH = re.compile(r"\bYou's\b|\bYou (?:already )?(?:is|has|does|[a-z]+[^s\W]s)\b")


def board_top(page, board):
    """Scroll the board's top to the top of the window (what a teacher does before playing)."""
    board.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def one_screen_boxes(board):
    return {"board": board.locator("svg.hb-svg").bounding_box(),
            "decision": board.locator("[data-section='controls']").bounding_box(),
            "heatmap": board.locator("[data-testid='belief'] table.hb-heat").bounding_box(),
            "belief headline": board.locator("[data-testid='belief-headline']").bounding_box()}


# what sticks out to the right of its panel (the end table, a column, the board itself), visually hidden text aside
STICKING_OUT = """() => [...document.querySelectorAll('.heimlich-board *')].filter((e) => {
  const panel = e.parentElement.closest('.hb-result, .hb-side-col, .hb-board-col, .heimlich-board');
  const box = e.getBoundingClientRect();
  return panel && box.width > 0 && getComputedStyle(e).position !== 'absolute'
    && box.right > panel.getBoundingClientRect().right + 0.5;
}).map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') || ''} ${e.textContent.slice(0, 30)}`)"""


def show_file_browser(page, shown=True):
    """Open JupyterLab's file browser on the left (``shown=False``: fold the left area away)."""
    if shown:
        page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    else:
        page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")
    page.wait_for_selector("#filebrowser", state="visible" if shown else "hidden", timeout=10_000)


def look_at(page, board, viewport, artifacts, shot):
    """The window at ``viewport``, the board's top at the top of it, a screenshot; the one-screen boxes."""
    page.set_viewport_size(viewport)
    board_top(page, board)
    page.screenshot(path=str(artifacts / f"{shot}.png"))
    return one_screen_boxes(board)


def assert_one_screen(boxes, screen, where):
    """The board, the decision and the heatmap inside ``screen``; the decision and the heatmap beside the board."""
    for name, box in boxes.items():
        assert inside(box, screen), f"the {name} is not inside the screen ({where}): {box}"
    right = boxes["board"]["x"] + boxes["board"]["width"]
    assert right <= boxes["decision"]["x"] and right <= boxes["heatmap"]["x"], f"beside the board ({where}): {boxes}"
