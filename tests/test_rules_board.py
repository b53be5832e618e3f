"""The board, the agents, the card table, the rule set and the action notation.

docs/rules.md#board and docs/rules.md#set-up; docs/notation.md for the grammar.
"""
from __future__ import annotations

from math import comb

import networkx as nx
import pytest

from heimlich_lab import AGENTS, COLOURS, Action, HeimlichError, NotationError, Rules
from heimlich_lab.rules.actions import FACES, check_player_name
from heimlich_lab.rules.allocations import allocation_table
from heimlich_lab.rules.board import (BUILDING_VALUES, DOSSIER_MARK, FINISH, SAFE_START, board_graph,
                                      building_name, clockwise_distance, index_of, parse_building, step,
                                      value_of)
from heimlich_lab.rules.cards import CARD_CODES, CARDS, DEFAULT_DECK


# ----------------------------------------------------------------------------- board
def test_ring_of_twelve_buildings_clockwise_church_1_to_10_ruins():
    assert BUILDING_VALUES == (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3)
    # walking clockwise from the Church visits 1..10, the Ruins, then the Church again
    walk, i = [], index_of(0)
    for _ in range(13):
        walk.append(value_of(i))
        i = step(i, 1)
    assert walk == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3, 0]


def test_steps_wrap_both_ways_and_distances_are_clockwise():
    assert value_of(step(index_of(10), 1)) == -3
    assert value_of(step(index_of(10), 2)) == 0
    assert value_of(step(index_of(0), -1)) == -3
    assert value_of(step(index_of(1), -2)) == -3
    assert clockwise_distance(10, 0) == 2
    assert clockwise_distance(0, 10) == 10
    assert clockwise_distance(5, 5) == 0
    assert clockwise_distance(-3, 1) == 2


def test_board_graph_is_a_directed_12_cycle():
    g = board_graph()
    assert g.number_of_nodes() == 12 and g.number_of_edges() == 12
    assert all(g.out_degree(v) == 1 and g.in_degree(v) == 1 for v in g)
    cycle = nx.find_cycle(g, source=0)
    assert len(cycle) == 12
    assert list(g.successors(10)) == [-3] and list(g.successors(-3)) == [0]
    assert g.nodes[-3]["name"] == "ruins" and g.nodes[0]["name"] == "church"


def test_building_names_parse_and_print():
    for v in BUILDING_VALUES:
        assert parse_building(building_name(v)) == v
        assert parse_building(str(v)) == v
    assert parse_building(" Ruins ") == -3 and parse_building("CHURCH") == 0


@pytest.mark.parametrize("bad", ["11", "-1", "bank", "", "7.5"])
def test_unknown_buildings_are_notation_errors(bad):
    with pytest.raises(NotationError):
        parse_building(bad)


def test_track_constants():
    assert (FINISH, DOSSIER_MARK, SAFE_START) == (42, 29, 7)


def test_agents_names_and_colours_in_set_up_order():
    assert [(a.name, a.colour) for a in AGENTS] == [
        ("Schulz", "grey"), ("Perry", "yellow"), ("Bucci", "orange"), ("Jaques", "red"),
        ("Mirkov", "green"), ("Doyle", "blue"), ("Larsson", "violet")]
    assert COLOURS == tuple(a.colour for a in AGENTS)
    assert [a.letter for a in AGENTS] == list("SPBJMDL")


# ----------------------------------------------------------------------------- cards and rules
def test_default_deck_matches_rules_md():
    expected = {"back12": 2, "step1": 2, "twoback": 2, "twofwd": 2, "safestep": 2, "ruins": 2, "church": 1,
                "swap": 1, "join": 1, "rescue": 2, "fwd123": 2, "tosafe": 2, "placesafe": 2, "bonus": 2,
                "second": 1}
    assert dict(DEFAULT_DECK) == expected
    assert sum(DEFAULT_DECK.values()) == 26
    assert set(CARDS) == set(CARD_CODES) == set(expected)
    assert all(CARDS[c].text and CARDS[c].targets for c in CARD_CODES)


def test_seven_players_remove_the_second_agent_card():
    assert sum(Rules(top_secret=True).deck_for(7).values()) == 25
    assert Rules(top_secret=True).deck_for(7)["second"] == 0
    for n in range(2, 7):
        assert sum(Rules(top_secret=True).deck_for(n).values()) == 26


