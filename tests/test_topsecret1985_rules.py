"""Top Secret (1985): every rule, with a worked example (docs/topsecret1985.md gives the book's words for each).

The games are set up by hand (manual chance): Ann plays the NW corner (start base ``start-NW``, next to
vancouver and anchorage; her arrival base ``arrival-NW`` lies in the SE corner, next to sydney and auckland), Bob
the SE corner (``start-SE``; his arrival base ``arrival-SE`` lies next to vancouver and anchorage).
"""
from __future__ import annotations

import pytest
from topsecret1985_helpers import pass_turn, set_up, to_tokyo_duel, turn

from heimlich_lab.errors import HeimlichError, IllegalAction, NotationError, PositionError, WrongPlayer
from heimlich_lab.games.topsecret1985 import Action, Game, TopSecretRules
from heimlich_lab.games.topsecret1985.rules import bomb_losses


def legal(g) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def refused(g, action, rule, player=None):
    """``action`` is refused with ``rule``, and the game is left exactly as it was."""
    before = (g.history[:], g.view(None), g.omniscient_view(), legal(g))
    with pytest.raises(IllegalAction) as e:
        g.apply(action, player=player)
    assert e.value.rule == rule, e.value
    assert (g.history, g.view(None), g.omniscient_view(), legal(g)) == before
    return str(e.value)


# ------------------------------------------------------------------------------------------------ set-up
def test_the_start_player_is_chosen_by_chance_and_the_seats_take_the_corners():
    g = Game(["Ann", "Bob", "Cy"], chance="manual")
    assert g.phase == "first" and g.current_player is None and g.is_chance_node
    assert [(str(a), p) for a, p in g.chance_outcomes()] == [("first Ann", 1 / 3), ("first Bob", 1 / 3),
                                                            ("first Cy", 1 / 3)]
    g.apply("first Bob")
    assert g.corners == ("NW", "NE", "SE") and g.current_player == "Bob"   # Bob hides his cards first
    with pytest.raises(PositionError, match="2 to 4 players"):
        Game(["Ann"])
    with pytest.raises(PositionError, match="must be a Map"):
        Game(["Ann", "Bob"], map="standin")


def test_contents_are_hidden_one_each_and_suitcases_placed_in_different_cities():
    g = Game(["Ann", "Bob"], chance="manual")
    g.apply("first Ann")
    assert len(g.legal_actions()) == 24                                   # 4! fillings of A-D
    with pytest.raises(NotationError, match="one each"):
        g.apply("contents A=5 B=5 C=1 D=bomb")
    g.apply("contents A=5 B=3 C=1 D=bomb")
    g.apply("contents A=bomb B=1 C=3 D=5")
    assert g.current_player == "Ann" and legal(g)[0].startswith("place A ")
    g.apply("place A rome")
    assert "place B rome" not in legal(g)                                 # not two of one colour in one city
    refused(g, "place B rome", "setup")
    refused(g, "place B start-NW", "setup")                               # bases are no cities
    refused(g, "place C paris", "setup")                                  # A, B, C, D in order
    for letter, city in zip("BCD", ("berlin", "rio", "delhi")):
        g.apply(f"place {letter} {city}")
    g.apply("place A rome", player="Bob")                                 # another colour may share a city
    assert g.suitcase_places["Bob:A"] == g.suitcase_places["Ann:A"] == "rome"


# ------------------------------------------------------------------------------------------------ dice, moves
def test_the_special_dice_and_the_roll_split_among_agents():
    g = set_up()
    out = dict((str(a), p) for a, p in g.chance_outcomes())
    assert len(out) == 16 and abs(sum(out.values()) - 1) < 1e-12
    assert out["roll 3 3"] == pytest.approx(1 / 36) and out["roll 1 2"] == pytest.approx(4 / 36)
    g.apply("roll 2 1")
    assert g.points == 3
    g.apply("step Ann#1 vancouver")
    g.apply("step Ann#2 anchorage")                                       # the roll split among agents
    g.apply("step Ann#1 chicago")
    assert g.locations["Ann#1"] == "chicago" and g.locations["Ann#2"] == "anchorage" and g.active_player == "Bob"


def test_a_roll_of_two_blanks_ends_the_turn_at_once():
    g = set_up()
    pass_turn(g)
    assert g.active_player == "Bob" and g.phase == "roll" and g.turn == 2


