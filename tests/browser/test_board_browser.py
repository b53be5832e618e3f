"""The board in a real browser: JupyterLab + headless Chromium (Playwright, sync API).

A human turn is played by clicking (roll, points, +/- allocation, confirm, the safe after a scoring) and
checked on the board drawn AND on the game in the kernel; the hot seat's curtain keeps each human's
secrets out of the DOM; bots play, pause and animate from the kernel; and the latencies of a 7-player
Top Secret game are measured (printed, and written to BENCHMARKS.md by hand). Screenshots: test-artifacts/.
"""
from __future__ import annotations

import json
import statistics

import pytest
from board_page import (
    BOARD,
    SIG,
    act_once,
    agent_building,
    cards_shown,
    click_wait,
    dom,
    open_and_run,
    own_marks,
    screenshot,
    sig,
    timed_click,
    write_board_notebooks,
)
from notebook_page import SCREEN, axe_violations, run_report

pytestmark = pytest.mark.browser


AT = {1: "grey", 2: "yellow", 3: "orange", 4: "red", 5: "green", 6: "blue"}   # an agent n steps before the safe


@pytest.fixture(scope="module")
def notebooks(lab_root, make_notebook):
    write_board_notebooks(lab_root, make_notebook)
    return lab_root


def assert_axe_finds_no_serious_or_critical_violation(page):
    """Issue 24, item 7: axe-core (WCAG 2.1 A/AA) on the board as a classroom screen shows it (1366x768); the
    window gets its size back afterwards. Checked on the board in play, behind the hot seat's curtain and in a
    replay, each in the test that opens that notebook (one kernel and one page for both)."""
    size = page.viewport_size
    page.set_viewport_size(SCREEN)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")   # laid out
    found = axe_violations(page, BOARD)
    page.set_viewport_size(size)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert found == [], json.dumps(found, indent=1)


def assert_a_card_option_previews_its_effect_as_ghosts(page, artifacts):
    """Hovering a card option shows its effect as a ghost (one agent: the option's), its button names the agent
    (its swatch with its letter, then its name); the ghost goes when the pointer leaves."""
    b = page.locator(BOARD)
    option = b.locator("[data-action^='play fwd123']").first
    notation = option.get_attribute("data-action")           # "play fwd123 red+2": red goes 2 forward
    colour = notation.split()[2].split("+")[0]
    page.mouse.move(0, 0)                                  # nothing under the pointer, nothing focused
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-ghost]')", timeout=5_000)
    option.hover()
    page.wait_for_selector(f"{BOARD} [data-ghost='{colour}']", timeout=5_000)
    letter, name = option.text_content().split()[:2]       # the agent's swatch with its letter, then its name
    assert name in ("Schulz", "Perry", "Bucci", "Jaques", "Mirkov", "Doyle") and letter == name[0]
    assert option.locator(f".hb-swatch.hb-c-{colour}").count() == 1
    assert b.locator("[data-ghost]").count() == 1
    b.screenshot(path=str(artifacts / "classroom-05-card-preview.png"))
    b.locator("[data-testid='banner']").hover()
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-ghost]')", timeout=5_000)


