"""The classroom board (issue 13) in a real browser: JupyterLab + headless Chromium (Playwright, sync API).

On one 1366x768 screen (and narrower) with the file browser open; the turn banner against the kernel's game
through a Top Secret round; a human called "You" reads right; the end table and a replay at step 0 (that a card
option previews its effect is checked in test_board_browser.py, in the keyboard test, which opens the same
notebook). Split from test_board_browser.py so that the two files can run on different workers.
Screenshots: test-artifacts/.
"""
from __future__ import annotations

import re

import pytest
from board_page import (
    BAD_ENGLISH,
    BOARD,
    STICKING_OUT,
    act_once,
    assert_one_screen,
    board_top,
    click_wait,
    dom,
    look_at,
    open_and_run,
    show_file_browser,
    write_board_notebooks,
)
from notebook_page import SCREEN, run_report

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def notebooks(lab_root, make_notebook):
    write_board_notebooks(lab_root, make_notebook)
    return lab_root


def test_board_decision_and_heatmap_on_one_1366x768_screen(page, lab, notebooks, artifacts):
    """JupyterLab at its default zoom with the file browser open, at 1366x768 and at 1024x768 (the board smaller,
    the right column compact); really narrow (800 px, file browser open) the columns stack; then 1024 px wide
    with the file browser folded away."""
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "classroom.ipynb")
    show_file_browser(page)
    b = page.locator(BOARD)
    b.locator("[data-action='roll']").wait_for(timeout=30_000)
    boxes = look_at(page, b, SCREEN, artifacts, "classroom-01-one-screen-1366x768")
    assert_one_screen(boxes, SCREEN, "1366x768, file browser open")
    # the rest (the hand, what happened, the log, the keys) folds away; keyboard use is described
    assert b.locator("details[data-fold='log'] > summary").text_content() == "Log"
    assert "Keys" in b.locator("details[data-fold='help']").text_content()
    # 1024x768 with the file browser still open: the board smaller, the right column compact, nothing sticks out
    narrow = {"width": 1024, "height": 768}
    tight = look_at(page, b, narrow, artifacts, "classroom-02a-1024-file-browser-open")
    assert_one_screen(tight, narrow, "1024x768, file browser open")
    assert tight["board"]["width"] < boxes["board"]["width"], "the board scales with the width"
    assert page.evaluate(STICKING_OUT) == []
    # really narrow (about 370 px of board): one column, the board first
    stacked = look_at(page, b, {"width": 800, "height": 768}, artifacts, "classroom-02b-800-stacked")
    assert stacked["decision"]["y"] >= stacked["board"]["y"] + stacked["board"]["height"], "decision below the board"
    assert page.evaluate(STICKING_OUT) == []
    # 1024 px wide, the file browser folded away: still one screen
    page.set_viewport_size(narrow)
    show_file_browser(page, False)
    assert_one_screen(look_at(page, b, narrow, artifacts, "classroom-02c-1024-file-browser-folded"), narrow,
                      "1024x768, file browser folded")


def test_the_turn_banner_follows_the_game_through_a_top_secret_round(page, lab, notebooks, artifacts):
    """Step the bots one decision at a time; at each, the banner is checked against the kernel's game."""
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "banner.ipynb")
    b = page.locator(BOARD)
    seen_round = shot = False
    for _ in range(80):
        rep = run_report(page)
        banner = b.locator("[data-testid='banner']").text_content()
        active, decider = rep["active"], rep["decider"]
        assert banner.startswith("Your turn" if active == "You" else f"{active}'s turn"), (banner, rep["phase"])
        if decider and decider != active:
            assert f". {decider}: " in banner, (banner, decider)
        if rep["phase"] == "round" and decider != active:
            seen_round = True
            if not shot:
                b.screenshot(path=str(artifacts / "classroom-03-banner-top-secret-round.png"))
                shot = True
        elif seen_round and rep["phase"] not in ("round", "announce"):
            break                                           # one whole Top Secret round checked
        assert not BAD_ENGLISH.search(banner)
        click_wait(page, "[data-control='step']")
    assert seen_round, "no Top Secret round where another player decides"