def test_agents_move_along_lines_and_leave_a_base_in_order():
    g = set_up()
    g.apply("roll 1 0")
    refused(g, "step Ann#1 chicago", "lines")                             # no line from the start base to chicago
    refused(g, "step Ann#2 vancouver", "bases")                           # agents in a base are alike: the first
    refused(g, "step Bob#1 sydney", "turn-order", player="Bob")
    refused(g, "step Bob#1 sydney", "agents")                             # not an agent of Ann, whose turn it is


def test_a_player_moves_the_whole_roll_unless_the_rules_say_otherwise():
    g = set_up()
    g.apply("roll 2 0")
    g.apply("step Ann#1 vancouver")
    assert "end" not in legal(g)
    refused(g, "end", "move")
    free = set_up(must_use_roll=False)
    free.apply("roll 2 0")
    free.apply("step Ann#1 vancouver")
    free.apply("end")
    assert free.active_player == "Bob" and free.locations["Ann#1"] == "vancouver"


def test_no_more_than_two_agents_of_a_colour_in_a_city_at_the_end_of_a_turn():
    g = set_up()
    turn(g, (2, 0), "step Ann#1 vancouver", "step Ann#2 vancouver")
    pass_turn(g)
    g.apply("roll 1 0")
    assert "step Ann#3 vancouver" not in legal(g)                         # a third, with no step to move on
    msg = refused(g, "step Ann#3 vancouver", "agents-per-city")
    assert "2 agents of a colour" in msg
    g.apply("step Ann#3 anchorage")
    pass_turn(g)
    g.apply("roll 2 0")
    g.apply("step Ann#3 vancouver")                                       # passing through: it must move on
    assert g.locations["Ann#3"] == "vancouver"
    refused(g, "step Ann#4 anchorage", "agents-per-city")
    assert legal(g) and all(a.startswith("step Ann#3 ") for a in legal(g))
    g.apply("step Ann#3 chicago")
    assert [g.locations[f"Ann#{k}"] for k in (1, 2, 3)] == ["vancouver", "vancouver", "chicago"]


# ------------------------------------------------------------------------------------------------ suitcases
def test_a_suitcase_is_picked_up_along_the_way_and_carried_on():
    g = set_up(places={"Ann": ("vancouver", "berlin", "rio", "delhi")})
    g.apply("roll 2 0")
    g.apply("step Ann#1 vancouver")
    assert sorted(legal(g)) == ["pick Ann#1 Ann:A", "step Ann#1 anchorage", "step Ann#1 chicago",
                                "step Ann#1 san-francisco", "step Ann#2 anchorage", "step Ann#2 vancouver"]
    g.apply("pick Ann#1 Ann:A")
    g.apply("step Ann#1 chicago")                                         # "sur son chemin": it moves on
    assert g.carrying["Ann#1"] == "Ann:A" and g.suitcase_places["Ann:A"] is None


def test_with_pickup_stop_picking_up_ends_that_agents_move():
    g = set_up(places={"Ann": ("vancouver", "berlin", "rio", "delhi")}, pickup="stop")
    g.apply("roll 2 0")
    g.apply("step Ann#1 vancouver")
    g.apply("pick Ann#1 Ann:A")
    assert not any(a.startswith("step Ann#1") for a in legal(g))
    refused(g, "step Ann#1 chicago", "pickup")
    g.apply("step Ann#2 anchorage")
    assert g.carrying["Ann#1"] == "Ann:A" and g.active_player == "Bob"


def test_drop_one_and_pick_up_another_carrying_at_most_one():
    g = set_up(places={"Ann": ("vancouver", "chicago", "rio", "delhi"), "Bob": ("chicago", "lagos", "cairo", "moscow")})
    g.apply("roll 3 0")
    g.apply("step Ann#1 vancouver")
    g.apply("pick Ann#1 Ann:A")
    g.apply("step Ann#1 chicago")
    assert not any(a.startswith("pick") for a in legal(g))                # it carries one already
    g.apply("drop Ann#1")
    assert "pick Ann#1 Ann:A" not in legal(g)                             # not the one it just dropped
    refused(g, "pick Ann#1 Ann:A", "pickup")
    g.apply("pick Ann#1 Bob:A")
    assert g.carrying["Ann#1"] == "Bob:A" and g.suitcase_places["Ann:A"] == "chicago"
    assert not any(a.startswith(("pick", "drop")) for a in legal(g))       # one drop and one pick per stop


