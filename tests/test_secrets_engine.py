"""The Secrets engine: every effect with worked examples from the rules, the UN, the end and the scoring,
bad input, and property tests over random play."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heimlich_lab.errors import IllegalAction, NotationError, PositionError, WrongPlayer
from heimlich_lab.secrets import (BULLETS, CARD_COUNTS, MIDDLE, Action, Game, RandomBot, SecretsRules,
                                  play_game)

P4 = ["Ann", "Bob", "Cy", "Dee"]
DEAL4 = "deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB"


def manual(players=P4, deal=DEAL4, *actions, rules=None) -> Game:
    g = Game(players, chance="manual", seed=0, rules=rules)
    g.apply(deal)
    for a in actions:
        g.apply(a)
    return g


def looks(g: Game, viewer: str) -> list[tuple]:
    return [(e.slot, e.team, e.cause) for e in g.view(viewer).log if e.kind == "look" and e.player == viewer]


# ---------------------------------------------------------------- set-up and the turn
def test_start_up_looks_depend_on_the_player_count():
    g4 = manual()
    assert looks(g4, "Bob") == [("Bob", "KGB", "start")]
    assert g4.view("Bob").known_markers == {"Bob": "KGB"}
    g6 = manual(P4 + ["Eve", "Fay"], "deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA Eve=KGB Fay=CIA middle=KGB")
    # "seinen eigenen Identitätsmarker an und den Identitätsmarker seines rechten Nachbarn": the previous seat
    assert looks(g6, "Ann") == [("Ann", "CIA", "start"), ("Fay", "CIA", "start")]
    p8 = P4 + ["Eve", "Fay", "Gus", "Hal"]
    teams = ["CIA"] * 4 + ["KGB"] * 4 + ["Hippie"]
    g8 = manual(p8, "deal " + " ".join(f"{p}={t}" for p, t in zip(p8 + [MIDDLE], teams)))
    assert g8.view("Cy").known_markers == {"Bob": "CIA", "Cy": "CIA", MIDDLE: "Hippie"}
    assert [e.team for e in g8.view(None).log if e.kind == "show"] == ["Hippie"]


def test_marker_counts_follow_the_rules_option():
    assert Game(P4, seed=1).marker_counts == {"CIA": 2, "KGB": 2, "Hippie": 1}
    g = Game(P4, seed=1, rules=SecretsRules(markers={4: (3, 1, 1)}))
    assert sorted(g.identities.values()) == sorted(["CIA"] * 3 + ["KGB", "Hippie"])
    with pytest.raises(Exception, match="adding up to 5"):
        SecretsRules(markers={4: (2, 2, 2)})


def test_draw_until_two_different_and_the_extra_copies_go_under_the_deck():
    g = manual(P4, DEAL4, "reveal scientist", "reveal scientist", "reveal scientist")
    assert g.phase == "reveal" and g.candidates == ()
    g.apply("reveal assassin")
    assert g.candidates == ("scientist", "assassin")
    assert list(g._queue) == ["scientist", "scientist"]
    g.apply("offer assassin Cy")
    assert list(g._queue) == ["scientist", "scientist", "scientist"]    # the other card goes under too
    assert g.deck_size == 29 - 1


def test_cards_put_under_the_deck_come_back_in_order_once_the_fresh_cards_are_used_up():
    g = play_game([RandomBot(i) for i in range(6)], seed=21)
    reveals, under = [], []
    for e in g.omniscient_view().log:
        if e.kind == "reveal":
            reveals.append(e.card)
        elif e.kind == "candidates":
            under += list(e.under)
            cands = e.cards
        elif e.kind == "offer":
            under += [c for c in cands if c != e.card]
    assert len(reveals) > 29                                   # the game went through the deck
    assert reveals[29:] == under[: len(reveals) - 29]          # the fresh cards first, then the cards put under
    # every card turned up is a chance event in the history (and the record): the never-seen ones drawn at
    # random, the ones put under the deck certain (their only outcome: the next in order)
    assert [a.args[0] for _, a in g.history if a.kind == "reveal"] == reveals


def test_accept_puts_the_card_in_the_chosen_players_tableau_and_refuse_in_the_offerers():
    g = manual(P4, DEAL4, "reveal scientist", "reveal diplomat", "offer scientist Cy", "accept")
    assert g.tableaux["Cy"] == (("scientist", True),) and g.active_player == "Bob"
    g = manual(P4, DEAL4, "reveal scientist", "reveal diplomat", "offer scientist Cy", "refuse")
    assert g.tableaux["Ann"] == (("scientist", True),) and g.tableaux["Cy"] == ()


def test_the_offered_card_is_the_offerers_secret_until_it_is_added():
    g = manual(P4, DEAL4, "reveal scientist", "reveal diplomat", "offer scientist Cy")
    assert g.view("Ann").offer == ("scientist", "Cy")
    assert g.view("Cy").offer == (None, "Cy")
    assert [e.card for e in g.view("Bob").log if e.kind == "offer"] == [None]
    g.apply("refuse")
    assert [e.card for e in g.view("Bob").log if e.kind == "add"] == ["scientist"]


# ---------------------------------------------------------------- effects
def test_psychiatrist_swaps_two_other_players_markers_and_nobody_sees_them():
    g = manual(P4, DEAL4, "reveal psychiatrist", "reveal diplomat", "offer psychiatrist Bob", "accept")
    assert g.current_player == "Bob"
    assert [str(a) for a in g.legal_actions()] == ["swap Ann Cy", "swap Ann Dee", "swap Cy Dee"]
    g.apply("swap Ann Cy")
    assert g.identities["Ann"] == "Hippie" and g.identities["Cy"] == "CIA"
    assert g.view("Ann").known_markers == {"Cy": "CIA"}      # what she knew moved away from her


def test_double_agent_swaps_with_the_middle_and_looks_at_the_new_marker():
    g = manual(P4, DEAL4, "reveal double-agent", "reveal diplomat", "offer double-agent Bob", "refuse")
    assert g.identities["Ann"] == "KGB" and g.identities[MIDDLE] == "CIA"
    assert looks(g, "Ann")[-1] == ("Ann", "KGB", "double-agent")
    assert g.view("Ann").known_markers == {"Ann": "KGB", MIDDLE: "CIA"}
    assert g.view("Bob").known_markers == {"Bob": "KGB"}    # Bob saw the swap, not the markers
    assert g.rules.value("double-agent") == 0


def test_politician_goes_to_another_tableau_and_its_giver_looks_at_that_marker():
    g = manual(P4, DEAL4, "reveal politician", "reveal diplomat", "offer politician Bob", "accept")
    assert g.phase == "give" and g.current_player == "Bob"
    assert "give Bob" not in [str(a) for a in g.legal_actions()]
    g.apply("give Cy")
    assert g.tableaux["Cy"] == (("politician", True),) and g.tableaux["Bob"] == ()
    assert looks(g, "Bob")[-1] == ("Cy", "Hippie", "politician")
    assert [e.team for e in g.view("Dee").log if e.kind == "look" and e.cause == "politician"] == [None]


def test_journalist_shows_the_marker_to_everyone_else_but_not_to_its_owner():
    g = manual(P4, DEAL4, "reveal journalist", "reveal diplomat", "offer journalist Cy", "accept")
    assert g.view("Ann").known_markers["Cy"] == "Hippie"
    assert "Cy" not in g.view("Bob").known_markers or g.view("Bob").known_markers["Cy"] == "Hippie"
    assert [e.team for e in g.view("Cy").log if e.kind == "expose"] == [None]
    assert [e.team for e in g.spectator_view().log if e.kind == "expose"] == [None]    # what every player sees
    assert g.view("Cy").known_markers == {"Cy": "Hippie"}    # from her start-up look, not from the Journalist


def test_diplomat_shows_the_middle_then_swaps_it_with_a_neighbour_nobody_else_sees():
    g = manual(P4, DEAL4, "reveal diplomat", "reveal scientist", "offer diplomat Bob", "accept")
    assert g.phase == "side" and [e.team for e in g.view("Dee").log if e.kind == "show"] == ["KGB"]
    g.apply("side left")                  # Bob's left neighbour is the next seat, Cy
    assert g.identities["Cy"] == "KGB" and g.identities[MIDDLE] == "Hippie"
    assert [e.side for e in g.view("Bob").log if e.kind == "side"] == ["left"]
    assert [(e.side, e.slot) for e in g.view("Ann").log if e.kind == "side"] == [(None, None)]
    # Ann saw the middle (KGB), but Bob's neighbours are Cy and Ann herself: she is no longer sure of her own
    assert g.view("Ann").known_markers == {}
    assert g.view("Dee").known_markers == {"Dee": "CIA"}
    assert g.view("Bob").known_markers == {"Bob": "KGB", "Cy": "KGB"}


def test_detective_looks_at_any_marker_including_its_own_and_the_middle():
    g = manual(P4, DEAL4, "reveal detective", "reveal scientist", "offer detective Bob", "accept")
    assert [str(a) for a in g.legal_actions()] == ["look Ann", "look Bob", "look Cy", "look Dee", "look middle"]
    g.apply("look middle")
    assert looks(g, "Bob")[-1] == (MIDDLE, "KGB", "detective")


def test_the_second_scientist_turns_all_characters_face_down():
    g = manual(P4, DEAL4, "reveal scientist", "reveal diplomat", "offer scientist Bob", "refuse",   # Ann +5
               "reveal journalist", "reveal detective", "offer journalist Ann", "accept",            # Ann +3
               "reveal detective", "reveal diplomat", "offer detective Bob", "accept", "look Ann",
               "reveal scientist", "reveal assassin", "offer scientist Ann", "accept")
    assert g.tableaux["Ann"] == (("scientist", False), ("journalist", False), ("scientist", False))
    assert g.scores["Ann"] == 0


def test_assassin_draws_a_bullet_only_it_sees_and_gives_it_to_another_player():
    g = manual(P4, DEAL4, "reveal assassin", "reveal diplomat", "offer assassin Bob", "accept")
    assert g.is_chance_node and g.phase == "bullet"
    g.apply("bullet -3")
    assert "shoot Bob" not in [str(a) for a in g.legal_actions()]
    g.apply("shoot Dee")
    assert g.bullets["Dee"] == (-3,) and g.tableau_sizes["Dee"] == 1 and g.scores["Dee"] == -3
    assert [e.value for e in g.view("Bob").log if e.kind == "shot"] == [-3]
    assert [e.value for e in g.view("Dee").log if e.kind == "shot"] == [None]
    assert g.view("Dee").bullet_counts["Dee"] == 1


def test_two_identical_face_up_characters_turn_face_down_at_the_end_of_the_turn():
    g = manual(P4, DEAL4, "reveal journalist", "reveal diplomat", "offer journalist Bob", "accept",
               "reveal journalist", "reveal scientist", "offer journalist Cy", "refuse")
    assert g.tableaux["Bob"] == (("journalist", False), ("journalist", False)) and g.scores["Bob"] == 0


# ---------------------------------------------------------------- the UN
def _with_un() -> Game:
    # after three turns Ann alone has no card: she takes the UN marker
    return manual(P4, DEAL4, "reveal scientist", "reveal diplomat", "offer scientist Bob", "accept",
                  "reveal journalist", "reveal detective", "offer journalist Cy", "accept",
                  "reveal journalist", "reveal detective", "offer journalist Dee", "accept")


def test_the_single_player_with_the_fewest_cards_takes_the_un_marker():
    g = _with_un()
    assert g.un_player == "Ann" and g.active_player == "Dee"


def test_the_un_player_may_interrupt_an_offer_and_carries_out_the_effect():
    g = _with_un()
    g.apply("reveal psychiatrist"); g.apply("reveal scientist"); g.apply("offer psychiatrist Bob")
    assert g.current_player == "Ann" and {str(a) for a in g.legal_actions()} == {"interrupt", "allow"}
    g.apply("interrupt")
    assert g.tableaux["Ann"] == (("psychiatrist", True),) and g.phase == "swap" and g.current_player == "Ann"
    assert g.un_player is None          # no longer alone with the fewest cards


def test_the_un_player_is_not_asked_about_an_offer_to_themself():
    g = _with_un()
    g.apply("reveal psychiatrist"); g.apply("reveal scientist"); g.apply("offer scientist Ann")
    assert g.phase == "answer" and g.current_player == "Ann"


# ---------------------------------------------------------------- the end
def _scored(tableaux: dict, teams: dict, bullets=None) -> Game:
    g = manual()
    for i, p in enumerate(g.players):
        g._chars[i] = [[c, True] for c in tableaux.get(p, [])]
        g._shot[i] = [(v, 0) for v in (bullets or {}).get(p, [])]
    g._marker = [teams[p] for p in g.players] + [g._marker[-1]]
    g._finish()
    return g


def test_a_hippie_alone_with_the_fewest_points_wins_alone():
    g = _scored({"Ann": ["scientist"], "Bob": ["politician"], "Cy": ["detective"], "Dee": ["diplomat"]},
                {"Ann": "CIA", "Bob": "KGB", "Cy": "Hippie", "Dee": "KGB"})
    assert g.winners == ("Cy",)


def test_otherwise_the_team_with_more_points_wins_and_a_tie_loses_for_everyone():
    g = _scored({"Ann": ["scientist"], "Bob": ["politician"], "Cy": ["detective"], "Dee": ["diplomat"]},
                {"Ann": "KGB", "Bob": "CIA", "Cy": "CIA", "Dee": "Hippie"})
    # the lowest is Cy, not a Hippie; KGB 5 against CIA 3 - 2
    assert g.scores == {"Ann": 5, "Bob": 3, "Cy": -2, "Dee": 1} and g.winners == ("Ann",)
    tie = _scored({"Ann": ["politician"], "Bob": ["politician"]},
                  {"Ann": "CIA", "Bob": "KGB", "Cy": "CIA", "Dee": "KGB"})
    assert tie.winners == ()
    hippie_tied = _scored({"Ann": ["scientist"], "Bob": ["politician"], "Cy": ["detective"], "Dee": ["detective"]},
                          {"Ann": "CIA", "Bob": "KGB", "Cy": "Hippie", "Dee": "KGB"})
    assert hippie_tied.winners == ("Ann",)        # no lone lowest: CIA 5 against KGB 1


def test_the_double_agent_value_is_a_rules_option():
    tabs = {"Ann": ["double-agent", "diplomat"]}
    teams = {"Ann": "CIA", "Bob": "KGB", "Cy": "CIA", "Dee": "KGB"}
    assert _scored(tabs, teams).scores["Ann"] == 1
    g = manual(rules=SecretsRules(double_agent_value=-2))
    for i, p in enumerate(g.players):
        g._chars[i] = [[c, True] for c in tabs.get(p, [])]
    g._finish()
    assert g.scores["Ann"] == -1


def test_bullets_count_at_the_end():
    g = _scored({"Ann": ["scientist"]}, {"Ann": "CIA", "Bob": "KGB", "Cy": "CIA", "Dee": "KGB"},
                bullets={"Ann": [-3, -2]})
    assert g.scores["Ann"] == 0 and g.winners == ()


def test_the_game_ends_at_the_end_of_the_turn_in_which_someone_adds_the_fifth_card():
    g = Game(P4, seed=3)
    rb = RandomBot(1)
    while not g.is_over:
        g.apply(rb.choose(g.view(g.current_player), g.legal_actions()))
    sizes = g.tableau_sizes
    assert max(sizes.values()) >= 5
    turns = [e for e in g.events if e[0] == "turn"]
    assert len(turns) == g.turn
    g7 = play_game([RandomBot(i) for i in range(7)], seed=4)
    assert max(g7.tableau_sizes.values()) >= 4


# ---------------------------------------------------------------- bad input
def _state(g: Game):
    return (g.record.to_json(), g.identities, g.tableaux, g._phase, tuple(g._queue), tuple(g._fresh),
            [g.view(p) for p in g.players], g.spectator_view(), g.legal_actions())


@pytest.mark.parametrize("bad, error", [
    ("offer scientist Ann", IllegalAction),       # to oneself
    ("offer politician Bob", IllegalAction),      # not one of the two cards
    ("accept", IllegalAction),
    ("reveal scientist", IllegalAction),          # chance does not act now
    ("offer joker Bob", NotationError),
    ("offer scientist middle", NotationError),
    ("", NotationError),
])
def test_bad_actions_are_refused_and_leave_the_game_as_it_was(bad, error):
    g = manual(P4, DEAL4, "reveal scientist", "reveal diplomat")
    before = _state(g)
    with pytest.raises(error):
        g.apply(bad)
    assert _state(g) == before


def test_the_wrong_player_and_the_end_are_refused():
    g = manual(P4, DEAL4, "reveal scientist", "reveal diplomat")
    with pytest.raises(WrongPlayer):
        g.apply("offer scientist Bob", player="Bob")
    with pytest.raises(WrongPlayer):
        g.view("Zed")
    over = play_game([RandomBot(i) for i in range(4)], seed=2)
    with pytest.raises(IllegalAction, match="over"):
        over.apply("accept")


@pytest.mark.parametrize("args, match", [
    ((["Ann", "Bob", "Cy"],), "4 to 8"),
    ((["Ann", "Ann", "Cy", "Dee"],), "repeat"),
    ((["Ann", "Bob", "Cy", "middle"],), "middle"),
    ((P4, "1"), "seed"),
])
def test_bad_games_are_refused(args, match):
    with pytest.raises(PositionError, match=match):
        Game(*args)


# ---------------------------------------------------------------- seeds, notation, properties
def test_the_same_seed_gives_the_same_game_and_no_seed_draws_one_that_is_recorded():
    a = play_game([RandomBot(i) for i in range(5)], seed=9)
    b = play_game([RandomBot(i) for i in range(5)], seed=9)
    assert a.history == b.history
    g = Game(P4)
    assert type(g.seed) is int and g.record.seed == g.seed
    assert Game(P4, seed=g.seed).history == g.history


def _conserved(g: Game) -> None:
    assert sorted(g.identities.values()) == sorted(t for t, c in g.marker_counts.items() for _ in range(c))
    in_hand = {"offer": len(g.candidates), "un": 1, "answer": 1, "give": 1}.get(g.phase, 0)
    if g.phase == "reveal":
        in_hand = len(g._shown)
    chars = g.deck_size + sum(len(t) for t in g.tableaux.values()) + in_hand
    assert chars == sum(CARD_COUNTS.values()), (g.phase, chars)
    drawn = 1 if g.phase == "shoot" else 0
    assert len(g._bullets) + sum(map(len, g.bullets.values())) + drawn == len(BULLETS)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 8), seed=st.integers(0, 2 ** 32), bot_seed=st.integers(0, 2 ** 32))
def test_random_play_conserves_markers_and_cards_round_trips_notation_and_ends(n, seed, bot_seed):
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:n], seed=seed)
    bot = RandomBot(bot_seed)
    steps = 0
    while not g.is_over:
        _conserved(g)
        legal = g.legal_actions()
        for a in legal:
            assert Action.parse(str(a)) == a
        g.apply(bot.choose(g.view(g.current_player), legal))
        steps += 1
        assert steps < 500
    _conserved(g)
    assert g.turn <= n * (g.end_size - 1) + 1            # every turn adds one character
    assert set(g.winners) <= set(g.players)