# ---------------------------------------------------------------------------- tests
def test_a_human_turn_by_clicking_roll_allocate_confirm_and_move_the_safe(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "turn.ipynb", artifacts, "turn-01-start")
    assert_axe_finds_no_serious_or_critical_violation(page)          # the board in play
    b = page.locator(BOARD)
    # the board drawn: ring of 12 buildings, track 0..42 (no dossier mark: not a dossier game), 6 agents, the safe
    assert b.locator("[data-layer='buildings'] [data-building]").count() == 12
    assert b.locator("[data-track]").count() == 43 and "hb-mark" not in b.locator("[data-track='29']").get_attribute("class")
    assert b.locator("[data-layer='agents'] [data-agent]").count() == 6
    assert b.locator("[data-marker]").count() == 6 and b.locator("[data-safe='7']").count() == 1
    assert b.locator("[data-die]").count() == 1
    assert b.locator("[data-testid='decision']").text_content() == "Ann: roll the die"
    assert b.locator("[data-testid='belief']").get_attribute("data-belief") == "shown"
    assert b.locator("[data-cell]").count() == 3 * 6      # Bob, Cy and free (no row for Ann's own)
    # the information rule in the DOM: only Ann's own agent is marked; nobody's owner is shown
    assert own_marks(page) == ["red"] and b.locator("[data-owner]").count() == 0
    assert b.locator("[data-agent='blue']").get_attribute("aria-label").find("your agent") < 0

    click_wait(page, "[data-action='roll']")
    face = b.locator("[data-die]").get_attribute("data-die")
    screenshot(page, artifacts, "turn-02-rolled")
    if face == "1-3":
        assert b.locator("[data-action^='points ']").count() == 3
        click_wait(page, "[data-action='points 3']")
        n = 3
    else:
        n = int(face)
    colour = AT[7 - n]                                  # the agent n buildings before the safe
    for _ in range(n):
        click_wait(page, f"[data-step='+1'][data-target='{colour}']")
    assert "hb-scores" in b.locator(f"[data-ghost='{colour}']").get_attribute("class")
    assert f"Allocated {n} of {n}" in b.locator(".hb-alloc-status").text_content()
    screenshot(page, artifacts, "turn-03-allocated")

    ms_confirm, _ = timed_click(page, "[data-testid='confirm']",
                             "(r) => r.querySelector('[data-testid=\"decision\"]').textContent.includes('scoring')")
    assert agent_building(page, colour) == "7"
    assert b.locator(f"[data-marker='{colour}']").get_attribute("data-score") == "7"
    assert b.locator("[data-building-action]").count() == 11
    screenshot(page, artifacts, "turn-04-scoring")

    click_wait(page, "[data-building-action='safe 9']")
    assert b.locator("[data-safe='9']").count() == 1
    assert "Bob" in b.locator("[data-testid='decision']").text_content()
    screenshot(page, artifacts, "turn-05-safe-moved")

    rep = run_report(page)                              # the game in the kernel
    mine = [x for a, x in rep["history"] if a == "Ann"]
    assert mine[-2:] == [f"move {colour}+{n}", "safe 9"] and rep["history"][0] == ["chance", f"roll {face}"]
    assert rep["positions"][colour] == 7 and rep["safe"] == 9 and rep["active"] == "Bob"
    expected = {"grey": 1, "yellow": 2, "orange": 3, "red": 4, "green": 5, "blue": 6, colour: 7}
    assert rep["scores"] == expected, "every agent scored its building's value"
    print(f"\nbasic game, 3 players: confirm -> board shows the scoring: {ms_confirm:.1f} ms")


def test_hot_seat_curtain_and_each_humans_own_hand(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "hotseat.ipynb", artifacts, "hotseat-01-curtain-ann")
    assert_axe_finds_no_serious_or_critical_violation(page)          # behind the hot seat's curtain
    b = page.locator(BOARD)
    curtain = b.locator("[data-testid='curtain']")
    assert "Hand the screen to Ann" in curtain.text_content()

    def nothing_private():
        assert cards_shown(page) == [] and own_marks(page) == []
        assert b.locator("[data-testid='hand']").count() == 0 and b.locator("[data-cell]").count() == 0
        assert b.locator("[data-testid='belief']").get_attribute("data-belief") == "hidden"
        assert b.locator("[data-action]").count() == 0

    nothing_private()
    rep = run_report(page)
    click_wait(page, "[data-curtain='reveal']")
    assert sorted(cards_shown(page)) == sorted(rep["hands"]["Ann"]) and len(rep["hands"]["Ann"]) == 2
    assert own_marks(page) == rep["owners"]["Ann"]
    assert b.locator("[data-testid='view-label']").text_content() == "Ann's view"
    assert sorted(dom(page, f"() => [...document.querySelectorAll('{BOARD} [data-hand-size]')]"
                            ".map((e) => e.getAttribute('data-hand-size'))")) == ["Ann", "Bob", "Cy"]
    screenshot(page, artifacts, "hotseat-02-ann")
    for _ in range(40):                                 # Ann plays until the screen must go to Bob
        if curtain.count() and "Hand the screen to Bob" in curtain.text_content():
            break
        if curtain.count():                             # the bot plays under a public curtain
            page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-testid=\"curtain\"]')"
                                   f" || document.querySelector('{BOARD} [data-testid=\"curtain\"]')"
                                   ".textContent.includes('Hand the screen')", timeout=20_000)
            if "Hand the screen to Ann" in (curtain.text_content() if curtain.count() else ""):
                click_wait(page, "[data-curtain='reveal']")
            continue
        act_once(page)
    assert "Hand the screen to Bob" in curtain.text_content()
    nothing_private()
    screenshot(page, artifacts, "hotseat-03-curtain-bob")
    rep = run_report(page)
    click_wait(page, "[data-curtain='reveal']")
    assert sorted(cards_shown(page)) == sorted(rep["hands"]["Bob"])
    assert own_marks(page) == rep["owners"]["Bob"] and rep["owners"]["Ann"][0] not in own_marks(page)
    assert b.locator("[data-testid='view-label']").text_content() == "Bob's view"
    assert b.locator("[data-testid='belief']").get_attribute("data-belief") == "shown"
    html = dom(page, f"() => document.querySelector('{BOARD}').outerHTML")
    for code in set(rep["hands"]["Ann"]) - set(rep["hands"]["Bob"]):
        assert f'data-card="{code}"' not in html
    screenshot(page, artifacts, "hotseat-04-bob")


