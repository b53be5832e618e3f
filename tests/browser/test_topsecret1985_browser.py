"""The Top Secret table in a real browser: JupyterLab + headless Debian Chromium (Playwright, sync API).

A human hides their contents, places their suitcases and moves an agent by clicking (checked on the table drawn AND
in the kernel); the map, the decision and the belief panel with its four opponents' tables fit one 1366x768 screen
with JupyterLab's file browser open, and nothing runs off the side at 150% zoom; axe-core finds no serious
violation; the hot seat's curtain keeps a human's contents out of the DOM until Reveal; a replay opens at step 0.
Screenshots: test-artifacts/topsecret1985-*.png.
"""
from __future__ import annotations

import json

import pytest
from notebook_page import SCREEN, axe_violations, inside, run_all_cells, run_report
from test_projector_browser import GAMES, NOTEBOOK_AREA, PROJECTOR, show_file_browser

from heimlich_lab.games.topsecret1985.transcript import place_words

pytestmark = pytest.mark.browser

TABLE = ".topsecret-table"
REPORT = ("import json\n"
          "c = w.controller\n"
          "g = c.game if hasattr(c, 'game') else None\n"
          "print('REPORT ' + json.dumps({'history': [[a, str(x)] for a, x in g.history] if g else None,\n"
          "                              'locations': g.locations if g else None,\n"
          "                              'contents': g.contents if g else None,\n"
          "                              'index': getattr(c, 'index', None)}))")
@pytest.fixture(scope="module")
def topsecret_notebooks(lab_root, make_notebook):
    make_notebook(lab_root / "topsecret-human.ipynb", [
        "from heimlich_lab import topsecret1985 as ts\n"
        "from heimlich_lab.games.topsecret1985.widget import play_in_notebook\n"
        "w = play_in_notebook(['Ann', 'Bob'], bots={'Bob': ts.RandomBot(1)}, seed=1, speed_ms=0)\n"
        "w",
        REPORT,
    ])
    # four players, Ann at her first move (the projector test's notebook: one home for that set-up)
    make_notebook(lab_root / "topsecret-four.ipynb", [GAMES["topsecret1985"]["cell"], REPORT])
    make_notebook(lab_root / "topsecret-hotseat.ipynb", [
        "from heimlich_lab.games.topsecret1985.widget import play_in_notebook\n"
        "w = play_in_notebook(['Ann', 'Bob'], seed=4)\n"
        "w",
        REPORT,
    ])
    make_notebook(lab_root / "topsecret-replay.ipynb", [
        "from heimlich_lab import topsecret1985 as ts\n"
        "from heimlich_lab.games.topsecret1985.widget import replay_in_notebook\n"
        "rec = ts.play([ts.RandomBot(1), ts.RandomBot(2), ts.RandomBot(3)], seed=6)\n"
        "w = replay_in_notebook(rec, viewer='Ann')\n"
        "w",
        REPORT,
    ])
    return lab_root


def open_and_run(page, lab, name):
    """Open a notebook in JupyterLab, run all its cells, wait for the table's map."""
    run_all_cells(page, lab, name)
    page.wait_for_selector(f"{TABLE} [data-testid='table'] svg [data-city]", timeout=90_000)
    return page.locator(TABLE)


def shoot(page, artifacts, name):
    page.evaluate("(sel) => document.querySelector(sel)?.scrollIntoView({block: 'nearest'})", TABLE)
    page.screenshot(path=str(artifacts / f"{name}.png"))


