"""The Secrets table in a real browser: JupyterLab + headless Debian Chromium (Playwright, sync API).

A human offers a card by clicking and a bot answers (checked on the table drawn AND in the kernel); the table and
the belief panel fit one 1366x768 screen; the hot seat's curtain keeps a human's marker out of the DOM until Reveal;
a replay opens at step 0. Screenshots: test-artifacts/secrets-*.png.
"""
from __future__ import annotations

import json
import re

import pytest
from notebook_page import SCREEN, axe_violations, inside, run_all_cells, run_report

pytestmark = pytest.mark.browser

TABLE = ".secrets-table"

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
REPORT = ("import json\n"
          "g = w.controller.game if hasattr(w.controller, 'game') else None\n"
          "print('REPORT ' + json.dumps({'history': [[a, str(x)] for a, x in g.history] if g else None,\n"
          "                              'identities': g.identities if g else None,\n"
          "                              'index': getattr(w.controller, 'index', None)}))")


@pytest.fixture(scope="module")
def secrets_notebooks(lab_root, make_notebook):
    make_notebook(lab_root / "secrets-human.ipynb", [
        "from heimlich_lab import secrets\n"
        f"w = secrets.play_in_notebook({PLAYERS!r}, bots={{p: secrets.RandomBot(i) for i, p in "
        f"enumerate({PLAYERS[1:]!r})}},\n"
        "                             seed=3, speed_ms=150)\n"
        "w",
        REPORT,
    ])
    make_notebook(lab_root / "secrets-eight.ipynb", [
        "from heimlich_lab import secrets\n"
        f"w = secrets.play_in_notebook({EIGHT!r}, bots={{p: secrets.RandomBot(i) for i, p in "
        f"enumerate({EIGHT[1:]!r})}},\n"
        "                             seed=8, speed_ms=150)\n"
        "w",
        REPORT,
    ])
    make_notebook(lab_root / "secrets-whole.ipynb", [
        "from heimlich_lab import secrets\n"
        f"w = secrets.play_in_notebook({PLAYERS!r}, bots={{p: secrets.RandomBot(i) for i, p in "
        f"enumerate({PLAYERS[1:]!r})}},\n"
        "                             seed=21, speed_ms=0)\n"
        "w",
        REPORT,
    ])
    make_notebook(lab_root / "secrets-hotseat.ipynb", [
        "from heimlich_lab import secrets\n"
        f"w = secrets.play_in_notebook({PLAYERS!r}, bots={{'Cy': secrets.RandomBot(1), 'Dee': secrets.RandomBot(2)}},\n"
        "                             seed=5, speed_ms=100)\n"
        "w",
        REPORT,
    ])
    make_notebook(lab_root / "secrets-you.ipynb", [
        "from heimlich_lab import secrets\n"
        "w = secrets.play_in_notebook(['You', 'Bob', 'Cy', 'Dee'], bots={p: secrets.RandomBot(i) for i, p in "
        "enumerate(['Bob', 'Cy', 'Dee'])},\n"
        "                             seed=3, speed_ms=600)\n"
        "w",
        REPORT,
    ])
    make_notebook(lab_root / "secrets-replay.ipynb", [
        "from heimlich_lab import secrets\n"
        "rec = secrets.play([secrets.RandomBot(i) for i in range(6)], seed=7)\n"
        "w = secrets.replay_in_notebook(rec, viewer='Ann')\n"
        "w",
        REPORT,
    ])
    return lab_root


def open_and_run(page, lab, name):
    """Open a notebook in JupyterLab, run all its cells, wait for the table."""
    run_all_cells(page, lab, name)
    page.wait_for_selector(f"{TABLE} [data-testid='table'] [data-seat]", timeout=60_000)


def shoot(page, artifacts, name):
    # One step in the page: a section redrawn on an update may detach a located element before a second step.
    page.evaluate("(sel) => document.querySelector(sel)?.scrollIntoView({block: 'nearest'})", TABLE)
    page.screenshot(path=str(artifacts / f"{name}.png"))


def assert_axe_finds_no_serious_or_critical_violation(page):
    """Issue 24, item 7: axe-core (WCAG 2.1 A/AA) on the table (1366x768): checked in play, behind the hot seat's
    curtain and in a replay, each in the test that opens that notebook (one kernel and one page for both)."""
    found = axe_violations(page, TABLE)
    assert found == [], json.dumps(found, indent=1)


def assert_no_fixed_width_clips_the_table_at_150_percent_zoom(page, artifacts):
    """A 1366x768 screen at 150% zoom is 911x512 CSS pixels: the side column wraps, nothing runs off to the right.
    Zooming a page already drawn resizes it: the window is resized here, after the table was drawn at 1366x768."""
    page.set_viewport_size({"width": 911, "height": 512})
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")   # laid out
    t = page.locator(TABLE)
    shoot(page, artifacts, "secrets-09-zoom-150")
    right = page.evaluate(f"""() => {{ const r = document.querySelector('{TABLE}');
        const cell = r.parentElement.getBoundingClientRect().right;
        return {{cell, widest: Math.max(...[...r.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right))}}; }}""")
    assert right["widest"] <= right["cell"] + 1, right
    for sel in ("[data-testid='table']", "[data-testid='belief']", "[data-testid='log']"):
        box = t.locator(sel).bounding_box()
        assert box and box["width"] > 200 and box["x"] + box["width"] <= 911, (sel, box)


