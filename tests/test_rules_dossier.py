"""The Secret Dossier variant: the sheet at 29, its entries, +5 per correct entry before the winner is decided
(docs/rules.md#secret-dossier-variant)."""
from __future__ import annotations

import copy

import pytest

from heimlich_lab import Game, IllegalAction, Position, PositionError, Rules

P3 = ["Ann", "Bob", "Cy"]
OWN3 = {"Ann": "red", "Bob": "grey", "Cy": "blue"}        # 6 agents: yellow, orange, green are free
AG6 = ("grey", "yellow", "orange", "red", "green", "blue")
DOS = Rules(dossier=True)
DOS_TS = Rules(dossier=True, top_secret=True)
TRUE_SHEETS = {"Ann": {"grey": "Bob", "yellow": "free", "orange": "free", "green": "free", "blue": "Cy"},
               "Bob": {"yellow": "free", "orange": "free", "red": "Ann", "green": "free", "blue": "Cy"},
               "Cy": {"grey": "Bob", "yellow": "free", "orange": "free", "red": "Ann", "green": "free"}}


def game(positions, scores, points=2, rules=DOS, sheets=None, owners=OWN3, hands=None, active="Ann"):
    start = Position(positions={c: 0 for c in AG6} | positions, owners=owners,
                     scores={c: 0 for c in AG6} | scores, active=active, decision="move",
                     die=str(points) if points > 1 else "1-3", points=points, dossier_sheets=sheets,
                     hands=hands)
    return Game(P3, rules=rules, chance="manual", start=start)


def fill(g: Game, entries: dict[str, dict[str, str]]):
    """Write the sheets: ``entries[player][agent]``; returns the order in which (player, agent) were asked."""
    asked = []
    while g.phase == "dossier":
        p = g.current_player
        agent = g.legal_actions()[0].args[0]
        asked.append((p, agent))
        g.apply(f"dossier {agent}={entries[p][agent]}", player=p)
    return asked


def test_the_first_marker_at_29_opens_the_dossier_for_every_player():
    g = game({"red": 5}, {"red": 25})
    g.apply("move red+2")
    assert g.scores["red"] == 32 and g.phase == "dossier"
    assert [k for k, _, _ in g.events][-2:] == ["score", "dossier_mark"]
    # from the active player clockwise, one entry per agent other than the writer's own, in board order
    asked = fill(g, TRUE_SHEETS)
    assert asked == [("Ann", c) for c in AG6 if c != "red"] + [("Bob", c) for c in AG6 if c != "grey"] + \
        [("Cy", c) for c in AG6 if c != "blue"]
    assert g.dossier_sheets == TRUE_SHEETS
    # then the turn goes on: the active player moves the safe
    assert g.phase == "safe" and g.current_player == "Ann"
    assert [k for k, _, _ in g.events][-1] == "dossier_done"


def test_reaching_exactly_29_counts_and_28_does_not():
    g = game({"red": 5}, {"red": 22})
    g.apply("move red+2")
    assert g.scores["red"] == 29 and g.phase == "dossier"
    g = game({"red": 5}, {"red": 21})
    g.apply("move red+2")
    assert g.scores["red"] == 28 and g.phase == "safe"


def test_entries_are_opponents_or_free():
    g = game({"red": 5}, {"red": 25})
    g.apply("move red+2")
    assert sorted(str(a) for a in g.legal_actions()) == ["dossier grey=Bob", "dossier grey=Cy", "dossier grey=free"]
    before = copy.deepcopy((g.history, g.events, g.dossier_sheets, g.phase))
    for bad in ["dossier grey=Ann", "dossier yellow=Bob", "dossier red=Bob", "dossier grey=Zed"]:
        with pytest.raises(IllegalAction) as e:
            g.apply(bad)
        assert e.value.rule == "dossier-sheet" and "grey" in str(e.value)
        assert copy.deepcopy((g.history, g.events, g.dossier_sheets, g.phase)) == before
    with pytest.raises(IllegalAction, match="turn-order"):
        g.apply("dossier grey=Bob", player="Bob")
    # a name may be written more than once
    g.apply("dossier grey=Cy")
    g.apply("dossier yellow=Cy")
    assert g.dossier_sheets["Ann"] == {"grey": "Cy", "yellow": "Cy"}


def test_the_dossier_is_written_only_once():
    sheets = TRUE_SHEETS
    g = game({"red": 5}, {"red": 20, "grey": 30}, sheets=sheets)
    g.apply("move red+2")
    assert g.scores["red"] == 27 and g.phase == "safe"
    # a marker that fell back below 29 and reaches it again (or another one does) opens nothing
    g = game({"red": 5}, {"red": 26}, sheets=sheets)
    g.apply("move red+2")
    assert g.scores["red"] == 33 and g.phase == "safe" and not [e for e in g.events if e[0] == "dossier_mark"]


def test_sheets_survive_a_marker_falling_back_below_29():
    g = game({"red": 5, "grey": -3}, {"red": 20, "grey": 30}, sheets=TRUE_SHEETS)
    g.apply("move red+2")
    assert g.scores["grey"] == 27 and max(g.scores.values()) < 29
    again = Game(P3, rules=DOS, chance="manual", start=g.position())    # the position round-trips
    assert again.dossier_sheets == TRUE_SHEETS
    again.apply("safe 3")
    assert again.phase == "roll"


