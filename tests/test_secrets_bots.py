"""Secrets bots: the protocol and registry, the team player's choices in worked situations, its strength
against random play, and what bluffing does to a reader of choices."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab.bots.registry import make_bot as registry_make_bot
from heimlich_lab.errors import HeimlichError
from heimlich_lab.secrets import (Belief, BluffBot, Game, RandomBot, SecretsModel, TeamBot, available_bots,
                                  make_bot, play_game)

P5 = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def manual(*actions, players=P5, deal="deal Ann=CIA Bob=KGB Cy=Hippie Dee=KGB Eve=CIA middle=Hippie") -> Game:
    g = Game(players, chance="manual", seed=0)
    for a in (deal, *actions):
        g.apply(a)
    return g


def decide(bot, g: Game) -> str:
    return str(bot.choose(g.view(g.current_player), g.legal_actions()))


def test_the_registry_makes_secrets_bots_by_name():
    assert available_bots() == ["bluff", "random", "team"]
    assert isinstance(make_bot("team", seed=1), TeamBot)
    assert isinstance(registry_make_bot("bluff", seed=1, game="secrets"), BluffBot)
    with pytest.raises(HeimlichError, match="unknown bot 'greedy' for secrets"):
        make_bot("greedy")


def test_a_team_player_offers_the_good_card_to_the_teammate_it_saw():
    # Ann (CIA) saw her right neighbour Eve's marker at the start: CIA too
    g = manual("reveal scientist", "reveal detective")
    assert decide(TeamBot(0), g) == "offer scientist Eve"


def test_a_team_player_gives_bad_cards_and_bullets_to_the_rival_it_saw():
    # Bob (KGB) saw Ann (CIA): with two bad cards to choose from, one goes to her
    g = manual("reveal scientist", "reveal detective", "offer scientist Eve", "accept", "reveal detective",
               "reveal psychiatrist")
    assert g.current_player == "Bob" and decide(TeamBot(0), g).endswith(" Ann")
    g = manual("reveal assassin", "reveal journalist", "offer assassin Bob", "accept", "bullet -3")
    assert decide(TeamBot(0), g) == "shoot Ann"


def test_a_hippie_aims_low_and_refuses_good_cards():
    g = manual("reveal scientist", "reveal politician", "offer scientist Cy")
    assert g.current_player == "Cy" and decide(TeamBot(0), g) == "refuse"
    g = manual("reveal detective", "reveal psychiatrist", "offer detective Cy")
    assert decide(TeamBot(0), g) == "accept"


def test_the_detective_looks_where_the_belief_is_least_sure():
    g = manual("reveal detective", "reveal journalist", "offer detective Bob", "accept")
    choice = decide(TeamBot(0), g)
    known = g.view("Bob").known_markers
    assert choice.startswith("look ") and choice.split()[1] not in known


def test_team_players_win_more_often_than_random_players():
    wins = {"team": 0, "random": 0}
    seats = {"team": 0, "random": 0}
    for s in range(150):
        kinds = ["team" if (i + s) % 2 == 0 else "random" for i in range(5)]
        bots = {p: (TeamBot if k == "team" else RandomBot)(10 * s + i) for i, (p, k) in enumerate(zip(P5, kinds))}
        g = play_game(bots, seed=s)
        for p, k in zip(P5, kinds):
            seats[k] += 1
            wins[k] += p in g.winners
    rate = {k: wins[k] / seats[k] for k in wins}
    assert rate["team"] > rate["random"] + 0.05, rate


def test_bluffing_misleads_a_reader_of_choices():
    """A model-reading observer is misled more (a higher log loss) about a bluffer's team than a team player's."""
    model = SecretsModel()
    truth_p = {"team": [], "bluff": []}
    for s in range(30):
        bots = {p: (TeamBot if i % 2 == 0 else BluffBot)(10 * s + i) for i, p in enumerate(P5)}
        g = play_game(bots, seed=s)
        truth = g.record.final_identities
        for obs in P5:
            ident = Belief.from_record(g.record, observer=obs, model=model).identities()
            for i, p in enumerate(P5):
                if p != obs:
                    truth_p["team" if i % 2 == 0 else "bluff"].append(-np.log(max(ident[p][truth[p]], 1e-15)))
    loss = {k: float(np.mean(v)) for k, v in truth_p.items()}
    assert loss["bluff"] > 1.5 * loss["team"], loss