def test_a_human_hides_places_and_moves_by_clicking(page, lab, topsecret_notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    t = open_and_run(page, lab, "topsecret-human.ipynb")
    # the contents: the form's four choices, then Hide
    t.locator("[data-contents='hide']").wait_for(timeout=30_000)
    for letter, content in zip("ABCD", ["bomb", "1", "3", "5"]):
        t.locator(f"select[data-letter='{letter}']").select_option(content)
    t.locator("[data-contents='hide']").click()
    t.locator("[data-testid='contents-Ann']").wait_for(timeout=30_000)
    assert t.locator("[data-testid='contents-Ann']").text_content() == "Suitcases: A=bomb B=1 C=3 D=5"
    # the four suitcases: click a ringed city each time
    placed = []
    for _ in range(4):
        city = t.locator("button.ts-city[data-action^='place ']").first
        city.wait_for(timeout=30_000)
        placed.append(city.get_attribute("data-action"))
        city.click()
        page.wait_for_function("([sel, a]) => !document.querySelector(`${sel} [data-action=\"${a}\"]`)",
                               arg=[TABLE, placed[-1]], timeout=30_000)
    shoot(page, artifacts, "topsecret1985-01-placed")
    # the move: choose the agent, then a ringed city of its path
    agent = t.locator("button.ts-agent").first
    agent.wait_for(timeout=30_000)
    name = agent.get_attribute("data-agent")
    agent.click()
    assert t.locator(f"button.ts-agent[data-agent='{name}']").get_attribute("aria-pressed") == "true"
    step = t.locator(f"button.ts-step[data-action^='step {name} ']").first
    notation = step.get_attribute("data-action")
    step.click()
    city = notation.split()[-1]
    said = json.dumps(f" to {place_words(city)}.")    # the log names the city as the map does ("Auckland")
    page.wait_for_function(f"""() => [...document.querySelectorAll('{TABLE} [data-testid="log"] li')]
        .some((li) => li.textContent.startsWith('{name} moves from ') && li.textContent.endsWith({said}))""",
                           timeout=30_000)
    shoot(page, artifacts, "topsecret1985-02-moved")
    rep = run_report(page)
    hist = [tuple(e) for e in rep["history"]]
    assert ("Ann", "contents A=bomb B=1 C=3 D=5") in hist and rep["contents"]["Ann"]["A"] == "bomb"
    assert [a for p, a in hist if a.startswith("place ")][:1] == [placed[0]] or ("Ann", placed[0]) in hist
    assert ("Ann", notation) in hist
    assert rep["locations"][name] == city or any(p == "Ann" and a.startswith(f"step {name} ") for p, a in
                                                   hist[hist.index(("Ann", notation)) + 1:])


def test_the_map_the_decision_and_the_belief_fit_one_screen_and_axe_is_clean(page, lab, topsecret_notebooks,
                                                                               artifacts):
    """Four players (the most opponents' tables) at 1366x768, JupyterLab's file browser open; then 150% zoom."""
    page.set_viewport_size(SCREEN)
    t = open_and_run(page, lab, "topsecret-four.ipynb")
    t.locator("button.ts-agent").first.wait_for(timeout=30_000)
    t.locator("[data-testid='belief-headline']").wait_for(timeout=30_000)
    show_file_browser(page, True)
    t.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(400)
    boxes = {k: t.locator(sel).first.bounding_box() for k, sel in (
        ("map", "[data-testid='table']"), ("decision", "[data-testid='decision']"),
        ("belief", "[data-testid='belief']"), ("seats", "[data-testid='seats']"))}
    page.screenshot(path=str(artifacts / "topsecret1985-03-one-screen-1366x768.png"))
    area = page.evaluate(NOTEBOOK_AREA, TABLE)
    for k, box in boxes.items():
        assert inside(box), f"the {k} is not inside the 1366x768 screen: {box}"
        assert box["y"] + box["height"] <= area["bottom"] + 0.5 and box["x"] + box["width"] <= area["right"] + 0.5, \
            f"the {k} is outside the notebook's visible area {area}: {box}"
    assert boxes["map"]["x"] + boxes["map"]["width"] <= boxes["belief"]["x"], "the map runs into the belief panel"
    assert t.locator("[data-testid='belief'] table[data-belief-player]").count() == 3
    assert t.locator("[data-testid='belief'] [data-belief-row]").count() == 12
    # a target lies over the city it names (the picture and the buttons share one box)
    target = t.locator("button.ts-step").first
    city = target.get_attribute("data-city")
    a, b = target.bounding_box(), t.locator(f"svg [data-city='{city}'] circle").bounding_box()
    assert abs((a["x"] + a["width"] / 2) - (b["x"] + b["width"] / 2)) < 3
    assert abs((a["y"] + a["height"] / 2) - (b["y"] + b["height"] / 2)) < 3
    assert axe_violations(page, TABLE) == []
    # keyboard: Enter on the agent, then the focus is on its first city
    t.locator("button.ts-agent").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('ts-step')",
                           timeout=10_000)
    # Enter on the city: the step is taken, and the focus goes on to the agent's next city (5 steps to move)
    stepped = page.evaluate("() => document.activeElement.getAttribute('data-action')")
    page.keyboard.press("Enter")
    page.wait_for_function("""(a) => document.activeElement && document.activeElement.classList.contains('ts-step')
        && document.activeElement.getAttribute('data-action') !== a
        && !document.querySelector(`[data-action="${a}"]`)""", arg=stepped, timeout=30_000)
    assert ["Ann", stepped] in run_report(page)["history"]
    # 150% zoom (911x512 CSS pixels), the file browser closed: nothing runs off the side
    show_file_browser(page, False)
    page.set_viewport_size(PROJECTOR)
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / "topsecret1985-04-150-percent.png"))
    root = t.bounding_box()
    area = page.evaluate(NOTEBOOK_AREA, TABLE)
    assert root["x"] + root["width"] <= area["right"] + 0.5, f"the table runs off the side at 150%: {root} {area}"
    assert t.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), "the table scrolls sideways at 150%"
    assert axe_violations(page, TABLE) == []