def test_five_points_per_correct_entry_before_the_winner_is_decided():
    # before the sheets: grey (Bob) 49 is ahead of red (Ann) 47
    mixed = {"Ann": TRUE_SHEETS["Ann"],                                                     # 5 right
             "Bob": {"yellow": "Ann", "orange": "Ann", "red": "Cy", "green": "Cy", "blue": "Ann"},  # 0 right
             "Cy": {"grey": "Bob", "yellow": "free", "orange": "Ann", "red": "Bob", "green": "Ann"}}  # 2 right
    g = game({"red": 5, "grey": 10}, {"red": 40, "grey": 39}, sheets=mixed)
    g.apply("move red+2")
    assert g.is_over
    assert g.dossier_bonus == {"Ann": 25, "Bob": 0, "Cy": 10}
    assert g.scores == {"grey": 49, "yellow": 0, "orange": 0, "red": 72, "green": 0, "blue": 10}
    assert g.winners == ("Ann",)
    over = [d for k, _, d in g.events if k == "over"][0]
    assert over["bonus"] == {"Ann": 25, "Bob": 0, "Cy": 10} and over["sheets"] == mixed


def test_the_dossier_can_turn_the_winner():
    wrong = {"Ann": {"grey": "Cy", "yellow": "Cy", "orange": "Bob", "green": "Bob", "blue": "Bob"},
             "Bob": TRUE_SHEETS["Bob"], "Cy": TRUE_SHEETS["Cy"]}
    g = game({"red": 5, "grey": 10}, {"red": 40, "grey": 30, "blue": 20}, sheets=wrong)
    g.apply("move red+2")
    # red 47 +0, grey 40 +25 = 65, blue 20 +25 = 45: Bob wins with his dossier
    assert g.scores["red"] == 47 and g.scores["grey"] == 65 and g.scores["blue"] == 45
    assert g.winners == ("Bob",)


def test_no_scoring_jumps_from_below_29_to_42():
    # so the sheets are always written before the end: a building is worth at most 10 (and bonus stops at 40)
    g = game({"red": 5, "grey": 10}, {"red": 28, "grey": 28})
    g.apply("move red+2")
    assert g.scores["red"] == 35 and g.scores["grey"] == 38 and g.phase == "dossier" and not g.is_over


def test_dossier_in_the_basic_game_without_top_secret_cards():
    g = Game(P3, rules=DOS, seed=4)
    from heimlich_lab.bots import RandomBot
    bot = RandomBot(seed=1)
    while not g.is_over:
        g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
    sheets = g.dossier_sheets
    assert all(set(sheets[p]) == set(g.agents) - set(g.owners[p]) for p in P3)
    assert all(v in ("free", *P3) and v != p for p in P3 for v in sheets[p].values())
    final = g.final_owners
    for p in P3:
        right = sum(1 for a, who in sheets[p].items() if (final[a] or "free") == who)
        assert g.dossier_bonus[p] == 5 * right


def test_a_bonus_card_reaching_29_opens_the_dossier_mid_round():
    g = game({"yellow": 2}, {"red": 27}, rules=DOS_TS, hands={"Ann": ["bonus", "step1"]})
    g.apply("move yellow+2")
    g.apply("announce yes")
    g.apply("play bonus red blue")
    assert g.scores["red"] == 30 and g.phase == "dossier" and g.current_player == "Ann"
    fill(g, TRUE_SHEETS)
    # back in the round, still Ann's opportunity: she may play on or be done
    assert g.phase == "round" and g.current_player == "Ann"
    assert {str(a) for a in g.legal_actions()} >= {"done", "play step1 red+1"}
    g.apply("done")
    g.apply("pass")
    assert g.phase == "roll" and g.dossier_sheets == TRUE_SHEETS


def test_a_two_agent_player_writes_no_entry_for_either_of_their_agents():
    owners = {"Ann": ["red", "orange"], "Bob": "grey", "Cy": "blue"}
    g = game({"red": 5}, {"red": 25}, rules=DOS_TS, owners=owners)
    g.apply("move red+2")
    asked = fill(g, {p: {c: "free" for c in AG6} for p in P3})
    assert [a for p, a in asked if p == "Ann"] == ["grey", "yellow", "green", "blue"]
    assert [a for p, a in asked if p == "Bob"] == ["yellow", "orange", "red", "green", "blue"]


def test_correct_entries_use_the_owners_at_the_end():
    # Ann holds red and orange; orange is behind, so at the end orange counts as free
    owners = {"Ann": ["red", "orange"], "Bob": "grey", "Cy": "blue"}
    sheets = {"Ann": {"grey": "Bob", "yellow": "free", "green": "free", "blue": "Cy"},
              "Bob": {"yellow": "free", "orange": "free", "red": "Ann", "green": "free", "blue": "Cy"},
              "Cy": {"grey": "Bob", "yellow": "free", "orange": "Ann", "red": "Ann", "green": "free"}}
    g = game({"red": 5}, {"red": 38, "orange": 3}, rules=DOS_TS, owners=owners, sheets=sheets)
    g.apply("move red+2")
    assert g.is_over and g.final_owners["orange"] is None
    assert g.dossier_bonus == {"Ann": 20, "Bob": 25, "Cy": 20}


def test_bad_sheets_in_a_position():
    with pytest.raises(PositionError, match="give every player's dossier sheet"):
        game({}, {"red": 30})
    with pytest.raises(PositionError, match="must name exactly the agents"):
        game({}, {"red": 30}, sheets=TRUE_SHEETS | {"Ann": {"grey": "Bob"}})
    with pytest.raises(PositionError, match="name an opponent or 'free'"):
        game({}, {"red": 30}, sheets=TRUE_SHEETS | {"Ann": TRUE_SHEETS["Ann"] | {"grey": "Ann"}})
    with pytest.raises(PositionError, match="Secret Dossier variant"):
        game({}, {}, rules=Rules(), sheets=TRUE_SHEETS)