def test_custom_deck_is_a_data_table():
    r = Rules(top_secret=True, deck={"ruins": 5, "church": 1})
    d = r.deck_for(4)
    assert d["ruins"] == 5 and d["church"] == 1 and sum(d.values()) == 6
    assert Rules.from_dict(r.to_dict()) == r
    with pytest.raises(HeimlichError, match="unknown card code"):
        Rules(deck={"joker": 1})
    with pytest.raises(HeimlichError, match="whole numbers"):
        Rules(deck={"ruins": -1})


@pytest.mark.parametrize("n, k", [(2, 5), (3, 6), (4, 7), (5, 7), (6, 7), (7, 7)])
def test_agents_per_player_count(n, k):
    agents = Rules().agents_for(n)
    assert len(agents) == k and agents == COLOURS[:k]


def test_agents_choice_and_its_errors():
    r = Rules(agents=("violet", "red", "blue", "green", "yellow"))
    assert r.agents_for(2) == ("yellow", "red", "green", "blue", "violet")   # board order
    with pytest.raises(HeimlichError, match="3 players use 6 agents"):
        r.agents_for(3)
    with pytest.raises(HeimlichError, match="unknown agent colour"):
        Rules(agents=("pink",))
    with pytest.raises(HeimlichError, match="repeat"):
        Rules(agents=("red", "red"))
    for n in (1, 8):
        with pytest.raises(HeimlichError, match="2 to 7 players"):
            Rules().agents_for(n)


def test_rules_options_and_dict_round_trip():
    with pytest.raises(HeimlichError, match="safe_destination"):
        Rules(safe_destination="anywhere")
    r = Rules(top_secret=True, dossier=True, safe_destination="unoccupied", agents=COLOURS[:6])
    assert Rules.from_dict(r.to_dict()) == r and hash(Rules.from_dict(r.to_dict())) == hash(r)
    with pytest.raises(HeimlichError, match="unknown rule option"):
        Rules.from_dict({"top_secret": True, "house_rule": 1})


# ----------------------------------------------------------------------------- allocations
@pytest.mark.parametrize("n_agents", [5, 6, 7])
@pytest.mark.parametrize("points", [1, 2, 3, 4, 5, 6])
def test_allocation_tables_are_every_split_exactly_once(n_agents, points):
    t = allocation_table(n_agents, points)
    assert len(t) == comb(n_agents + points - 1, points)          # multisets of size `points`
    assert (t.sum(axis=1) == points).all() and (t >= 0).all()
    assert len({tuple(r) for r in t}) == len(t)
    assert (t.max(axis=1) >= 1).all()                               # at least one agent moves
    assert not t.flags.writeable


# ----------------------------------------------------------------------------- notation
ROUND_TRIP = [
    "roll 1-3", "roll 2", "roll 6", "points 0", "points 3", "move red+2", "move grey+1 yellow+1 violet+4",
    "safe church", "safe ruins", "safe 4", "announce yes", "announce no", "pass", "done",
    "play back12 red-1", "play back12 red-2", "play step1 blue+1", "play step1 blue-1", "play twoback grey red",
    "play twofwd yellow violet", "play safestep green-1", "play safestep green+1", "play ruins orange",
    "play church", "play swap red blue", "play join blue red", "play rescue red", "play rescue red blue",
    "play fwd123 grey+3", "play tosafe violet", "play placesafe ruins", "play placesafe 10",
    "play bonus red blue", "play second", "dossier red=Bob", "dossier grey=free", "dossier red=?", "dossier ?",
    "deal Ann=red Bob=grey", "deal ?", "draw fwd123", "draw ?", "take violet", "take ?"]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_notation_round_trips(text):
    a = Action.parse(text)
    assert Action.parse(str(a)) == a
    assert str(Action.parse(str(a))) == str(a)
    assert eval(repr(a), {"Action": Action}) == a


def test_canonical_forms():
    assert str(Action.parse("move blue+3 red+2")) == "move red+2 blue+3"
    assert Action.parse("move blue+3 red+2") == Action.parse("move red+2 blue+3")
    assert str(Action.parse("play swap blue red")) == "play swap red blue"
    assert str(Action.parse("play rescue violet grey")) == "play rescue grey violet"
    # join is ordered: the first agent moves to the second
    assert str(Action.parse("play join blue red")) == "play join blue red"
    assert Action.parse("safe -3") == Action.parse("safe ruins") and Action.parse("safe 0") == Action.parse(
        "safe church")
    assert str(Action.parse("  MOVE   red+1 ")) == "move red+1"


