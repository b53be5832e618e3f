"""The Top Secret variant: the deck, drawing, the round, triggers, every card, the second agent, and the
rulebook's whole Top Secret example (docs/rules.md#top-secret-variant)."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from heimlich_lab import Action, Game, IllegalAction, Position, Rules
from heimlich_lab.rules.cards import CARD_CODES

TS = Rules(top_secret=True)
FOUR = ["Ann", "Bob", "Cy", "Dee"]
OWN4 = {"Ann": "red", "Bob": "blue", "Cy": "green", "Dee": "violet"}     # grey, yellow, orange are free
AG7 = ("grey", "yellow", "orange", "red", "green", "blue", "violet")
BIG = Rules(top_secret=True, deck={c: 16 for c in CARD_CODES})   # enough copies to give everyone the same card


def ts(positions=None, hands=None, *, decision="move", die="2", points=None, safe=7, scores=None, active="Ann",
       supply=None, ordered=False, discards=None, rules=TS, players=FOUR, owners=OWN4):
    """A manual-chance Top Secret game from a hand-made position (agents in the Church unless given)."""
    agents = rules.agents_for(len(players))
    start = Position(positions={c: 0 for c in agents} | (positions or {}), owners=owners,
                     scores=None if scores is None else {c: 0 for c in agents} | scores, safe=safe, active=active,
                     decision=decision, die=die if decision in ("move", "points") else None,
                     points=points, hands={p: [] for p in players} | (hands or {}), supply=supply,
                     supply_ordered=ordered, discards=discards)
    return Game(players, rules=rules, chance="manual", start=start)


def announce(g: Game, yes=()):
    """Answer the announcements: the players in ``yes`` want to play. Returns who was asked, in order."""
    asked = []
    while g.phase == "announce":
        p = g.current_player
        asked.append(p)
        g.apply("announce yes" if p in yes else "announce no", player=p)
    return asked


def events(g: Game, kind: str) -> list[dict]:
    return [d for k, _, d in g.events if k == kind]


def frozen(g: Game):
    return copy.deepcopy(dict(phase=g.phase, current=g.current_player, positions=g.positions, scores=g.scores,
                              safe=g.safe, triggers=g.triggers, hands=g.hands, supply=g.supply_size,
                              discards=g.discards, owners=g.owners, history=list(g.history),
                              events=list(g.events), legal=g.legal_actions()))


# ----------------------------------------------------------------------------- deck and set-up
def test_each_player_draws_two_cards_in_seat_order_after_the_deal():
    g = Game(["Ann", "Bob", "Cy"], rules=TS, chance="manual")
    g.apply("deal Ann=red Bob=grey Cy=blue")
    cards = ["ruins", "swap", "bonus", "second", "church", "rescue"]
    for c in cards:
        assert g.phase == "draw" and g.is_chance_node
        g.apply(f"draw {c}")
    assert [d["player"] for d in events(g, "draw")] == ["Ann", "Ann", "Bob", "Bob", "Cy", "Cy"]
    assert g.hands == {"Ann": ["ruins", "swap"], "Bob": ["bonus", "second"], "Cy": ["church", "rescue"]}
    assert g.supply_size == 20 and g.phase == "roll"
    assert [g.recipients[i] for i in range(1, 7)] == ["Ann", "Ann", "Bob", "Bob", "Cy", "Cy"]


@pytest.mark.parametrize("n", range(2, 8))
def test_deck_size_and_opening_hands(n):
    g = Game([f"P{i}" for i in range(n)], rules=TS, seed=n)
    assert all(len(h) == 2 for h in g.hands.values())
    in_game = Counter(g.discards) + Counter(c for h in g.hands.values() for c in h)
    assert g.supply_size + sum(in_game.values()) == (25 if n == 7 else 26)
    full = g.position()
    everything = Counter(full.supply) + in_game
    assert everything == Counter(Rules(top_secret=True).deck_for(n))
    assert ("second" in everything) == (n < 7)


def test_draw_probabilities_follow_the_supply_counts():
    g = ts(hands={"Ann": ["ruins"]}, decision="points", die="1-3")
    g.apply("points 0")
    g.apply("collect yes")                        # the books' "may draw": Ann chooses to draw
    outs = dict((str(a), p) for a, p in g.chance_outcomes())
    deck = Counter(TS.deck_for(4))                # the supply: the deck without Ann's card
    deck["ruins"] -= 1
    total = sum(deck.values())
    assert outs == {f"draw {c}": pytest.approx(deck[c] / total) for c in CARD_CODES if deck[c]}
    assert sum(outs.values()) == pytest.approx(1)


# ----------------------------------------------------------------------------- die rule and drawing
def test_points_zero_moves_nothing_and_draws_a_card():
    g = ts(positions={"red": 4}, hands={"Ann": ["ruins"]}, decision="points", die="1-3")
    assert [str(a) for a in g.legal_actions()] == ["points 0", "points 1", "points 2", "points 3"]
    before = g.positions
    g.apply("points 0")
    assert g.phase == "collect" and not g.is_chance_node and g.current_player == "Ann"    # she *may* draw
    g.apply("collect yes")
    assert g.phase == "draw" and g.is_chance_node
    g.apply("draw swap")
    assert g.hands["Ann"] == ["ruins", "swap"] and g.positions == before
    assert not events(g, "move") and g.recipients[len(g.history) - 1] == "Ann"
    assert g.phase == "announce" and g.current_player == "Ann"


def test_a_player_who_may_draw_can_decline():
    g = ts(hands={"Ann": ["ruins"]}, decision="points", die="1-3")
    supply = g.supply_size
    g.apply("points 0")
    g.apply("collect no")
    assert g.phase == "announce" and g.hands["Ann"] == ["ruins"] and g.supply_size == supply
    assert events(g, "collect") == [{"player": "Ann", "want": False}]


def test_hand_limit_four_no_draw():
    g = ts(hands={"Ann": ["ruins", "swap", "bonus", "rescue"]}, decision="points", die="1-3")
    supply = g.supply_size
    g.apply("points 0")
    assert not g.is_chance_node and g.phase == "announce"
    assert len(g.hands["Ann"]) == 4 and g.supply_size == supply
    assert events(g, "no_draw") == [{"player": "Ann", "reason": "hand-limit"}]


def test_hand_limit_applies_to_a_die_move_into_the_ruins():
    g = ts(positions={"red": 10}, hands={"Ann": ["step1", "swap", "bonus", "rescue"]}, die="1-3", points=1)
    g.apply("move red+1")
    assert g.positions["red"] == -3 and len(g.hands["Ann"]) == 4 and g.phase == "announce"
    assert events(g, "no_draw")[0]["reason"] == "hand-limit"


def test_die_move_ending_agents_in_the_ruins_draws_one_card_however_many():
    g = ts(positions={"red": 10, "blue": 9}, hands={"Ann": []}, die="3", points=3)
    g.apply("move red+1 blue+2")
    assert g.positions["red"] == g.positions["blue"] == -3
    assert g.phase == "collect"
    g.apply("collect yes")
    assert g.phase == "draw"
    g.apply("draw swap")
    assert g.phase == "announce" and g.hands["Ann"] == ["swap"]       # one card, not two
    assert len(events(g, "draw")) == 1


def test_die_move_through_the_ruins_or_beside_an_agent_in_the_ruins_draws_nothing():
    g = ts(positions={"red": 10, "blue": -3}, hands={"Ann": ["swap"]}, die="2", points=2)
    g.apply("move red+2")                                              # 10 -> ruins -> church
    assert g.positions["red"] == 0 and g.phase == "announce" and g.hands["Ann"] == ["swap"]


def test_active_player_draws_one_card_per_card_played_ending_agents_in_the_ruins():
    g = ts(positions={"red": 10, "blue": 10, "yellow": 3}, hands={"Ann": ["twofwd", "ruins"]})
    g.apply("move grey+2")
    announce(g, yes={"Ann"})
    g.apply("play twofwd red blue")                                    # two agents into the Ruins: one card
    assert g.phase == "collect"
    g.apply("collect yes")
    assert g.phase == "draw"
    g.apply("draw swap")
    g.apply("play ruins yellow")                                       # a second card into the Ruins: one more
    g.apply("collect yes")
    g.apply("draw bonus")
    assert g.hands["Ann"] == ["swap", "bonus"] and g.phase == "round" and g.current_player == "Ann"


def test_nobody_draws_for_a_card_played_by_a_player_who_is_not_active():
    g = ts(positions={"red": 5}, hands={"Ann": ["swap"], "Bob": ["ruins"], "Cy": ["join"]})
    g.apply("move grey+2")
    announce(g, yes={"Bob"})
    supply, hands = g.supply_size, g.hands
    g.apply("play ruins red", player="Bob")
    assert g.positions["red"] == -3
    assert not g.is_chance_node and g.supply_size == supply
    assert g.hands["Ann"] == hands["Ann"] and g.hands["Cy"] == hands["Cy"] and g.hands["Bob"] == []


def test_empty_supply_reshuffles_the_discards():
    deck = {"ruins": 1, "fwd123": 1, "step1": 1}
    rules = Rules(top_secret=True, deck=deck)
    g = ts(hands={"Ann": ["ruins"]}, decision="points", die="1-3", supply=[], discards=["fwd123", "step1"],
           rules=rules)
    g.apply("points 0")
    g.apply("collect yes")
    assert g.phase == "draw" and g.discards == [] and g.supply_size == 2
    assert events(g, "reshuffle") == [{"cards": 2}]
    assert {str(a): p for a, p in g.chance_outcomes()} == {"draw step1": 0.5, "draw fwd123": 0.5}
    g.apply("draw step1")
    assert g.hands["Ann"] == ["ruins", "step1"] and g.supply_size == 1


def test_empty_supply_and_empty_discards_nothing_is_drawn():
    rules = Rules(top_secret=True, deck={"ruins": 1})
    g = ts(hands={"Ann": ["ruins"]}, decision="points", die="1-3", supply=[], discards=[], rules=rules)
    g.apply("points 0")
    assert g.phase == "announce" and g.hands["Ann"] == ["ruins"]
    assert events(g, "no_draw") == [{"player": "Ann", "reason": "no-cards"}]


def test_auto_chance_reshuffle_keeps_cards_conserved():
    rules = Rules(top_secret=True, deck={"ruins": 1, "fwd123": 1, "step1": 1})
    start = Position(positions={c: 0 for c in AG7}, owners=OWN4, decision="points", die="1-3", active="Ann",
                     hands={"Ann": ["ruins"]}, supply=[], discards=["fwd123", "step1"])
    g = Game(FOUR, rules=rules, seed=3, start=start)
    g.apply("points 0")
    g.apply("collect yes")
    assert len(g.hands["Ann"]) == 2 and g.supply_size == 1 and g.discards == []


# ----------------------------------------------------------------------------- announcements and the round
def test_announcements_go_clockwise_from_the_active_player_and_skip_empty_hands():
    g = ts(hands={"Ann": ["swap"], "Cy": ["swap"], "Dee": ["swap"]}, active="Cy", rules=BIG)
    g.apply("move grey+2", player="Cy")
    asked = announce(g)
    assert asked == ["Cy", "Dee", "Ann"]                               # Bob holds no card: not asked
    assert [d["player"] for d in events(g, "announce")] == ["Cy", "Dee", "Ann"]
    assert events(g, "no_round") == [{}] and g.active_player == "Dee" and g.phase == "roll"


def test_a_player_with_no_playable_card_can_only_say_no():
    g = ts(hands={"Ann": ["safestep", "rescue"]})          # nobody at the safe, nobody in the Ruins
    g.apply("move grey+2")
    assert g.phase == "announce" and [str(a) for a in g.legal_actions()] == ["announce no"]
    before = frozen(g)
    with pytest.raises(IllegalAction) as e:
        g.apply("announce yes")
    assert e.value.rule == "card-no-target"
    assert frozen(g) == before


def test_nobody_has_cards_no_round_and_the_trigger_scores():
    g = ts(positions={"red": 5})
    g.apply("move red+2")
    assert events(g, "no_round") == [{}] and g.phase == "safe" and g.scores["red"] == 7


def test_the_active_player_acts_first_if_they_want_to():
    g = ts(hands={"Ann": ["swap"], "Bob": ["swap"], "Cy": ["swap"], "Dee": ["swap"]}, positions={"red": 4},
           rules=BIG)
    g.apply("move grey+2")
    announce(g, yes={"Ann", "Cy"})
    assert g.phase == "round" and g.current_player == "Ann"
    assert events(g, "round_start") == [{"player": "Ann"}]


def test_otherwise_the_first_wanting_player_clockwise_from_the_active_player_begins_and_must_play():
    g = ts(hands={"Ann": ["swap"], "Bob": ["swap"], "Cy": ["swap"], "Dee": ["swap"]}, positions={"red": 4},
           active="Cy", rules=BIG)
    g.apply("move grey+2")
    announce(g, yes={"Ann", "Bob"})                         # Cy no, Dee no, Ann yes, Bob yes
    assert g.current_player == "Ann"
    assert Action.parse("pass") not in g.legal_actions() and Action.parse("done") not in g.legal_actions()
    before = frozen(g)
    with pytest.raises(IllegalAction) as e:
        g.apply("pass")
    assert e.value.rule == "top-secret-round" and "play a card" in str(e.value)
    with pytest.raises(IllegalAction, match="has not played a card"):
        g.apply("done")
    assert frozen(g) == before


def test_the_round_ends_after_every_player_passed_in_a_row():
    hands = {p: ["step1", "step1", "step1"] for p in FOUR}
    g = ts(hands=hands, positions={"red": 4}, rules=BIG)
    g.apply("move grey+2")
    announce(g, yes={"Bob"})
    order = []
    g.apply("play step1 red+1"); order.append(("Bob", "play"))
    g.apply("done")
    for p in ["Cy", "Dee", "Ann"]:                          # a player who said no may play on their turn
        assert g.current_player == p
        g.apply("pass")
    assert g.current_player == "Bob"                        # three passes of four: Bob again
    g.apply("play step1 red-1")
    g.apply("done")
    for p in ["Cy", "Dee"]:
        g.apply("pass")
    assert g.current_player == "Ann"
    g.apply("play step1 red+1")                              # a card resets the count
    g.apply("done")
    for p in ["Bob", "Cy", "Dee"]:
        assert g.current_player == p and g.phase == "round"
        g.apply("pass")
    assert g.current_player == "Ann" and g.phase == "round"
    g.apply("pass")
    assert events(g, "round_end") == [{}]
    assert g.phase == "roll" and g.active_player == "Bob"


def test_players_out_of_cards_are_skipped_and_count_as_passing():
    g = ts(hands={"Ann": ["step1"], "Bob": ["step1"], "Cy": [], "Dee": ["step1"]}, positions={"red": 4}, rules=BIG)
    g.apply("move grey+2")
    announce(g, yes={"Ann"})
    g.apply("play step1 red+1")
    assert g.hands["Ann"] == [] and [str(a) for a in g.legal_actions()] == ["done"]
    g.apply("done")
    assert g.current_player == "Bob"
    g.apply("pass")
    assert g.current_player == "Dee"                         # Cy has no card
    g.apply("pass")
    # Ann has no card either: Bob, Cy, Dee, Ann = four passes, the round is over
    assert g.phase == "roll" and events(g, "round_end") == [{}]


def test_several_cards_in_one_opportunity_in_the_players_order():
    g = ts(hands={"Ann": ["fwd123", "tosafe", "ruins"]}, positions={"red": 1, "blue": 3})
    g.apply("move grey+2")
    announce(g, yes={"Ann"})
    g.apply("play fwd123 blue+3")
    g.apply("play tosafe red")
    assert g.current_player == "Ann" and Action.parse("done") in g.legal_actions()
    assert g.positions["blue"] == 6 and g.positions["red"] == 7 and g.triggers == ["red"]
    g.apply("done")
    assert g.current_player == "Ann"          # Bob, Cy, Dee hold no card; Ann still holds one
    g.apply("pass")
    assert g.phase == "safe" and g.scores["red"] == 7 and g.scores["blue"] == 6


def test_cards_only_from_the_hand():
    g = ts(hands={"Ann": ["step1"]}, positions={"red": 4})
    g.apply("move grey+2")
    announce(g, yes={"Ann"})
    before = frozen(g)
    with pytest.raises(IllegalAction) as e:
        g.apply("play church")
    assert e.value.rule == "card-in-hand"
    assert frozen(g) == before


# ----------------------------------------------------------------------------- triggers
def test_a_card_moving_the_triggering_agent_away_cancels_the_trigger():
    g = ts(positions={"red": 5}, hands={"Bob": ["step1"]})
    g.apply("move red+2")
    assert g.triggers == ["red"]
    announce(g, yes={"Bob"})
    g.apply("play step1 red+1")
    assert g.triggers == []
    g.apply("done")
    assert g.phase == "roll" and g.scores["red"] == 0 and g.active_player == "Bob"


def test_only_the_moved_agents_trigger_is_cancelled():
    g = ts(positions={"red": 5, "blue": 4}, hands={"Bob": ["step1"]}, die="5", points=5)
    g.apply("move red+2 blue+3")
    assert g.triggers == ["red", "blue"]
    announce(g, yes={"Bob"})
    g.apply("play step1 red-1")
    g.apply("done")
    assert g.phase == "safe" and g.scores["red"] == 6 and g.scores["blue"] == 7


def test_place_the_safe_cancels_triggers_and_never_scores_by_itself():
    g = ts(positions={"red": 5, "blue": 4, "green": 4}, hands={"Bob": ["placesafe"]})
    g.apply("move red+2")
    announce(g, yes={"Bob"})
    g.apply("play placesafe 4")                              # blue and green stand on 4: no scoring
    assert g.safe == 4 and g.triggers == []
    g.apply("done")
    assert g.scores == {c: 0 for c in AG7} and g.phase == "roll" and g.safe == 4


def test_a_card_move_to_the_safe_creates_a_trigger_that_scores_after_the_round():
    g = ts(positions={"red": 3, "yellow": 10}, hands={"Bob": ["tosafe"]})
    g.apply("move grey+2")
    assert g.triggers == []
    announce(g, yes={"Bob"})
    g.apply("play tosafe red")
    assert g.triggers == ["red"] and g.phase == "round"      # scoring waits for the end of the round
    g.apply("done")
    assert g.phase == "safe" and g.scores["red"] == 7 and g.scores["yellow"] == 10 and g.scores["grey"] == 2
    assert g.current_player == "Ann"                         # the active player moves the safe


def test_moving_an_agent_onto_the_safe_again_restores_its_trigger():
    g = ts(positions={"red": 6}, hands={"Bob": ["step1", "step1"]}, die="1-3", points=1)
    g.apply("move red+1")
    announce(g, yes={"Bob"})
    g.apply("play step1 red+1")
    assert g.triggers == []
    g.apply("play step1 red-1")
    assert g.triggers == ["red"]


# ----------------------------------------------------------------------------- every card
CARD_CASES = [
    # card play, positions before, positions after (changed agents), triggers after
    ("play back12 red-1", {"red": 5}, {"red": 4}, []),
    ("play back12 red-2", {"red": 5}, {"red": 3}, []),
    ("play step1 red+1", {"red": 5}, {"red": 6}, []),
    ("play step1 red-1", {"red": 0}, {"red": -3}, []),
    ("play twoback red blue", {"red": 5, "blue": 8}, {"red": 4, "blue": 7}, ["blue"]),
    ("play twofwd red blue", {"red": 5, "blue": 10}, {"red": 6, "blue": -3}, []),
    ("play safestep red+1", {"red": 7}, {"red": 8}, []),
    ("play safestep red-1", {"red": 7}, {"red": 6}, []),
    ("play ruins red", {"red": 5}, {"red": -3}, []),
    ("play church", {"red": 5, "blue": -3, "grey": 2}, {"red": 0, "blue": 0, "grey": 0, "yellow": 0}, []),
    ("play swap red blue", {"red": 5, "blue": 7}, {"red": 7, "blue": 5}, ["red"]),
    ("play join red blue", {"red": 5, "blue": 9}, {"red": 9}, []),
    ("play join red blue", {"red": 5, "blue": 7}, {"red": 7}, ["red"]),
    ("play rescue red", {"red": -3, "blue": -3}, {"red": 0}, []),
    ("play rescue red blue", {"red": -3, "blue": -3}, {"red": 0, "blue": 0}, []),
    ("play fwd123 red+1", {"red": 5}, {"red": 6}, []),
    ("play fwd123 red+3", {"red": 9}, {"red": 0}, []),
    ("play tosafe red", {"red": -3}, {"red": 7}, ["red"]),
]


@pytest.mark.parametrize("play, before, after, triggers", CARD_CASES)
def test_card_effects(play, before, after, triggers):
    card = play.split()[1]
    g = ts(positions=before, hands={"Bob": [card]})
    g.apply("move yellow+2")                                 # yellow church -> 2
    announce(g, yes={"Bob"})
    pre = g.positions
    expected = pre | after
    g.apply(play, player="Bob")
    assert g.positions == expected
    assert g.triggers == triggers
    assert g.hands["Bob"] == [] and g.discards == [card]
    play_event = events(g, "play")[-1]
    assert play_event["card"] == card and play_event["player"] == "Bob"
    assert {c: v[1] for c, v in play_event["moves"].items()} == {c: v for c, v in after.items() if pre[c] != v}


def test_card_bonus_two_markers_plus_three_capped_at_40():
    g = ts(hands={"Bob": ["bonus"]}, scores={"red": 39, "blue": 10, "green": 40})
    g.apply("move yellow+2")
    announce(g, yes={"Bob"})
    assert Action.parse("play bonus red green") not in g.legal_actions()      # green is at 40
    g.apply("play bonus red blue")
    assert g.scores["red"] == 40 and g.scores["blue"] == 13 and g.scores["green"] == 40
    assert events(g, "play")[-1]["gains"] == {"red": 1, "blue": 3}


def test_card_place_the_safe():
    g = ts(hands={"Bob": ["placesafe"]})
    g.apply("move yellow+2")
    announce(g, yes={"Bob"})
    legal = {a.args[1] for a in g.legal_actions() if a.kind == "play"}
    assert legal == {-3, 0, 1, 2, 3, 4, 5, 6, 8, 9, 10}                        # any other building
    g.apply("play placesafe ruins")
    assert g.safe == -3 and events(g, "play")[-1]["safe"] == -3


# ----------------------------------------------------------------------------- cards with no legal target
NO_TARGET = [
    ("safestep", {}, {}, "play safestep red+1"),                                      # nobody at the safe
    ("rescue", {}, {}, "play rescue red"),                                            # nobody in the Ruins
    ("bonus", {}, {"red": 40, "blue": 41, "green": 40, "violet": 40, "grey": 40, "yellow": 12, "orange": 40},
     "play bonus red yellow"),                                                        # one marker < 40 only
    ("swap", {c: 4 for c in AG7} | {"yellow": 2}, {}, "play swap red blue"),         # everybody in one building
    ("join", {c: 4 for c in AG7} | {"yellow": 2}, {}, "play join red blue"),
]


@pytest.mark.parametrize("card, positions, scores, play", NO_TARGET)
def test_a_card_without_a_legal_target_cannot_be_played(card, positions, scores, play):
    g = ts(positions=positions, scores=scores or None, hands={"Bob": [card], "Cy": ["placesafe"]})
    g.apply("move yellow+2")                                 # yellow 2 -> 4 (or church -> 2)
    assert g.current_player == "Bob" and [str(a) for a in g.legal_actions()] == ["announce no"]
    with pytest.raises(IllegalAction, match="card-no-target"):
        g.apply("announce yes")
    assert announce(g, yes={"Cy"}) == ["Bob", "Cy"]          # Ann and Dee hold no card: not asked
    g.apply("play placesafe 9")                             # nobody stands on 9: nothing else changes
    g.apply("done")
    assert g.current_player == "Bob"                         # Dee and Ann pass without being asked
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    before = frozen(g)
    with pytest.raises(IllegalAction) as e:
        g.apply(play)
    assert e.value.rule == "card-no-target"
    assert frozen(g) == before


@pytest.mark.parametrize("card, play", [("ruins", "play ruins red"), ("tosafe", "play tosafe red"),
                                        ("placesafe", "play placesafe 7"), ("join", "play join red blue"),
                                        ("swap", "play swap red blue"), ("rescue", "play rescue red blue")])
def test_targets_that_would_leave_everything_as_it_is_are_not_legal(card, play):
    # red in the Ruins for ruins/rescue checks, red at the safe for tosafe, red and blue together for join/swap
    positions = {"ruins": {"red": -3}, "tosafe": {"red": 7}, "placesafe": {}, "join": {"red": 5, "blue": 5},
                 "swap": {"red": 5, "blue": 5}, "rescue": {"red": -3, "blue": 4}}[card]
    g = ts(positions=positions, hands={"Bob": [card]})
    g.apply("move yellow+1 orange+1")
    announce(g, yes={"Bob"})
    assert Action.parse(play) not in g.legal_actions() and g.legal_actions()
    before = frozen(g)
    with pytest.raises(IllegalAction, match="card-no-target"):
        g.apply(play)
    assert frozen(g) == before


def test_church_card_needs_an_agent_outside_the_church():
    g = ts(hands={"Ann": ["church", "ruins"]}, decision="points", die="1-3")
    g.apply("points 0")
    g.apply("collect yes")
    g.apply("draw swap")
    announce(g, yes={"Ann"})
    assert Action.parse("play church") not in g.legal_actions()
    g.apply("play ruins red")          # red leaves the Church (and Ann, active, may draw)
    g.apply("collect yes")
    g.apply("draw back12")
    assert Action.parse("play church") in g.legal_actions()


# ----------------------------------------------------------------------------- the second agent
def test_second_agent_takes_a_random_free_agent_secretly():
    g = ts(hands={"Bob": ["second"]})
    g.apply("move yellow+2")
    announce(g, yes={"Bob"})
    g.apply("play second")
    assert g.phase == "take" and g.is_chance_node
    outs = g.chance_outcomes()
    assert sorted(str(a) for a, _ in outs) == ["take grey", "take orange", "take yellow"]
    assert all(p == pytest.approx(1 / 3) for _, p in outs)
    before = frozen(g)
    with pytest.raises(IllegalAction, match="second-agent"):
        g.apply("take red")                                  # red is Ann's, not free
    assert frozen(g) == before
    g.apply("take orange")
    assert g.owners["Bob"] == ["blue", "orange"] and "orange" not in g.free_agents
    assert g.phase == "round" and g.current_player == "Bob"
    assert g.view("Bob").own_agents == ("blue", "orange")
    assert g.view("Ann").own_agents == ("red",)
    take = [e for e in g.view("Ann").log if e.kind == "take"][0]
    assert take.player == "Bob" and take.agent is None and take.hidden
    assert [e for e in g.view("Bob").log if e.kind == "take"][0].agent == "orange"


def test_second_agent_with_no_free_agent_left_leaves_the_game_and_is_replaced():
    owners = {"Ann": ["red", "grey"], "Bob": ["blue", "yellow"], "Cy": ["green", "orange"], "Dee": ["violet"]}
    g = ts(hands={"Dee": ["second"]}, owners=owners)
    g.apply("move yellow+2")
    announce(g, yes={"Dee"})
    g.apply("play second", player="Dee")
    assert g.phase == "draw"                                  # the replacement, drawn by Dee
    g.apply("draw swap")
    # out of the game (issue 11), not on the discards where a reshuffle would bring it back
    assert g.hands["Dee"] == ["swap"] and g.discards == [] and g.owners["Dee"] == ["violet"]
    assert g.removed == ["second"] and g.view("Ann").removed == ("second",)
    assert events(g, "play")[-1]["second"] == "replace"
    assert g.recipients[len(g.history) - 1] == "Dee"


def test_second_agent_played_by_a_player_with_two_agents_is_replaced():
    g = ts(hands={"Bob": ["second"]}, owners={"Ann": "red", "Bob": ["blue", "grey"], "Cy": "green",
                                             "Dee": "violet"})
    g.apply("move yellow+2")
    announce(g, yes={"Bob"})
    g.apply("play second")
    assert g.phase == "draw"
    g.apply("draw bonus")
    assert g.owners["Bob"] == ["blue", "grey"] and g.hands["Bob"] == ["bonus"]
    assert g.removed == ["second"] and "second" not in g.discards


def finish_with(owners, scores, positions, move, points):
    g = ts(positions=positions, scores=scores, owners=owners, die=str(points) if points > 1 else "1-3",
           points=points)
    g.apply(move)
    assert g.is_over, g.phase
    return g


def test_at_the_end_a_two_agent_player_keeps_the_farther_agent():
    owners = {"Ann": ["red", "orange"], "Bob": "blue", "Cy": "green", "Dee": "violet"}
    g = finish_with(owners, {"red": 10, "orange": 38, "blue": 30}, {"orange": 5, "red": 1}, "move orange+2", 2)
    assert g.scores["orange"] == 45 and g.scores["red"] == 11
    assert g.final_owners["orange"] == "Ann" and g.final_owners["red"] is None
    assert g.owners["Ann"] == ["red", "orange"]               # what she controlled during the game
    assert g.winners == ("Ann",)


def test_the_dropped_agent_counts_as_free():
    # Ann keeps red (farther); orange is dropped. Nobody else is near the finish; blue wins alone.
    owners = {"Ann": ["red", "orange"], "Bob": "blue", "Cy": "green", "Dee": "violet"}
    g = finish_with(owners, {"red": 20, "orange": 10, "blue": 35}, {"blue": 5}, "move blue+2", 2)
    assert g.final_owners["orange"] is None and g.final_owners["red"] == "Ann"
    assert g.winners == ("Bob",)


def test_a_tie_between_a_players_two_agents_keeps_the_first():
    owners = {"Ann": ["red", "orange"], "Bob": "blue", "Cy": "green", "Dee": "violet"}
    g = finish_with(owners, {"red": 38, "orange": 38}, {"red": 5, "orange": 7}, "move red+2", 2)
    assert g.scores["red"] == g.scores["orange"] == 45
    assert g.final_owners["red"] == "Ann" and g.final_owners["orange"] is None
    assert g.winners == ("Ann",)


# ----------------------------------------------------------------------------- the rulebook's example
def test_rulebook_top_secret_round_example():
    """The whole example of the 2002 rulebook: Anna's turn with Bob, Chris and David.

    Reconstructed start: the safe on 6, red on 5, yellow in the Ruins, green on 1, blue on 10.
    Hands: Anna placesafe (+ a spare), Bob twoback, ruins, rescue; Chris twofwd, tosafe (+ a spare);
    David a card he could play (he says yes but, happy with the situation, always passes)."""
    players = ["Anna", "Bob", "Chris", "David"]
    owners = {"Anna": "red", "Bob": "blue", "Chris": "green", "David": "violet"}
    start = Position(
        positions={"grey": 0, "yellow": -3, "orange": 3, "red": 5, "green": 1, "blue": 10, "violet": 8},
        owners=owners, safe=6, active="Anna", decision="roll",
        hands={"Anna": ["placesafe", "step1"], "Bob": ["twoback", "ruins", "rescue"],
               "Chris": ["twofwd", "tosafe", "back12"], "David": ["fwd123"]})
    g = Game(players, rules=TS, chance="manual", start=start)
    supply = g.supply_size

    def check(turn, positions=None, safe=None, triggers=None, hands=None):
        assert g.current_player == turn, (g.current_player, turn)
        if positions:
            assert {c: g.positions[c] for c in positions} == positions
        if safe is not None:
            assert g.safe == safe
        if triggers is not None:
            assert g.triggers == triggers
        if hands:
            assert {p: g.hands[p] for p in hands} == hands

    # Anna rolls 1-3, chooses 1 point and moves red one building forward, to the safe.
    g.apply("roll 1-3")
    g.apply("points 1", player="Anna")
    g.apply("move red+1", player="Anna")
    check("Anna", {"red": 6}, 6, ["red"])
    # She asks who wants to play: Anna no, Bob yes, Chris no, David yes.
    assert announce(g, yes={"Bob", "David"}) == players
    # Bob, Anna's left neighbour, begins.
    check("Bob")
    assert events(g, "round_start") == [{"player": "Bob"}]
    g.apply("play twoback yellow green", player="Bob")      # yellow to 10, green to the Church
    check("Bob", {"yellow": 10, "green": 0}, 6, ["red"], {"Bob": ["ruins", "rescue"]})
    g.apply("done", player="Bob")
    g.apply("play twofwd yellow blue", player="Chris")      # blue and yellow to the Ruins
    check("Chris", {"yellow": -3, "blue": -3}, 6, ["red"])
    assert g.phase == "round"                               # nobody draws: not Chris' turn
    g.apply("done", player="Chris")
    g.apply("pass", player="David")                         # David is happy with the situation
    g.apply("play placesafe 4", player="Anna")              # Anna cancels her own scoring situation
    check("Anna", {"red": 6}, 4, [], {"Anna": ["step1"]})
    g.apply("done", player="Anna")
    g.apply("pass", player="Bob")
    g.apply("play tosafe red", player="Chris")              # red to the safe: a scoring situation
    check("Chris", {"red": 4}, 4, ["red"], {"Chris": ["back12"]})
    g.apply("done", player="Chris")
    g.apply("pass", player="David")
    g.apply("pass", player="Anna")
    g.apply("play ruins red", player="Bob")                 # red from the safe to the Ruins: cancelled
    check("Bob", {"red": -3}, 4, [], {"Bob": ["rescue"]})
    assert g.phase == "round" and not g.is_chance_node      # Bob is not the active player: no card
    g.apply("done", player="Bob")
    for p in ["Chris", "David", "Anna"]:
        g.apply("pass", player=p)
    g.apply("play rescue yellow blue", player="Bob")        # blue and yellow to the Church
    check("Bob", {"yellow": 0, "blue": 0}, 4, [], {"Bob": []})
    g.apply("done", player="Bob")
    for p in ["Chris", "David", "Anna"]:
        g.apply("pass", player=p)
    # Bob has no card left: he passes without being asked; four passes end the round. No scoring.
    assert events(g, "round_end") == [{}] and not events(g, "score")
    assert g.phase == "roll" and g.active_player == "Bob" and g.turn == 2
    assert g.positions == {"grey": 0, "yellow": 0, "orange": 3, "red": -3, "green": 0, "blue": 0, "violet": 8}
    assert g.safe == 4 and g.scores == {c: 0 for c in AG7}
    assert g.hands == {"Anna": ["step1"], "Bob": [], "Chris": ["back12"], "David": ["fwd123"]}
    assert g.supply_size == supply and not events(g, "draw")
    assert g.discards == ["twoback", "twofwd", "placesafe", "tosafe", "ruins", "rescue"]