# ------------------------------------------------------------------------------------------------ duels
def test_entering_a_city_with_an_enemy_means_a_duel_the_first_card_face_down():
    g = to_tokyo_duel()
    assert g.phase == "attack" and g.current_player == "Bob"
    assert legal(g) == ["card 0", "card 1", "card 2", "card 3", "card 4", "card 5"]
    g.apply("card 3")
    assert g.phase == "defend" and g.current_player == "Ann"
    assert g.view("Ann").my_card is None and g.view("Bob").my_card == 3 and g.view(None).my_card is None
    assert g.view("Ann").duel["chosen"] and [e.card for e in g.view("Ann").log if e.kind == "card"] == [None]
    refused(g, "card 3", "turn-order", player="Bob")
    g.apply("card 3", player="Ann")                                       # a tie: the aggressor wins
    assert g.locations["Ann#1"] is None and g.locations["Bob#1"] == "tokyo"
    assert g.bonus == {"Bob#1": 1} and g.phase == "move"                  # the aggressor's bonus move
    assert g.hands["Ann"] == (0, 0, 1, 2, 4, 5) and g.played_cards["Bob"] == (3,)
    fight = [e for e in g.view("Ann").log if e.kind == "fight"][-1]
    assert (fight.attacker_card, fight.defender_card, fight.winner) == (3, 3, "Bob#1")
    g.apply("step Bob#1 beijing")                                         # the bonus move: one city
    assert g.active_player == "Ann"


def test_a_loser_with_a_zero_goes_home_and_a_losing_aggressor_loses_the_rest_of_the_move():
    g = set_up()
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    turn(g, (3, 0), "step Bob#1 sydney", "step Bob#1 singapore", "step Bob#1 hong-kong")
    pass_turn(g)
    g.apply("roll 3 0")
    g.apply("step Bob#1 tokyo")
    g.apply("card 0")
    g.apply("card 2")                                                     # Ann defends and wins
    assert g.locations["Bob#1"] == "start-SE"                             # lost with a 0: back to its base
    assert g.active_player == "Ann" and g.phase == "roll"                 # Bob's 2 remaining steps are lost
    assert g.locations["Ann#1"] == "tokyo" and g.bonus == {}              # no bonus for a defender


def test_a_dropped_suitcase_may_be_taken_by_the_winner():
    g = set_up(places={"Bob": ("sydney", "lagos", "cairo", "moscow")})
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    turn(g, (3, 0), "step Bob#1 sydney", "pick Bob#1 Bob:A", "step Bob#1 singapore", "step Bob#1 hong-kong")
    pass_turn(g)
    g.apply("roll 1 0")
    g.apply("step Bob#1 tokyo")
    g.apply("card 1")
    g.apply("card 5")
    assert g.phase == "take" and g.current_player == "Ann" and legal(g) == ["take", "leave"]
    assert g.suitcase_places["Bob:A"] == "tokyo" and g.locations["Bob#1"] is None
    g.apply("take")
    assert g.carrying["Ann#1"] == "Bob:A" and g.active_player == "Ann"


def test_two_enemies_two_duels_the_second_only_after_winning_the_first_and_two_bonus_moves():
    g = set_up(must_use_roll=False)
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    pass_turn(g)
    turn(g, (3, 0), "step Ann#2 vancouver", "step Ann#2 san-francisco", "step Ann#2 tokyo")
    turn(g, (3, 0), "step Bob#1 sydney", "step Bob#1 singapore", "step Bob#1 hong-kong")
    pass_turn(g)
    g.apply("roll 2 0")
    g.apply("step Bob#1 tokyo")
    assert g.duel["defender"] == "Ann#1" and g.duel["waiting"] == ("Ann#2",)
    g.apply("card 5")
    g.apply("card 1")
    assert g.phase == "attack" and g.duel["defender"] == "Ann#2"          # the second duel, at once
    g.apply("card 4")
    g.apply("card 2")
    assert g.bonus == {"Bob#1": 2} and g.points == 1      # "vous pouvez faire votre coup-bonus plus les 3 ..."


