"""One controller shape for every game's table (heimlich_lab.widget.table_controller): the same checks, bot
steps, curtain, autoplay controls and replay slider, whichever game is on the table."""
from __future__ import annotations

import logging

import pytest

from heimlich_lab import secrets, topsecret1985
from heimlich_lab.games.topsecret1985 import widget as topsecret_widget
from heimlich_lab.secrets import widget as secrets_widget
from heimlich_lab.bots import RandomBot
from heimlich_lab.errors import WrongPlayer
from heimlich_lab.widget import GameController, ReplayController
from heimlich_lab.widget.front_end import SPEED_MAX_MS, TableWidget
from heimlich_lab.widget.table_controller import TableController, TableReplay

HEIMLICH = ("Ann", "Bob", "Cy")
SECRETS = ("Ann", "Bob", "Cy", "Dee")
TOPSECRET = ("Ann", "Bob")
PLAYERS = {"heimlich": HEIMLICH, "secrets": SECRETS, "topsecret1985": TOPSECRET}
CONTROLLERS = {"heimlich": GameController, "secrets": secrets_widget.SecretsController,
               "topsecret1985": topsecret_widget.TopSecretController}


def live(game: str, humans=(), **kw):
    players = PLAYERS[game]
    bots = {p: RandomBot(i) for i, p in enumerate(players) if p not in humans}
    return CONTROLLERS[game](players, bots=bots, seed=3, beliefs=False, **kw)


def replay(game: str, viewer=None):
    if game == "heimlich":
        rec = GameController(HEIMLICH, bots={p: RandomBot(i) for i, p in enumerate(HEIMLICH)}, seed=2,
                             beliefs=False)
        rec.run_bots()
        return ReplayController(rec.record, viewer=viewer, beliefs=False)
    if game == "topsecret1985":
        rec = topsecret1985.play([topsecret1985.RandomBot(i) for i in range(2)], seed=2)
        return topsecret_widget.TopSecretReplay(rec, viewer=viewer, beliefs=False)
    rec = secrets.play([secrets.RandomBot(i) for i in range(4)], seed=2)
    return secrets_widget.SecretsReplay(rec, viewer=viewer, beliefs=False)


GAMES = ("heimlich", "secrets", "topsecret1985")


@pytest.mark.parametrize("game", GAMES)
def test_both_tables_are_one_shape(game):
    ctl, rep = live(game), replay(game)
    assert isinstance(ctl, TableController) and isinstance(rep, TableReplay)
    assert isinstance(ctl.widget, TableWidget) and isinstance(rep.widget, TableWidget)
    assert ctl.widget.controller is ctl and rep.widget.controller is rep


class Refused:
    """A bot that always names an action the rules refuse."""

    def choose(self, view, legal_actions):
        return "no such action"


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_bot_pauses_either_table_and_logs_the_detail_only(game, caplog):
    ctl = live(game, autoplay=True)
    p = ctl.decider
    ctl.bots[p] = Refused()
    before = len(ctl.game.history)
    with caplog.at_level(logging.WARNING, logger="heimlich_lab.widget"):
        assert ctl.step() is False
    assert not ctl.playing and len(ctl.game.history) == before
    assert ctl.widget.state["error"] == (f"The bot {p} chose an action the rules refuse; the game is paused "
                                         "(details in the log).")
    assert any("no such action" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("game", GAMES)
def test_the_controls_work_alike(game):
    ctl = live(game)
    assert not ctl.playing                       # bots alone: click Play
    n = len(ctl.game.history)
    ctl.handle_message({"type": "control", "command": "step"})
    assert len(ctl.game.history) > n
    ctl.handle_message({"type": "control", "command": "play"})
    assert ctl.playing and ctl.widget.state["autoplay"]["playing"]
    ctl.handle_message({"type": "control", "command": "speed", "value": 99999})
    assert ctl.widget.speed_ms == SPEED_MAX_MS and ctl.widget.state["autoplay"]["speed_ms"] == SPEED_MAX_MS
    ctl.handle_message({"type": "control", "command": "pause"})
    assert not ctl.playing and ctl._pending is None
    assert ctl.run_bots() > 0 and ctl.game.is_over and ctl.decider is None
    ctl.send_action("anything")
    assert ctl.widget.state["error"] == "The game is over."


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_for_a_bot_or_another_player_is_refused_alike(game):
    players = PLAYERS[game]
    ctl = live(game, humans=players[:1])
    ctl.run_bots()
    d = ctl.decider
    assert d == players[0]
    n = len(ctl.game.history)
    ctl.send_action("x", player=players[1])
    assert ctl.widget.state["error"] == f"It is {d}'s decision, not {players[1]}'s."
    assert len(ctl.game.history) == n


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_viewer_is_refused_alike(game):
    with pytest.raises(WrongPlayer, match="viewer must be a player, 'omniscient' or None"):
        live(game, viewer="Zed") if game == "heimlich" else CONTROLLERS[game](PLAYERS[game], viewer="Zed")
    with pytest.raises(WrongPlayer, match="viewer must be a player"):
        replay(game, viewer="Zed")


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_slider_clamps_and_steps(game):
    rep = replay(game, viewer="Bob")
    assert rep.index == 0 and rep.label == "Replay, Bob's view"
    rep.handle_message({"type": "replay", "index": 10 ** 6})
    assert rep.index == len(rep) - 1
    rep.handle_message({"type": "replay", "index": "nonsense"})
    assert rep.index == len(rep) - 1
    rep.handle_message({"type": "replay", "index": -5})
    rep.handle_message({"type": "control", "command": "step"})
    assert rep.index == 1 and rep.widget.state["replay"]["index"] == 1