def test_bots_only_autoplay_play_moves_and_pause(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "bots.ipynb", artifacts, "bots-01-start")
    b = page.locator(BOARD)
    assert b.locator("[data-testid='view-label']").text_content().startswith("Spectator")
    assert b.locator("[data-control='pause']").is_disabled() and own_marks(page) == []
    n0 = b.locator("[data-testid='log'] li").count()
    moves_before = dom(page, f"() => [...document.querySelectorAll('{BOARD} [data-agent]')].map((e) => e.style.transform)")
    b.locator("[data-control='play']").click()
    page.wait_for_function(f"(n) => document.querySelectorAll('{BOARD} [data-testid=\"log\"] li').length > n + 12",
                           arg=n0, timeout=30_000)
    moves_after = dom(page, f"() => [...document.querySelectorAll('{BOARD} [data-agent]')].map((e) => e.style.transform)")
    assert moves_after != moves_before, "agents moved on the board"
    duration = dom(page, f"() => getComputedStyle(document.querySelector('{BOARD} [data-agent]')).transitionDuration")
    prop = dom(page, f"() => getComputedStyle(document.querySelector('{BOARD} [data-agent]')).transitionProperty")
    assert "transform" in prop and duration == "0.12s", (prop, duration)   # moves animate at the autoplay pace
    screenshot(page, artifacts, "bots-02-playing")
    b.locator("[data-control='pause']").click()
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-control=\"play\"]').disabled", timeout=10_000)
    page.wait_for_timeout(300)
    frozen = sig(page)
    page.wait_for_timeout(800)
    assert sig(page) == frozen, "nothing moves after Pause"
    rep = run_report(page)
    assert rep["playing"] is False and len(rep["history"]) > 12
    click_wait(page, "[data-control='step']")          # one more decision on demand
    screenshot(page, artifacts, "bots-03-paused")