def test_duel_cards_are_set_aside_until_all_seven_are_played_then_all_come_back():
    g = set_up(must_use_roll=False)
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    turn(g, (3, 0), "step Bob#1 sydney", "step Bob#1 singapore", "step Bob#1 hong-kong")
    turn(g, (1, 0), "step Ann#1 beijing")
    turn(g, (1, 0), "step Bob#1 tokyo")          # Bob#1 waits in tokyo; Ann's agents attack it one by one
    for ann, bob in ((0, 1), (0, 2), (1, 3), (2, 4), (3, 5), (4, 0)):
        g.apply("roll 3 0")
        agent = next(a for a in legal(g) if a.endswith(" vancouver")).split()[1]
        for city in ("vancouver", "san-francisco", "tokyo"):
            g.apply(f"step {agent} {city}")
        g.apply(f"card {ann}")
        g.apply(f"card {bob}")
        if g.phase == "move":
            g.apply("end")
        pass_turn(g)
    # "Les 2 cartes sont alors écartées et restent hors jeu jusqu'à ce que toutes 7 n'aient été jouées"
    assert g.played_cards == {"Ann": (0, 0, 1, 2, 3, 4), "Bob": (1, 2, 3, 4, 5, 0)}
    assert g.hands == {"Ann": (5,), "Bob": (0,)} and g.locations["Bob#1"] == "start-SE"   # lost with a 0
    pass_turn(g)
    turn(g, (3, 0), "step Bob#1 sydney", "step Bob#1 singapore", "step Bob#1 hong-kong")
    pass_turn(g)
    g.apply("roll 1 0")
    g.apply("step Bob#1 tokyo")                  # Ann's last attacker holds tokyo
    assert legal(g) == ["card 0"]
    g.apply("card 0")
    assert legal(g) == ["card 5"]
    g.apply("card 5")
    # "... après quoi elles sont reprises et toutes de nouveau à disposition"
    assert g.hands == {"Ann": (0, 0, 1, 2, 3, 4, 5), "Bob": (0, 0, 1, 2, 3, 4, 5)}
    assert g.played_cards == {"Ann": (), "Bob": ()}
    assert [e.player for e in g.view(None).log if e.kind == "cards-back"] == ["Bob", "Ann"]


def test_a_bonus_move_may_enter_a_duel_unless_the_rules_say_otherwise():
    for allowed in (True, False):
        g = set_up(bonus_may_duel=allowed)
        turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
        turn(g, (3, 0), "step Bob#1 sydney", "step Bob#1 singapore", "step Bob#1 hong-kong")
        turn(g, (1, 0), "step Ann#1 beijing")
        pass_turn(g)
        turn(g, (3, 0), "step Ann#2 vancouver", "step Ann#2 san-francisco", "step Ann#2 tokyo")
        g.apply("roll 1 0")
        g.apply("step Bob#1 tokyo")
        g.apply("card 5")
        g.apply("card 1")                                                 # Bob#1 wins a bonus move
        assert g.phase == "move" and g.bonus == {"Bob#1": 1} and g.points == 0
        assert ("step Bob#1 beijing" in legal(g)) is allowed              # beijing holds Ann#1
        if allowed:
            g.apply("step Bob#1 beijing")
            assert g.phase == "attack"
        else:
            refused(g, "step Bob#1 beijing", "bonus-duel")


# ------------------------------------------------------------------------------------------------ delivery
def test_a_delivery_shows_the_contents_to_everyone_and_the_agent_goes_home():
    g = set_up(places={"Bob": ("singapore", "lagos", "cairo", "moscow")}, contents={"Ann": "A=5 B=3 C=1 D=bomb",
                                                                                   "Bob": "A=5 B=1 C=3 D=bomb"})
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    pass_turn(g)
    turn(g, (3, 0), "step Ann#1 hong-kong", "step Ann#1 singapore", "pick Ann#1 Bob:A", "step Ann#1 sydney")
    pass_turn(g)
    g.apply("roll 1 0")
    assert "step Ann#1 arrival-NW" in legal(g) and "step Ann#1 start-SE" not in legal(g)
    g.apply("step Ann#1 arrival-NW")
    assert g.secrets_home["Ann"] == 5 and g.delivered["Ann"] == (("Bob:A", "5"),)
    assert g.locations["Ann#1"] == "start-NW"
    assert [e.content for e in g.view("Bob").log if e.kind == "deliver"] == ["5"]


