"""The app's chooser (heimlich_lab/commands/app.py; issue 24, item 10): the games come from the registry, each
mode opens one table of the chosen game, and a bad choice or file is refused with a clear message, the chooser
unchanged. The browser test of the app served by Voila is tests/browser/test_app_browser.py."""
from __future__ import annotations

import json

import ipywidgets as W
import pytest
from test_fake_game import SPEC as PARITY

from heimlich_lab.commands.app import MODES, TITLE, TableApp, playable_games, read_record, seat_names
from heimlich_lab.engine.play import play_game
from heimlich_lab.engine.registry import GameSpec, game_spec, games, register_game, unregister_game
from heimlich_lab.errors import HeimlichError

#: tables opened by the third game's play_in_notebook / replay_in_notebook (for the test below)
OPENED: list[tuple] = []


def third_table(players, **kwargs):
    OPENED.append(("play", tuple(players), kwargs))
    return W.HTML(f"a table for {', '.join(players)}")


def third_replay(record, viewer=None):
    OPENED.append(("replay", record, viewer))
    return W.HTML("a replay")


THIRD = GameSpec(name="thirdgame", title="Third Game", min_players=2, max_players=5, default_players=3,
                 game=PARITY.game, rules=PARITY.rules, record=PARITY.record, bots=PARITY.bots,
                 play_in_notebook=f"{__name__}:third_table", replay_in_notebook=f"{__name__}:third_replay")


@pytest.fixture
def third():
    register_game(THIRD)
    OPENED.clear()
    try:
        yield THIRD
    finally:
        unregister_game(THIRD.name)


def test_the_chooser_offers_every_registered_game_with_a_table(third):
    app = TableApp()
    offered = [value for _, value in app.game.options]
    assert offered == [s.name for s in games() if s.has("play_in_notebook")] == [s.name for s in playable_games()]
    assert "thirdgame" in offered and len(offered) >= 3
    assert [label for label, _ in app.mode.options] == list(MODES.values())
    assert TITLE in app.header.value


def test_the_help_line_names_the_choice_the_kernel_shows():
    """A page knows the chooser has settled when the help line names the choice (the browser test waits for it)."""
    app = TableApp()
    assert 'data-choice="heimlich/bots"' in app.mode_help.value
    app.game.value, app.mode.value = "secrets", "hotseat"
    assert 'data-choice="secrets/hotseat"' in app.mode_help.value
    assert app.bot not in app.options.children          # the options shown are the hot seat's


def test_a_registered_game_plays_in_each_mode_from_the_registry_alone(third):
    app = TableApp()
    app.game.value = "thirdgame"
    assert (app.players.min, app.players.max, app.players.value) == (2, 5, 3)
    table = app.start(mode="hotseat", players=4, seed=9)
    assert table is not None and app.table is table and app.box.children[-1] is table
    assert OPENED[-1][:2] == ("play", ("Ann", "Bob", "Cy", "Dee")) and OPENED[-1][2]["bots"] == {}
    app.choose_again()
    assert app.table is None and app.chooser in app.box.children
    app.start(mode="bots", players=2, seed=9)
    assert OPENED[-1][1] == ("You", "Bob") and set(OPENED[-1][2]["bots"]) == {"Bob"}
    app.choose_again()
    app.start(mode="watch", players=3, seed=9)
    assert set(OPENED[-1][2]["bots"]) == {"Ann", "Bob", "Cy"} and OPENED[-1][2]["autoplay"] is False


def test_each_mode_opens_exactly_one_table_of_the_kits_games():
    app = TableApp()
    assert {"heimlich", "secrets", "topsecret1985"} <= {s.name for s in playable_games()}
    for spec in playable_games():        # every game with a table: Heimlich & Co., Secrets, Top Secret
        for mode in ("hotseat", "bots", "watch"):
            table = app.start(game=spec.name, mode=mode, seed=3)
            assert table is not None, app.error.value
            assert sum(isinstance(c, W.DOMWidget) and c is table for c in app.box.children) == 1
            assert app.chooser not in app.box.children
            ctl = table.controller
            humans = {"hotseat": spec.default_players, "bots": 1, "watch": 0}[mode]
            assert len(ctl.humans) == humans
            app.choose_again()


def test_a_replay_reads_an_uploaded_record_of_the_chosen_game(tmp_path):
    from heimlich_lab.bots.registry import make_bot
    spec = game_spec("heimlich")
    game = play_game(spec.load("game"), {p: make_bot("random", seed=i, game="heimlich")
                                         for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=4)
    data = game.record.to_json().encode() if isinstance(game.record.to_json(), str) else game.record.to_json()
    app = TableApp()
    app.game.value = "heimlich"
    app.mode.value = "replay"
    assert app.start() is None and "Choose a saved game" in app.error.value
    app.load_record(data, "game.json")
    assert [v for _, v in app.viewer.options] == ["spectator", "omniscient", "Ann", "Bob", "Cy"]
    app.viewer.value = "Bob"
    table = app.start()
    assert table.controller.viewer == "Bob" and "seen by Bob" in app.summary.value


@pytest.mark.parametrize("data, words", [
    (b"{not json", "not a saved game"),
    (b"[1, 2]", "not a saved game"),
    (json.dumps({"format": "heimlich-lab-record", "game": "secrets"}).encode(), "a record of Secrets, not of Heimlich"),
])
def test_a_bad_file_is_refused_and_the_choice_stays(data, words):
    app = TableApp()
    app.game.value, app.mode.value = "heimlich", "replay"
    with pytest.raises(HeimlichError, match=words):
        app.load_record(data, "x.json")
    assert app.record is None and app.table is None


def test_a_bad_choice_is_a_clear_message_and_nothing_opens():
    app = TableApp()
    assert app.start(game="heimlich", mode="chess") is None
    assert "unknown mode 'chess'" in app.error.value and app.table is None
    assert app.start(game="nogame") is None and "unknown game 'nogame'" in app.error.value


def test_seat_names_and_a_record_of_the_wrong_game():
    assert seat_names(2, you=True) == ["You", "Bob"]
    with pytest.raises(HeimlichError, match="not a saved game"):
        read_record(game_spec("secrets"), b"")
