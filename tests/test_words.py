"""Sentences read right for any player name, "You" included (issue 13: the first notebook's human is "You")."""
from __future__ import annotations

import re

import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import RandomBot
from heimlich_lab.rules.views import view_label
from heimlich_lab.rules.words import for_any_name, possessive
from heimlich_lab.transcript import transcript

#: "You's", or "You" with a verb of the third person ("You rolls", "You already holds"; "You pass" is right)
BAD_ENGLISH = re.compile(r"\bYou's\b|\bYou (?:already )?(?:is|has|does|[a-z]+[^s\W]s)\b")


@pytest.mark.parametrize("rules", [Rules(), Rules(top_secret=True, dossier=True)])
def test_a_game_with_a_player_called_you_reads_right(rules):
    rec = play(rules, {"You": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=7)
    lines = transcript(rec, "You") + transcript(rec, "omniscient") + transcript(rec, "Bob")
    assert lines[0] == "Transcript: Your view"
    bad = [line for line in lines if BAD_ENGLISH.search(line)]
    assert bad == []
    assert any(re.search(r"Turn \d+: You roll \d", line) for line in lines)
    assert any(re.search(r"Turn \d+: Bob rolls \d", line) for line in lines)   # others keep the third person


def test_the_choice_to_draw_reads_right_for_any_name():
    rec = play(Rules(top_secret=True), {"You": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=4)
    lines = set(transcript(rec, "omniscient"))
    for line in ["You choose to draw a Top Secret card.", "You choose not to draw.",
                 "Bob chooses to draw a Top Secret card.", "Bob chooses not to draw.",
                 "You choose 0 points: no move, a Top Secret card instead."]:
        assert line in lines, f"{line!r} missing from the transcript"
    assert not any("may draw" in line or "draws a card instead" in line for line in lines)


def test_the_check_finds_bad_english():
    assert BAD_ENGLISH.search("Turn 2: You rolls 4.") and BAD_ENGLISH.search("You's view")
    assert not BAD_ENGLISH.search(for_any_name("Turn 2: You rolls 4. You passes. You's view. You is dealt."))


def test_names_that_merely_start_like_you_are_left_alone():
    assert for_any_name("Youssef rolls 4. Bob's view") == "Youssef rolls 4. Bob's view"
    assert possessive("Youssef") == "Youssef's" and view_label("You") == "Your view"