def test_an_agent_enters_only_its_own_arrival_base_and_only_with_a_suitcase():
    g = set_up(must_use_roll=False)
    turn(g, (1, 0), "step Ann#1 vancouver")
    pass_turn(g)
    g.apply("roll 1 0")
    said = refused(g, "step Ann#1 arrival-SE", "bases")                   # Bob's arrival base
    # the notation names the place by its id, the words by its name
    assert said.startswith("step Ann#1 arrival-SE: the arrival base of SE is another player's arrival base"), said
    assert refused(g, "step Ann#1 tokyo", "lines").startswith("step Ann#1 tokyo: Tokyo is not joined to Vancouver ")
    g2 = set_up()
    turn(g2, (2, 0), "step Ann#1 vancouver", "step Ann#2 vancouver")
    turn(g2, (3, 0), "step Bob#1 sydney", "step Bob#2 sydney", "step Bob#3 auckland")
    g2.apply("roll 1 0")
    said = refused(g2, "step Ann#1 start-NW", "bases")                    # agents only leave start bases
    assert "the start base NW is a start base" in said, said


def bomb_game(**rules):
    """Ann carries her own bomb (D, in vancouver) home... the long way: its agent reaches arrival-NW."""
    g = set_up(places={"Ann": ("rome", "berlin", "rio", "singapore")}, **rules)
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    pass_turn(g)
    turn(g, (3, 0), "step Ann#1 hong-kong", "step Ann#1 singapore", "pick Ann#1 Ann:D", "step Ann#1 sydney")
    pass_turn(g)
    g.apply("roll 1 0")
    g.apply("step Ann#1 arrival-NW")
    return g


def test_a_bomb_costs_half_the_agents_rounded_up_the_player_choosing_which():
    g = bomb_game()
    assert g.delivered["Ann"] == (("Ann:D", "bomb"),) and g.secrets_home["Ann"] == 0
    assert g.locations["Ann#1"] is None                                   # the courier is the first lost
    assert g.phase == "bomb" and g.current_player == "Ann" and legal(g) == ["eliminate Ann#2"]
    g.apply("eliminate Ann#2")
    g.apply("eliminate Ann#3")
    assert g.phase == "bomb"
    g.apply("eliminate Ann#4")
    assert len(g.alive("Ann")) == 3 and g.phase != "bomb"                 # 7 agents: 4 lost, the courier one
    assert bomb_losses(7, "counts") == (1, 3) and bomb_losses(6, "counts") == (1, 2)


def test_a_bomb_victim_drops_its_suitcase_in_its_city():
    g = set_up(places={"Ann": ("vancouver", "berlin", "rio", "singapore")})
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    pass_turn(g)
    turn(g, (3, 0), "step Ann#1 hong-kong", "step Ann#1 singapore", "pick Ann#1 Ann:D", "step Ann#1 sydney")
    pass_turn(g)
    g.apply("roll 2 0")
    g.apply("step Ann#2 vancouver")
    g.apply("pick Ann#2 Ann:A")
    g.apply("step Ann#1 arrival-NW")
    assert sorted(legal(g)) == ["eliminate Ann#2", "eliminate Ann#3"]   # agents in a base are alike: the first
    g.apply("eliminate Ann#2")
    assert g.suitcase_places["Ann:A"] == "vancouver" and g.carriers["Ann:A"] is None
    drop = [e for e in g.view("Bob").log if e.kind == "drop"][-1]
    assert (drop.agent, drop.city, drop.cause) == ("Ann#2", "vancouver", "bomb")


@pytest.mark.parametrize("courier, alive_after", [("extra", 3), ("home", 3)])
def test_the_bomb_courier_options(courier, alive_after):
    g = bomb_game(bomb_courier=courier)
    while g.phase == "bomb":
        g.apply(g.legal_actions()[0])
    assert len(g.alive("Ann")) == alive_after
    went_home = [e.agent for e in g.view(None).log if e.kind == "home" and e.cause == "delivery"]
    assert went_home == (["Ann#1"] if courier == "home" else [])