def test_hot_seat_the_curtain_keeps_contents_out_of_the_dom_until_reveal(page, lab, topsecret_notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    t = open_and_run(page, lab, "topsecret-hotseat.ipynb")
    t.locator("[data-curtain='reveal']").wait_for(timeout=30_000)
    assert t.locator("[data-contents='hide']").count() == 0 and t.locator("[data-action]").count() == 0
    t.locator("[data-curtain='reveal']").click()
    t.locator("[data-contents='hide']").wait_for(timeout=30_000)
    first = t.locator("[data-testid='view-label']").text_content().split("'")[0]
    t.locator("[data-contents='hide']").click()          # the first choice: A=5 B=3 C=1 D=bomb
    t.locator("[data-curtain='reveal']").wait_for(timeout=30_000)
    shoot(page, artifacts, "topsecret1985-05-curtain")
    html = t.evaluate("(e) => e.innerHTML")
    assert "data-contents=" not in html and "Suitcases: " not in html and "A=5" not in html
    t.locator("[data-curtain='reveal']").click()
    t.locator("[data-contents='hide']").wait_for(timeout=30_000)
    second = t.locator("[data-testid='view-label']").text_content().split("'")[0]
    assert {first, second} == {"Ann", "Bob"}
    assert t.locator(f"[data-testid='contents-{first}']").count() == 0       # the first human's contents stay hidden
    assert axe_violations(page, TABLE) == []


def test_the_replay_opens_at_step_0_and_steps(page, lab, topsecret_notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    t = open_and_run(page, lab, "topsecret-replay.ipynb")
    bound = t.locator("[data-bind='replay']")
    bound.wait_for(timeout=30_000)
    assert bound.text_content().startswith("0 / ")
    assert t.locator("[data-testid='view-label']").text_content() == "Replay, Ann's view"
    assert t.locator("[data-action], button.ts-agent").count() == 0
    t.locator("[data-replay-step='+1']").click()
    page.wait_for_function(f"() => document.querySelector(\"{TABLE} [data-bind='replay']\").textContent"
                           ".startsWith('1 / ')", timeout=30_000)
    assert run_report(page)["index"] == 1
    t.locator("[data-replay-step='last']").click()
    page.wait_for_function(f"() => /Game over/.test(document.querySelector(\"{TABLE} [data-testid='headline']\")"
                           ".textContent)", timeout=30_000)
    shoot(page, artifacts, "topsecret1985-06-replay-end")
    assert t.locator("[data-testid='belief'] table[data-belief-player]").count() == 2