def test_a_human_called_you_reads_right_in_the_dom(page, lab, notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "you.ipynb")
    b = page.locator(BOARD)
    texts = []
    for _ in range(30):
        texts.append(b.inner_text())
        texts.append(dom(page, f"() => [...document.querySelectorAll('{BOARD} [title], {BOARD} [aria-label]')]"
                               ".map((e) => `${e.getAttribute('title') || ''} ${e.getAttribute('aria-label') || ''}`)"
                               ".join('\\n')"))
        if b.locator("[data-testid='result'] table").count():
            break
        decision = f"{BOARD} [data-action], {BOARD} [data-testid='allocation'], {BOARD} [data-testid='result'] table"
        page.wait_for_selector(decision, timeout=30_000)          # the bots have played
        if not b.locator("[data-testid='result'] table").count():
            act_once(page)
    texts.append(b.text_content())          # also what is folded away
    b.screenshot(path=str(artifacts / "classroom-04-you.png"))
    # a largest update links to its turn in the log
    b.locator("details[data-fold='belief-more'] > summary").click()
    link = b.locator("[data-log-turn]").first
    turn = link.get_attribute("data-log-turn")
    link.click()
    assert b.locator("details[data-fold='log']").get_attribute("open") is not None
    marked = b.locator("[data-testid='log'] li.hb-highlight")
    in_log = [t for t in b.locator("[data-testid='log'] li").all_text_contents() if t.startswith(f"Turn {turn}:")]
    assert marked.count() >= len(in_log) and (not in_log or marked.first.text_content() == in_log[0])
    bad = sorted({m.group(0) for t in texts for m in BAD_ENGLISH.finditer(t)})
    assert bad == []
    assert "Your view" in texts[0] and re.search(r"\bYou control ", "\n".join(texts))
    assert re.search(r"\bYou roll \d", "\n".join(texts))


def test_the_end_table_the_controls_off_and_a_replay_at_step_0(page, lab, notebooks, artifacts):
    page.set_viewport_size(SCREEN)
    open_and_run(page, lab, "end.ipynb")
    end, replay = page.locator(BOARD).nth(0), page.locator(BOARD).nth(1)
    table = end.locator("[data-testid='result'] table")
    table.wait_for(timeout=30_000)
    rep = run_report(page)
    rows = end.locator("[data-result]")
    assert rows.count() == len(rep["scores"])
    finals = [int(r.locator("td").nth(4).text_content()) for r in rows.all()]
    assert finals == sorted(rep["scores"].values(), reverse=True)
    assert end.locator("[data-control='step']").is_disabled() and end.locator("[data-control='play']").is_disabled()
    assert end.locator("[data-testid='banner']").text_content().startswith("Game over")
    end.scroll_into_view_if_needed()
    end.screenshot(path=str(artifacts / "classroom-06-end-table.png"))
    # beside the file browser at 1024x768 the table fits its compact column
    page.set_viewport_size({"width": 1024, "height": 768})
    show_file_browser(page)
    board_top(page, end)
    assert page.evaluate(STICKING_OUT) == []
    end.screenshot(path=str(artifacts / "classroom-06b-end-table-1024.png"))
    page.set_viewport_size(SCREEN)
    # the replay opens at the start (no spoiler), past tense, and lists no play keys
    assert replay.locator("[data-bind='replay']").text_content().startswith("0 / ")
    assert replay.locator("[data-testid='result']").count() == 0
    assert " were " in replay.locator("[data-testid='banner']").text_content() \
        or " was " in replay.locator("[data-testid='banner']").text_content()
    help_text = replay.locator("details[data-fold='help']").text_content()
    assert "[" in help_text and "roll" not in help_text and "confirm" not in help_text
    replay.scroll_into_view_if_needed()
    replay.screenshot(path=str(artifacts / "classroom-07-replay-step-0.png"))