def test_speed_of_a_seven_player_top_secret_game(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "speed.ipynb", artifacts, "speed-01-start")
    b = page.locator(BOARD)
    assert b.locator("[data-agent]").count() == 7 and b.locator("[data-hand-size]").count() == 7
    assert sorted(cards_shown(page)) == ["fwd123", "swap"]
    assert b.locator("[data-cell]").count() == 7 * 7        # six opponents and 'free' (no row for Ann's own)
    for _ in range(6):
        click_wait(page, "[data-step='+1'][data-target='grey']")
    # done = the board shows grey moved AND the belief panel shows the belief after the move (its version,
    # the number of decisions the belief has seen, changes; the notes and heatmap come with it)
    version = b.locator("[data-testid='belief']").get_attribute("data-belief-version")
    assert version is not None
    human, _ = timed_click(page, "[data-testid='confirm']",
                        "(r) => (r.querySelector('[data-agent=\"grey\"]').getAttribute('aria-label') || '').includes(' in 6')"
                        " && r.querySelector('[data-testid=\"belief\"]').getAttribute('data-belief-version') !== "
                        + json.dumps(version))
    assert int(b.locator("[data-testid='belief']").get_attribute("data-belief-version")) > int(version)
    screenshot(page, artifacts, "speed-02-after-confirm")
    # the human announces whether to play a card (hand: fwd123, swap): say no, then time the bots' decisions
    if b.locator("[data-action='announce no']").count():
        click_wait(page, "[data-action='announce no']")
    bot_ms, belief_ms, shown = [], [], []
    for _ in range(12):
        if not b.locator("[data-control='step']").is_enabled():
            break
        last = b.locator("[data-testid='log'] li").last.text_content()
        belief = b.locator("[data-testid='belief']").get_attribute("data-belief-version")
        ms, shown_at = timed_click(page, "[data-control='step']",
                                   "(r) => { const l = r.querySelector('[data-testid=\"log\"]'); return l"
                                   f" && l.lastElementChild && l.lastElementChild.textContent !== {json.dumps(last)}; }}")
        bot_ms.append(ms)
        shown.append(shown_at)
        if b.locator("[data-testid='belief']").get_attribute("data-belief-version") != belief:
            belief_ms.append(ms)
        if b.locator("[data-testid='curtain']").count() or b.locator("[data-action]").count():
            break
    screenshot(page, artifacts, "speed-03-bots")
    rep = run_report(page)
    bots_done = [t for t in rep["timings"] if t["what"] == "bot"]
    kernel_bot = [t["seconds"] * 1000 for t in bots_done]
    # the bot's move is made in the kernel at t["end"]; the page drew it at `shown` (same machine clock)
    to_display = [s - t["end"] * 1000 for s, t in zip(shown, bots_done[-len(shown):])]
    kernel_human = [t["seconds"] * 1000 for t in rep["timings"] if t["what"] == "human"]
    assert bot_ms, "no bot decision was timed"
    lines = ["7 players, Top Secret, belief panel on (Chromium headless, JupyterLab, loopback):",
             f"  human confirm -> board + belief panel drawn: {human:.1f} ms (kernel {kernel_human[0]:.1f} ms)",
             f"  bot step click -> its move drawn: median {statistics.median(bot_ms):.1f} ms, "
             f"max {max(bot_ms):.1f} ms over {len(bot_ms)} (kernel median {statistics.median(kernel_bot):.1f} ms)",
             f"  bot move made in the kernel -> drawn in the page: median {statistics.median(to_display):.1f} ms, "
             f"max {max(to_display):.1f} ms"]
    if belief_ms:
        lines.append(f"  of which the belief panel changed: median {statistics.median(belief_ms):.1f} ms "
                     f"over {len(belief_ms)}")
    print("\n" + "\n".join(lines))
    (artifacts / "speed-figures.txt").write_text("\n".join(lines) + "\n")
    (artifacts / "speed-figures.json").write_text(json.dumps({
        "human_confirm_to_board_and_belief_ms": human, "kernel_human_ms": kernel_human[0],
        "bot_step_click_to_drawn_ms": bot_ms, "kernel_bot_ms": kernel_bot,
        "bot_kernel_to_drawn_ms": to_display, "bot_with_belief_change_ms": belief_ms}, indent=1))