def test_constructors_agree_with_parse():
    assert Action.move({"blue": 3, "red": 2, "grey": 0}) == Action.parse("move red+2 blue+3")
    assert Action.play("fwd123", "red", 2) == Action.parse("play fwd123 red+2")
    assert Action.play("placesafe", -3) == Action.parse("play placesafe ruins")
    assert Action.play("swap", "blue", "red") == Action.parse("play swap red blue")
    assert Action.safe(0) == Action.parse("safe church")
    assert Action.roll(2) == Action.parse("roll 2") and Action.points(0) == Action.parse("points 0")
    assert Action.announce(True) == Action.parse("announce yes")
    assert Action.dossier("red", "free") == Action.parse("dossier red=free")
    assert Action.deal({"Ann": "red", "Bob": "grey"}) == Action.parse("deal Ann=red Bob=grey")
    assert Action.draw("ruins") == Action.parse("draw ruins") and Action.take("red") == Action.parse("take red")


def test_action_properties():
    assert Action.parse("move red+2 blue+3").steps == {"red": 2, "blue": 3}
    assert Action.parse("play ruins red").card == "ruins" and Action.parse("pass").card is None
    assert [Action.parse(t).is_chance for t in ("deal ?", "roll 2", "draw ruins", "take red", "move red+1",
                                               "pass")] == [True, True, True, True, False, False]
    assert Action.parse("draw ?").is_redacted and Action.parse("dossier ?").is_redacted
    assert Action.parse("dossier ?").args == ("?", "?") and Action.parse("dossier red=?").is_redacted
    assert not Action.parse("draw ruins").is_redacted
    assert FACES == ("1-3", "2", "3", "4", "5", "6")


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("jump red+1", "unknown action"),
    ("roll 7", "does not exist"),
    ("roll", "takes 1 argument"),
    ("points 4", "0, 1, 2 or 3"),
    ("move", "at least one agent"),
    ("move red", "agent and a step"),
    ("move red-1", "forward only"),
    ("move red+0", "forward only"),
    ("move pink+1", "not an agent colour"),
    ("move red+1 red+2", "named twice"),
    ("safe 11", "no building"),
    ("safe", "takes 1 argument"),
    ("announce maybe", "announce yes or announce no"),
    ("pass now", "takes 0 argument"),
    ("play", "name a card"),
    ("play joker red", "unknown card"),
    ("play fwd123 red+4", r"not \+4"),
    ("play back12 red+1", r"by -1, -2, not \+1"),
    ("play fwd123 red blue", "one target"),
    ("play swap red", "two different agents"),
    ("play swap red red", "two different agents"),
    ("play join red red", "cannot join itself"),
    ("play rescue red red", "two different agents"),
    ("play rescue red blue grey", "one or two agents"),
    ("play ruins", "takes one agent"),
    ("play placesafe", "one building"),
    ("play placesafe 12", "no building"),
    ("play church red", "takes no target"),
    ("dossier red", "AGENT=PLAYER"),
    ("dossier pink=Bob", "not an agent colour"),
    ("dossier red=free agent", "takes 1 argument"),
    ("deal Ann", "PLAYER=COLOUR"),
    ("deal Ann=pink", "not an agent colour"),
    ("draw joker", "unknown card"),
    ("take pink", "not an agent colour"),
])
def test_malformed_notation_says_what_is_wrong(text, words):
    with pytest.raises(NotationError, match=words):
        Action.parse(text)


def test_parse_rejects_non_strings_and_passes_actions_through():
    a = Action.parse("pass")
    assert Action.parse(a) is a
    with pytest.raises(NotationError, match="not int"):
        Action.parse(3)


@pytest.mark.parametrize("name", ["Ann", "bob_2", "Dr.No", "X-9", "A" * 24])
def test_player_names_allowed(name):
    assert check_player_name(name) == name


