"""The readings of the rules do what docs/rules.md says (issue 23, item 13): Rules(safe_mover="creator") lets the
creator of the triggers still standing move the safe (docs/rules.md#editions), not whoever created a trigger last;
the page's reason for the drawing option names the default the code has (docs/rules.md#drawing-cards)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from heimlich_lab import Game, Position, Rules
from heimlich_lab.rules.actions import Action

PLAYERS = ("Ann", "Bob", "Cy")


def _game(hands, positions, mover="creator"):
    rules = Rules(top_secret=True, safe_mover=mover)
    agents = rules.agents_for(len(PLAYERS))
    start = Position(positions={c: 0 for c in agents} | positions, owners={"Ann": "grey", "Bob": "yellow",
                                                                             "Cy": "orange"},
                     safe=7, active="Ann", decision="move", die="2",
                     hands={p: [] for p in PLAYERS} | hands, supply=None, supply_ordered=False, discards=None)
    return Game(PLAYERS, rules=rules, chance="manual", start=start)


def _round(g, plays):
    """Announce (those with cards say yes), then each player's cards in turn, then passes to the end."""
    while g.phase == "announce":
        g.apply("announce yes")
    while g.phase == "round":
        p = g.current_player
        if plays.get(p):
            g.apply(plays[p].pop(0), player=p)
        else:
            g.apply("done" if Action.parse("done") in g.legal_actions() else "pass")


@pytest.mark.parametrize("mover, who", [("creator", "Ann"), ("active", "Ann")])
def test_the_creator_of_the_trigger_still_standing_moves_the_safe(mover, who):
    """Ann's die move puts red on the safe; Bob's card puts blue there; Cy's card sends blue to the Ruins. Only
    red's trigger remains, so Ann moves the safe (Bob's trigger was cancelled)."""
    g = _game({"Bob": ["tosafe"], "Cy": ["ruins"]}, {"red": 5, "blue": 2}, mover)
    g.apply("move red+2")
    _round(g, {"Bob": ["play tosafe blue"], "Cy": ["play ruins blue"]})
    assert g.positions["red"] == 7 and g.positions["blue"] == -3
    assert g.phase == "safe" and g.current_player == who


def test_the_latest_creator_among_the_triggers_still_standing_moves_the_safe():
    """Ann's move puts red on the safe, Bob's card puts blue there and both stand: Bob made the last one."""
    g = _game({"Bob": ["tosafe"]}, {"red": 5, "blue": 2})
    g.apply("move red+2")
    _round(g, {"Bob": ["play tosafe blue"]})
    assert g.phase == "safe" and g.current_player == "Bob"
    g.apply("safe 3", player="Bob")
    assert g.active_player == "Bob" and g.phase in ("roll", "points")       # the die passes on as always


def test_a_cancelled_creator_gives_the_safe_to_the_one_standing_even_in_a_copy():
    g = _game({"Bob": ["tosafe"], "Cy": ["ruins"]}, {"red": 5, "blue": 2})
    g.apply("move red+2")
    while g.phase == "announce":
        g.apply("announce yes")
    g.apply("play tosafe blue", player="Bob")
    twin = g.copy()                                 # the creators travel with the game
    for game in (g, twin):
        game.apply("done")
        _round(game, {"Cy": ["play ruins blue"]})
        assert game.current_player == "Ann"


def test_the_reason_given_for_drawing_cards_agrees_with_the_default():
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("### Drawing cards", 1)[1].split("\n### ", 1)[0]
    why = re.search(r"^\*Why:\*(.*?)(?:\n\n|\Z)", section, re.S | re.M).group(1)
    default, other = Rules().draws, next(v for v in ("may", "always") if v != Rules().draws)
    assert "default draws without asking" not in why
    assert f'default (`draws="{default}"`)' in why and f'`draws="{other}"`' in why
    assert ("asks" in why) == (default == "may")
    # and the option's own list says the same
    assert f'`Rules(draws="{default}")` makes it a decision' in section and "the books' reading\n  is the default" in section