def test_keyboard_allocation_and_a_top_secret_card_with_targets(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "keys.ipynb", artifacts, "keys-01-start")
    b = page.locator(BOARD)
    assert sorted(cards_shown(page)) == ["fwd123"]
    b.focus()                                           # keyboard only from here to Enter
    before = sig(page)
    for key in ("s", "+", "+", "+", "-", "j", "+"):     # Schulz (grey) +3 -1, Jaques (red) +1
        page.keyboard.press(key)
    page.wait_for_function(f"(b) => ({SIG})() !== b", arg=before, timeout=10_000)
    page.wait_for_function(f"() => document.querySelector('{BOARD} .hb-alloc-status').textContent.includes('Allocated 3 of 3')",
                           timeout=10_000)
    assert b.locator("[data-step='-1'][data-target='grey']").is_enabled()
    screenshot(page, artifacts, "keys-02-allocated")
    before = sig(page)
    page.keyboard.press("Enter")
    page.wait_for_function(f"(b) => ({SIG})() !== b", arg=before, timeout=15_000)
    page.wait_for_selector(f"{BOARD} [data-action='announce yes']", timeout=15_000)
    rep = run_report(page)
    assert ["Ann", "move grey+2 red+1"] in rep["history"] or ["Ann", "move red+1 grey+2"] in rep["history"]
    assert rep["positions"]["grey"] == 2 and rep["positions"]["red"] == 1 and rep["phase"] == "announce"
    # the Top Secret round: announce (key Y), then play fwd123 on grey (+3) by clicking its button
    page.locator(f"{BOARD} [data-action='announce yes']").focus()
    b.focus()
    page.keyboard.press("y")
    page.wait_for_selector(f"{BOARD} [data-action='play fwd123 grey+3']", timeout=30_000)
    screenshot(page, artifacts, "keys-03-round")
    assert_a_card_option_previews_its_effect_as_ghosts(page, artifacts)     # before playing one of the options
    click_wait(page, "[data-action='play fwd123 grey+3']")
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-card]')", timeout=15_000)
    assert agent_building(page, "grey") == "5"
    rep = run_report(page)
    assert ["Ann", "announce yes"] in rep["history"] and ["Ann", "play fwd123 grey+3"] in rep["history"]
    assert rep["positions"]["grey"] == 5 and rep["hands"]["Ann"] == []
    screenshot(page, artifacts, "keys-04-card-played")


def test_dossier_entry_by_clicking(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "dossier.ipynb", artifacts, "dossier-01-start")
    b = page.locator(BOARD)
    notes_before = b.locator("[data-testid='belief'] .hb-notes li").count()
    click_wait(page, "[data-step='+1'][data-target='grey']")
    click_wait(page, "[data-testid='confirm']")
    page.wait_for_selector(f"{BOARD} [data-action^='dossier ']", timeout=15_000)
    assert "Secret Dossier" in b.locator("[data-testid='decision']").text_content()
    assert b.locator("[data-testid='sheet'] [data-sheet]").count() == 5          # every agent but Ann's own
    assert b.locator("[data-testid='belief'] .hb-notes li").count() >= max(1, notes_before)
    first = b.locator("[data-action^='dossier ']").first.get_attribute("data-action")
    screenshot(page, artifacts, "dossier-02-sheet")
    click_wait(page, f"[data-action='{first}']")
    rep = run_report(page)
    assert ["Ann", first] in rep["history"]
    screenshot(page, artifacts, "dossier-03-entered")


def test_replay_slider_drag_seeks_in_the_kernel(page, lab, notebooks, artifacts):
    open_and_run(page, lab, "replay.ipynb", artifacts, "replay-01-start")
    assert_axe_finds_no_serious_or_critical_violation(page)          # a replay
    b = page.locator(BOARD)
    slider = b.locator("[data-control='replay']")
    last = int(slider.get_attribute("max"))
    assert last > 20 and b.locator("[data-bind='replay']").text_content() == f"0 / {last}"
    target = last // 2
    box = slider.bounding_box()
    x = box["x"] + box["width"] * target / last
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(x, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    # the kernel seeks as the drag's events arrive (a slow machine shows the steps): wait until the board shows
    # the slider's final position. The first seek builds the record's whole history of marginals; in one clean CI
    # run, the other worker busy, the board had not shown it after 15 s: a wait for the kernel, not a speed target
    page.wait_for_function(
        f"""() => {{ const text = document.querySelector('{BOARD} [data-bind="replay"]').textContent;
                      const value = document.querySelector('{BOARD} [data-control="replay"]').value;
                      return !text.startsWith('0 /') && text.startsWith(value + ' /'); }}""", timeout=60_000)
    shown = int(b.locator("[data-bind='replay']").text_content().split(" /")[0])
    assert abs(shown - target) <= max(2, last // 20), (shown, target)
    rep = run_report(page)
    assert rep["index"] == shown and rep["length"] == last + 1
    assert rep["notes"] and len(b.locator("[data-testid='belief'] .hb-notes li").all()) == len(rep["notes"])
    screenshot(page, artifacts, "replay-02-seeked")