@pytest.mark.parametrize("name", ["", "2pac", "Ann Lee", "free", "Chance", "spectator", "A" * 25, "Ann=red"])
def test_player_names_refused(name):
    with pytest.raises(NotationError, match="not allowed"):
        check_player_name(name)


# ----------------------------------------------------------------------------- the docs agree with the code
DOCS = __import__("pathlib").Path(__file__).resolve().parent.parent / "docs"


def test_every_example_in_the_notation_doc_parses_and_is_canonical_or_round_trips():
    import re
    text = re.sub(r"```.*?```", "", (DOCS / "notation.md").read_text(), flags=re.S).replace("``", "")
    kinds = ("roll", "points", "move", "safe", "announce", "play", "pass", "done", "dossier", "deal", "draw",
             "take")
    examples = [m for m in re.findall(r"`([^`]+)`", text)
                if m.split()[0] in kinds and not any(t in m for t in ("AGENT", "CARD", "FACE", "BUILDING",
                                                                       "PLAYER", "STEP", "TARGETS", "N"))]
    bad_examples = {"move red+1 red+2", "move red-1", "move pink+1", "play fwd123 red+4", "play back12 red+1",
                    "play swap red red", "play church red", "play joker", "roll 7", "points 4", "safe 11",
                    "dossier red", "deal Ann", "move", "play swap blue red", "move blue+3 red+2"}
    assert len(examples) > 40
    for ex in examples:
        if ex in bad_examples:
            if ex not in ("play swap blue red", "move blue+3 red+2"):
                with pytest.raises(NotationError):
                    Action.parse(ex)
            continue
        a = Action.parse(ex)
        assert Action.parse(str(a)) == a


def test_every_rule_key_the_code_raises_is_documented():
    import re
    src = __import__("pathlib").Path(__file__).resolve().parent.parent / "heimlich_lab"
    keys = set()
    for f in [*(src / "games" / "heimlich" / "rules").glob("*.py"), *(src / "engine").glob("*.py"),
              src / "games" / "heimlich" / "play.py"]:
        keys |= set(re.findall(r'rule="([a-z0-9-]+)"', f.read_text()))
    keys.add("legal-actions")                         # the default of IllegalAction
    doc = (DOCS / "rules.md").read_text()
    documented = set(re.findall(r"\*\*([a-z0-9-]+)\*\*", doc))
    assert keys - {"bot"} <= documented, keys - documented
    assert {"turn-spend-all-points", "safe-moves", "option-safe-destination", "card-no-target",
            "top-secret-round", "dossier-sheet", "second-agent", "setup-deal", "phase", "turn-order", "chance",
            "card-in-hand", "card-supply", "agents-in-play", "game-end", "die-1-3"} <= keys


# ----------------------------------------------------------------------------- the graph is the truth
def _walk(g, v, n, forward=True):
    for _ in range(n):
        (v,) = g.successors(v) if forward else g.predecessors(v)
    return v


@pytest.mark.parametrize("building", BUILDING_VALUES)
def test_the_engine_moves_agents_along_the_board_graph(building):
    """The engine's moves (die steps forward, cards back) agree with board_graph() from every building."""
    from heimlich_lab import Game, Position
    graph = board_graph()
    agents = COLOURS[:5]
    for n in range(1, 7):
        start = Position(positions={c: (building if c == "red" else 0) for c in agents},
                         owners={"Ann": "red", "Bob": "grey"}, decision="move",
                         die=str(n) if n >= 2 else "1-3", points=n, safe=SAFE_START)
        game = Game(["Ann", "Bob"], chance="manual", start=start)
        game.apply(f"move red+{n}")
        assert game.positions["red"] == _walk(graph, building, n), (building, n)
    # backwards: the twoback card moves two agents one building back (anticlockwise)
    start = Position(positions={c: (building if c in ("red", "green") else 0) for c in agents},
                     owners={"Ann": "red", "Bob": "grey"}, decision="move", die="2", points=2,
                     hands={"Ann": ["twoback"]}, safe=SAFE_START)
    game = Game(["Ann", "Bob"], rules=Rules(top_secret=True), chance="manual", start=start)
    game.apply("move grey+2")           # church -> 2: no scoring; then the Top Secret round
    game.apply("announce yes")
    game.apply("play twoback red green")
    back = _walk(graph, building, 1, forward=False)
    assert game.positions["red"] == game.positions["green"] == back