def test_a_human_offers_a_card_and_a_bot_answers(page, lab, secrets_notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-human.ipynb")
    t = page.locator(TABLE)
    t.locator("[data-action^='offer '][data-action$=' Bob']").first.wait_for(timeout=30_000)
    shoot(page, artifacts, "secrets-01-human-offers")
    assert_axe_finds_no_serious_or_critical_violation(page)      # the table in play
    assert t.locator("[data-testid='view-label']").text_content() == "Ann's view"
    mine = t.locator("[data-seat='Ann'] [data-marker]").get_attribute("data-marker")
    assert mine in ("CIA", "KGB", "Hippie")
    assert all(t.locator(f"[data-seat='{p}'] [data-marker]").get_attribute("data-marker") == "?" for p in PLAYERS[1:])
    button = t.locator("[data-action^='offer '][data-action$=' Bob']").first
    offer = button.get_attribute("data-action")
    button.click()
    seen = page.wait_for_function(f"""() => [...document.querySelectorAll('{TABLE} [data-testid="log"] li')]
        .map((li) => li.textContent).find((text) => /^Bob (accepts|refuses)\\./.test(text))""", timeout=30_000)
    line = seen.json_value()
    shoot(page, artifacts, "secrets-02-bot-answered")
    rep = run_report(page)
    hist = [tuple(e) for e in rep["history"]]
    i = hist.index(("Ann", offer))
    assert hist[i + 1][0] == "Bob" and hist[i + 1][1] in ("accept", "refuse")
    assert line == f"Bob {hist[i + 1][1]}s."
    deal = dict(w.split("=") for w in hist[0][1].split()[1:])
    assert mine == deal["Ann"]          # the table drew Ann's own marker as dealt (before any swap)


def test_the_table_and_the_belief_panel_fit_one_screen(page, lab, secrets_notebooks, artifacts):
    """Eight players (the most seats, the longest belief panel) at 1366x768, JupyterLab's file browser open."""
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-eight.ipynb")
    t = page.locator(TABLE)
    t.locator("[data-testid='belief'] [data-belief-slot='middle']").wait_for(timeout=30_000)
    t.scroll_into_view_if_needed()
    table_box = t.locator("[data-testid='table']").bounding_box()
    belief_box = t.locator("[data-testid='belief']").bounding_box()
    page.screenshot(path=str(artifacts / "secrets-03-one-screen-1366x768.png"))
    assert inside(table_box), f"the table is not inside the 1366x768 screen: {table_box}"
    assert inside(belief_box), f"the belief panel is not inside the 1366x768 screen: {belief_box}"
    seats = [t.locator(f"[data-seat='{seat}']").bounding_box() for seat in EIGHT]
    for seat, box in zip(EIGHT, seats):            # every seat inside the table's area, none on another
        assert inside(box, {"width": table_box["x"] + table_box["width"],
                            "height": table_box["y"] + table_box["height"]}) and box["x"] >= table_box["x"], seat
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                    or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]), "two seats overlap"
    assert table_box["x"] + table_box["width"] <= belief_box["x"], "the table runs into the belief panel"
    rows = t.locator("[data-testid='belief'] [data-belief-slot]")
    assert rows.count() == len(EIGHT) + 1
    assert t.locator("[data-belief-slot='Ann'] th").text_content() == "Ann (you)"
    assert t.locator("[data-testid='belief-explanation']").text_content()
    assert_no_fixed_width_clips_the_table_at_150_percent_zoom(page, artifacts)      # the same page at 150% zoom


def test_a_whole_game_by_clicks_ends_with_the_markers_revealed(page, lab, secrets_notebooks, artifacts):
    """Every decision the human meets (offers, answers, UN choices, effects) is a button; the end shows the result."""
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-whole.ipynb")
    t = page.locator(TABLE)
    clicked = []
    for _ in range(200):
        page.wait_for_function(f"() => document.querySelector('{TABLE} [data-action]')"
                               f" || document.querySelector('{TABLE} [data-testid=\"result\"]')", timeout=30_000)
        if t.locator("[data-testid='result']").count():
            break
        button = t.locator("[data-action]").first
        clicked.append(button.get_attribute("data-action"))
        before = t.locator("[data-testid='log']").text_content()
        button.click()
        page.wait_for_function(f"(b) => document.querySelector(\"{TABLE} [data-testid='log']\").textContent !== b",
                               arg=before, timeout=30_000)
    shoot(page, artifacts, "secrets-07-game-over")
    rep = run_report(page)
    assert [a for p, a in rep["history"] if p == "Ann"] == clicked
    assert all(t.locator(f"[data-seat='{p}'] [data-marker]").get_attribute("data-marker") == rep["identities"][p]
               for p in PLAYERS)
    assert "Winners" in t.locator("[data-testid='result']").text_content()