def test_one_of_the_first_three_suitcases_brought_home_must_be_an_opponents():
    path = ["vancouver", "san-francisco", "tokyo", "hong-kong", "singapore", "sydney"]

    def two_own_home(first_three):
        g = set_up(places={"Ann": ("sydney", "singapore", "hong-kong", "rio")},
                   contents={"Ann": "A=1 B=3 C=5 D=bomb", "Bob": "A=bomb B=1 C=3 D=5"}, first_three=first_three,
                   must_use_roll=False)
        for k, (letter, city) in enumerate((("A", "sydney"), ("B", "singapore"), ("C", "hong-kong")), 1):
            turn(g, (3, 0), *[f"step Ann#1 {c}" for c in path[:3]])
            pass_turn(g)
            steps = [f"step Ann#1 {c}" for c in path[3:]]
            steps.insert(path[3:].index(city) + 1, f"pick Ann#1 Ann:{letter}")   # picked up on the way
            turn(g, (3, 0), *steps)
            pass_turn(g)
            g.apply("roll 1 0")
            if k == 3:
                return g
            g.apply("step Ann#1 arrival-NW")             # the roll used up: the move ends by itself
            pass_turn(g)
        return g

    g = two_own_home(True)
    assert [s for s, _ in g.delivered["Ann"]] == ["Ann:A", "Ann:B"]
    assert "step Ann#1 arrival-NW" not in legal(g)
    msg = refused(g, "step Ann#1 arrival-NW", "first-three")
    assert "opponent" in msg
    free = two_own_home(False)
    free.apply("step Ann#1 arrival-NW")
    assert free.secrets_home["Ann"] == 9


# ------------------------------------------------------------------------------------------------ the end
def test_ten_secrets_end_the_game_at_once():
    g = set_up(places={"Bob": ("singapore", "lagos", "cairo", "moscow")}, target=5,
               contents={"Ann": "A=5 B=3 C=1 D=bomb", "Bob": "A=5 B=1 C=3 D=bomb"})
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    pass_turn(g)
    turn(g, (3, 0), "step Ann#1 hong-kong", "step Ann#1 singapore", "pick Ann#1 Bob:A", "step Ann#1 sydney")
    pass_turn(g)
    g.apply("roll 3 0")
    g.apply("step Ann#1 arrival-NW")
    assert g.is_over and g.winners == ("Ann",) and g.end_reason == "target" and g.points == 2
    refused(g, "end", "game-end")


def test_the_bounded_end_after_max_rounds_most_secrets_win():
    g = set_up(max_rounds=2)
    for _ in range(4):
        pass_turn(g)
    assert g.is_over and g.end_reason == "max-rounds" and g.winners == ()   # nobody brought a secret home


def test_the_game_ends_when_nobody_can_reach_the_target():
    g = set_up(target=19)                       # 18 secrets in all with two players: out of reach from the start
    pass_turn(g)
    assert g.is_over and g.end_reason == "out-of-reach"


# ------------------------------------------------------------------------------------------------ 3 players
@pytest.mark.parametrize("option, counts", [("moved", (7, 7, 7)), ("extra", (8, 7, 8)), ("none", (7, 7, 7))])
def test_three_players_the_edge_and_the_agents_in_the_empty_start_base(option, counts):
    g = Game(["Ann", "Bob", "Cy"], seed=1, rules=TopSecretRules(three_player_agent=option))
    assert g.edge_player == "Bob"               # NE: his arrival base lies in the empty SW corner
    assert tuple(len(g.alive(p)) for p in g.players) == counts
    in_empty = sorted(a for a, loc in g.locations.items() if loc == "start-SW")
    assert in_empty == ([] if option == "none" else (["Ann#7", "Cy#7"] if option == "moved" else ["Ann#8", "Cy#8"]))


# ------------------------------------------------------------------------------------------------ notation, errors
def test_every_decision_has_a_notation_that_round_trips():
    for text in ["first Ann", "contents A=5 B=3 C=1 D=bomb", "contents ?", "place A london", "roll 0 3",
                 "step Ann#3 paris", "pick Ann#3 Bob:A", "drop Ann#3", "end", "card 0", "card ?", "take", "leave",
                 "eliminate Dee#7"]:
        a = Action.parse(text)
        assert str(a) == text and Action.parse(str(a)) == a
    for bad, words in [("roll 4 0", "0 \\(blank\\), 1, 2 or 3"), ("step Ann paris", "not an agent"),
                       ("pick Ann#1 Bob", "not a suitcase"), ("fly Ann#1", "unknown action"), ("", "empty")]:
        with pytest.raises(NotationError, match=words):
            Action.parse(bad)


def test_bad_input_leaves_the_game_as_it_was():
    g = set_up()
    g.apply("roll 2 0")
    refused(g, Action("step", ("Ann#1", 3)), "notation")                  # a hand-built action of the wrong shape
    refused(g, Action("card", (True,)), "notation")
    refused(g, "step Zed#1 vancouver", "agents")
    with pytest.raises(WrongPlayer):
        g.view("Zed")
    with pytest.raises(HeimlichError):
        g.apply("roll 1 1")                                               # chance does not act now
