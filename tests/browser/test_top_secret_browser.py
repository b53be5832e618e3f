"""The Top Secret flow on the board in a real browser (issue 24, item 5): a bot's card play is shown and animated
with what it did, "since your last turn" lists it, the table answers the human's card questions that have one
answer (the kernel records them) and the human's own box turns that off; the cards have keys. Screenshots:
test-artifacts/."""
from __future__ import annotations

import pytest
from board_page import BOARD, REPORT, click_wait, open_and_run, screenshot
from notebook_page import run_report

pytestmark = pytest.mark.browser

CARD_BOT = (
    "class CardBot:\n"
    "    '''Plays a card whenever it can, else the last legal action (announce yes, done).'''\n"
    "    def choose(self, view, legal):\n"
    "        plays = [a for a in legal if str(a).startswith('play ')]\n"
    "        return plays[0] if plays else legal[-1]\n")


@pytest.fixture(scope="module")
def card_notebooks(lab_root, make_notebook):
    make_notebook(lab_root / "botcard.ipynb", [
        CARD_BOT +
        "from heimlich_lab import Position, Rules\n"
        "from heimlich_lab.widget import GameController\n"
        "rules = Rules(top_secret=True)\n"
        "start = Position(positions={c: 0 for c in rules.agents_for(3)},\n"
        "                 owners={'Ann': 'red', 'Bob': 'blue', 'Cy': 'green'},\n"
        "                 safe=7, active='Bob', decision='move', die='2',\n"
        "                 hands={'Ann': ['rescue'], 'Bob': ['fwd123'], 'Cy': []})\n"
        "ctl = GameController(['Ann', 'Bob', 'Cy'], bots={'Bob': CardBot(), 'Cy': CardBot()}, rules=rules, seed=5,\n"
        "                     start=start, autoplay=False, speed_ms=100, beliefs=False)\n"
        "ctl.widget",
        "import json\n"
        "print('REPORT ' + json.dumps({'history': [[a, str(x)] for a, x in ctl.game.history],\n"
        "                              'only_playable': ctl.only_playable, 'answered_for': ctl.answered_for}))",
    ])
    make_notebook(lab_root / "cardkeys.ipynb", [
        "from heimlich_lab import Position, Rules\n"
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import GameController\n"
        "rules = Rules(top_secret=True)\n"
        "start = Position(positions={c: 0 for c in rules.agents_for(3)},\n"
        "                 owners={'Ann': 'red', 'Bob': 'blue', 'Cy': 'green'},\n"
        "                 safe=7, active='Ann', decision='move', die='3',\n"
        "                 hands={'Ann': ['fwd123', 'tosafe'], 'Bob': [], 'Cy': []})\n"
        "ctl = GameController(['Ann', 'Bob', 'Cy'], bots={'Bob': RandomBot(1), 'Cy': RandomBot(2)}, rules=rules,\n"
        "                     seed=5, start=start, autoplay=False, speed_ms=100, beliefs=False)\n"
        "ctl.widget",
        REPORT + "report(ctl)",
    ])
    return lab_root


def test_a_bots_card_play_is_shown_animated_and_listed_and_forced_answers_are_given(page, lab, card_notebooks,
                                                                                     artifacts):
    open_and_run(page, lab, "botcard.ipynb")
    b = page.locator(BOARD)
    assert b.locator("[data-testid='card-play']").count() == 0
    box = b.locator("[data-ask-cards='Ann']")
    assert box.is_checked()                                   # the default: ask only when a card can act
    for _ in range(12):                                       # Bob moves, announces, plays his card
        if b.locator("[data-testid='card-play']").count():
            break
        click_wait(page, "[data-control='step']")
    card = b.locator("[data-testid='card-play']")
    assert card.count() == 1
    assert "hb-card-play-new" in card.get_attribute("class")          # animated when it arrives
    assert card.locator(".hb-card-play-head").text_content() == \
        "Bob plays a Top Secret card: One agent 1, 2 or 3 buildings forward"
    assert card.locator("[data-agent-letter]").count() >= 1          # the moved agent with its letter
    animation = page.evaluate(f"() => getComputedStyle(document.querySelector('{BOARD} [data-testid=\"card-play\"]'))"
                              ".animationName")
    assert "hb-card-in" in animation
    since = b.locator("[data-testid='since']").text_content()
    assert "Bob plays fwd123 (One agent 1, 2 or 3 buildings forward)" in since
    screenshot(page, artifacts, "top-secret-01-bot-card")
    rep = run_report(page)
    anns = [x for p, x in rep["history"] if p == "Ann"]
    assert "announce no" in anns, "Ann's only answer was given for her and recorded"
    # Ann turns the preference off: the kernel keeps it
    box.click()
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-ask-cards=\"Ann\"]').checked", timeout=15_000)
    rep = run_report(page)
    assert rep["only_playable"] == {"Ann": False} and rep["answered_for"]["Ann"] >= 1


def test_the_cards_have_keys(page, lab, card_notebooks, artifacts):
    open_and_run(page, lab, "cardkeys.ipynb")
    b = page.locator(BOARD)
    for _ in range(3):
        click_wait(page, "[data-step='+1'][data-target='grey']")
    click_wait(page, "[data-testid='confirm']")
    b.locator("[data-action='announce yes']").wait_for(timeout=15_000)
    b.focus()
    before = page.evaluate(f"() => document.querySelector('{BOARD} [data-testid=\"decision\"]').textContent")
    page.keyboard.press("y")
    page.wait_for_function(f"(b) => document.querySelector('{BOARD} [data-testid=\"decision\"]').textContent !== b",
                           arg=before, timeout=15_000)
    b.locator("[data-card-key='1']").wait_for(timeout=15_000)
    assert b.locator("[data-card-key]").all_text_contents() == ["1", "2"]
    page.keyboard.press("1")                  # fwd123 has several options: the first gets the focus
    focused = page.evaluate("() => document.activeElement.getAttribute('data-action')")
    assert focused.startswith("play fwd123 ")
    screenshot(page, artifacts, "top-secret-02-card-keys")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => !document.querySelector('{BOARD} [data-card-key=\"1\"]')"
                           f" || document.querySelectorAll('{BOARD} [data-card-key]').length < 2", timeout=15_000)
    rep = run_report(page)
    assert any(p == "Ann" and x.startswith("play fwd123 ") for p, x in rep["history"])