def test_hot_seat_curtain_hides_the_marker_until_reveal(page, lab, secrets_notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-hotseat.ipynb")
    t = page.locator(TABLE)
    t.locator("[data-testid='curtain']").wait_for(timeout=30_000)
    shoot(page, artifacts, "secrets-04-curtain")
    assert_axe_finds_no_serious_or_critical_violation(page)      # behind the hot seat's curtain
    assert "Hand the screen to Ann" in t.locator("[data-testid='curtain']").text_content()
    assert t.locator("[data-marker='CIA'], [data-marker='KGB'], [data-marker='Hippie']").count() == 0
    assert t.locator("[data-action]").count() == 0
    t.locator("[data-control='reveal']").click()
    t.locator("[data-action^='offer ']").first.wait_for(timeout=30_000)
    rep = run_report(page)
    assert t.locator("[data-seat='Ann'] [data-marker]").get_attribute("data-marker") == rep["identities"]["Ann"]
    shoot(page, artifacts, "secrets-05-revealed")


def test_a_replay_opens_at_step_0(page, lab, secrets_notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-replay.ipynb")
    t = page.locator(TABLE)
    step = t.locator("[data-bind='replay']")
    step.wait_for(timeout=30_000)
    shoot(page, artifacts, "secrets-06-replay-step-0")
    t.locator("[data-control='replay']").wait_for(timeout=30_000)
    assert_axe_finds_no_serious_or_critical_violation(page)      # a replay
    assert re.fullmatch(r"0 / \d+", step.text_content())
    assert t.locator("[data-control='replay']").input_value() == "0"
    assert t.locator("[data-testid='view-label']").text_content() == "Replay, Ann's view"
    assert t.locator("[data-card]").count() == len(t.locator("[data-testid='candidates'] [data-card]").all())
    t.locator("[data-replay-step='+1']").click()
    page.wait_for_function(f"() => document.querySelector(\"{TABLE} [data-bind='replay']\")"
                           ".textContent.startsWith('1 ')", timeout=15_000)
    assert run_report(page)["index"] == 1


def test_a_player_called_you_reads_right_with_a_title_a_headline_and_the_cards_in_words(page, lab, secrets_notebooks,
                                                                                       artifacts):
    """Issue 24, item 3: "Your view", "You are", no "You's" / "You (you)" / "Ass"; each card's value and effect on
    hover (title), on focus (the legend's line) and in the legend; the controls in sight at 1366x768."""
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-you.ipynb")
    t = page.locator(TABLE)
    t.locator("[data-action^='offer ']").first.wait_for(timeout=30_000)
    shoot(page, artifacts, "secrets-08-you")
    assert t.locator("[data-testid='view-label']").text_content() == "Your view"
    assert t.locator("[data-testid='title']").text_content() == "Secrets"
    assert t.locator("[data-testid='headline']").text_content().endswith("Your decision: offer a card to another player")
    text = t.text_content()
    for wrong in ("You's", "You (you)", "You is ", "You looks", "You accepts", "Belief of You", ">Ass<"):
        assert wrong not in text, wrong
    assert t.locator("[data-belief-slot='You'] th").text_content() == "You"
    assert "Your belief" in t.locator("[data-testid='belief'] h4").text_content()
    assert not re.search(r"\bAss\b", text)
    chip = t.locator("[data-testid='candidates'] [data-card]").first
    name, title = chip.text_content(), chip.get_attribute("title")
    assert title.startswith(f"{name} (") and "points" in title and "):" in title
    chip.focus()
    page.wait_for_function(f"(t) => document.querySelector(\"{TABLE} [data-testid='card-info']\").textContent === t",
                           arg=title, timeout=5_000)
    assert t.locator("[data-testid='card-legend'] li").count() == 8
    for sel in ("[data-action]", "[data-control='pause']", "[data-control='step']"):   # nothing cut off
        for i in range(t.locator(sel).count()):
            assert inside(t.locator(sel).nth(i).bounding_box()), sel
    assert t.locator("[data-testid='live']").get_attribute("aria-live") == "polite"
    assert t.get_attribute("role") != "application"


def test_keys_play_a_decision_and_the_focus_stays_on_the_table(page, lab, secrets_notebooks, artifacts):
    """The numbered decision keys act; redrawing after the bots' answers keeps the keyboard focus in the table."""
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "secrets-human.ipynb")
    t = page.locator(TABLE)
    first = t.locator("[data-action]").first
    first.wait_for(timeout=30_000)
    offer = first.get_attribute("data-action")
    assert first.get_attribute("aria-keyshortcuts") == "1"
    first.focus()
    page.keyboard.press("1")
    page.wait_for_function(f"""() => [...document.querySelectorAll('{TABLE} [data-testid="log"] li')]
        .some((li) => /^Bob (accepts|refuses)\\./.test(li.textContent))""", timeout=30_000)
    assert page.evaluate(f"() => document.querySelector('{TABLE}').contains(document.activeElement)"), \
        "the focus fell out of the table"
    assert ["Ann", offer] in run_report(page)["history"]      # (running the report cell moves the focus)
