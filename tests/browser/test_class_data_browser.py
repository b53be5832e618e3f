"""The Class data box in a real browser (JupyterLab + headless Chromium): the consent question is shown, the boxes
start unticked, a click on a box reaches the kernel, the finished game is saved only then and unticking deletes it;
a bad folder is shown on the board. Both tables. Screenshots: test-artifacts/."""
from __future__ import annotations

import pytest
from notebook_page import run_all_cells, run_report

pytestmark = pytest.mark.browser

BOX = "[data-testid='class-data']"

SETUP = """import json, random
from pathlib import Path
def play_out(ctl, seed=0):
    # the human's decisions: seeded random legal ones, sent as the board sends a click
    rng = random.Random(seed)
    while not ctl.game.is_over:
        if ctl.run_bots():
            continue
        if ctl.curtain:
            ctl.reveal()
        g = ctl.game
        ctl.send_action("roll" if g.is_chance_node else str(rng.choice(g.legal_actions())))
def report(ctl, folder):
    print("REPORT " + json.dumps({"files": sorted(p.name for p in Path(folder).glob("*.json")),
                                  "consent": ctl.class_saver.consent, "over": ctl.game.is_over}))
"""


@pytest.fixture(scope="module")
def class_notebooks(lab_root, make_notebook):
    folder = lab_root / "class-games"
    folder.mkdir()
    (lab_root / "a-file").write_text("not a folder")
    make_notebook(lab_root / "class-heimlich.ipynb", [
        SETUP +
        "from heimlich_lab.bots import RandomBot\n"
        "from heimlich_lab.widget import play_in_notebook\n"
        f"FOLDER = {str(folder)!r}\n"
        "w = play_in_notebook(['Ann', 'Bob', 'Cy'], bots={'Bob': RandomBot(1), 'Cy': RandomBot(2)}, seed=5,\n"
        "                     beliefs=False, class_folder=FOLDER)\n"
        "ctl = w.controller\n"
        "w",
        "from heimlich_lab.widget import play_in_notebook\n"
        "bad = play_in_notebook(['Ann', 'Bob'], bots={'Bob': RandomBot(3)}, seed=1, beliefs=False,\n"
        f"                       class_folder={str(lab_root / 'a-file')!r})\n"
        "bad",
        "play_out(ctl)\nreport(ctl, FOLDER)",
    ])
    make_notebook(lab_root / "class-secrets.ipynb", [
        SETUP +
        "from heimlich_lab import secrets\n"
        f"FOLDER = {str(folder / 'secrets')!r}\n"
        "w = secrets.play_in_notebook(['Ann', 'Bob', 'Cy', 'Dee'],\n"
        "                             bots={p: secrets.RandomBot(i) for i, p in enumerate(['Bob', 'Cy', 'Dee'])},\n"
        "                             seed=3, beliefs=False, class_folder=FOLDER, create_folder=True)\n"
        "ctl = w.controller\n"
        "w",
        "report(ctl, FOLDER) if Path(FOLDER).exists() else print('REPORT ' + json.dumps({'files': [],\n"
        "    'consent': ctl.class_saver.consent, 'over': ctl.game.is_over}))",
    ])
    return folder


def test_the_board_asks_saves_only_with_consent_and_deletes_on_untick(page, lab, class_notebooks, artifacts):
    run_all_cells(page, lab, "class-heimlich.ipynb")
    box = page.locator(f".heimlich-board {BOX}").first
    box.wait_for(timeout=60_000)
    text = box.locator("[data-testid='class-data-text']").text_content()
    assert text.startswith("Class data: your instructor collects the games") and "class-games" in text
    ann = box.locator("input[data-consent='Ann']")
    assert ann.count() == 1 and not ann.is_checked(), "unticked until Ann ticks it"
    assert box.locator("input[data-consent]").count() == 1, "one box per human: none for the bots"
    bad = page.locator(f".heimlich-board {BOX}").nth(1)
    bad.wait_for(timeout=30_000)
    assert "it is a file, not a folder" in bad.locator("[data-testid='class-data-error']").text_content()
    rep = run_report(page)                       # the game played to its end without consent
    assert rep["over"] and rep["files"] == [] and rep["consent"] == {"Ann": False}
    page.wait_for_function("() => document.querySelector(\"[data-testid='class-data-status']\").textContent"
                           ".startsWith('Not saved: not everyone')", timeout=30_000)
    ann.click()                                  # consent after the end: saved now
    page.wait_for_function("() => document.querySelector(\"[data-testid='class-data-status']\").textContent"
                           ".startsWith('Saved for the class as heimlich-')", timeout=30_000)
    assert ann.is_checked()
    rep = run_report(page)
    assert rep["consent"] == {"Ann": True} and len(rep["files"]) == 1 and rep["files"][0].startswith("heimlich-")
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(artifacts / "class-data-saved.png"))
    ann.click()                                  # taken back: the file is deleted
    page.wait_for_function("() => document.querySelector(\"[data-testid='class-data-status']\").textContent"
                           ".startsWith('Deleted heimlich-')", timeout=30_000)
    assert not ann.is_checked()
    assert run_report(page)["files"] == []


def test_the_secrets_table_asks_too(page, lab, class_notebooks, artifacts):
    run_all_cells(page, lab, "class-secrets.ipynb")
    box = page.locator(f".secrets-table + .st-class-section > {BOX}").first
    box.wait_for(timeout=60_000)
    ann = box.locator("input[data-consent='Ann']")
    assert not ann.is_checked()
    assert "Saved when the game ends if everyone at the table ticks their box (0 of 1 so far)." == \
        box.locator("[data-testid='class-data-status']").text_content()
    ann.click()
    page.wait_for_function("() => document.querySelector(\"[data-testid='class-data-status']\").textContent"
                           ".includes('(1 of 1 so far)')", timeout=30_000)
    assert ann.is_checked()
    rep = run_report(page)
    assert rep["consent"] == {"Ann": True} and rep["files"] == [], "nothing is written before the end"
    box.screenshot(path=str(artifacts / "class-data-secrets.png"))
