"""The board widget: play Heimlich & Co. inside JupyterLab (or Voila).

:func:`play_in_notebook` opens a game for humans around one screen (hot seat),
humans against bots, or bots alone; :func:`replay_in_notebook` shows a saved
record with a slider. The front end is a small ES module in ``widgets/``
(shipped inside the wheel as ``heimlich_lab/widget/static``); the state it
draws comes from :func:`heimlich_lab.games.heimlich.widget.state.board_state`, which is made
from the viewer's view only.

One idea per module: :mod:`~heimlich_lab.widget.front_end` (the anywidget),
:mod:`~heimlich_lab.games.heimlich.widget.game_controller` (a live game),
:mod:`~heimlich_lab.games.heimlich.widget.replay_controller` (a saved record),
:mod:`~heimlich_lab.games.heimlich.widget.panel` (the belief panel) and
:mod:`~heimlich_lab.games.heimlich.widget.state` (the synced data). This module opens them.

>>> from heimlich_lab.bots import RandomBot
>>> w = play_in_notebook(["Ann", "Bob"], bots={"Bob": RandomBot(seed=1)}, seed=3)
>>> ctl = w.controller
>>> w.state["viewer"], w.state["is_human_turn"], [d["notation"] for d in w.state["decisions"]]
('Ann', True, ['roll'])
>>> ctl.send_action("roll"); w.state["phase"] in ("points", "move")
True
>>> ctl.send_action("pass"); w.state["error"].startswith("pass")     # refused: shown, game unchanged
True
"""
from __future__ import annotations

from typing import Mapping, Sequence

from ....widget.front_end import SPEED_MAX_MS, SPEED_MIN_MS, SPEED_STEP_MS, clamp_speed
from ..rules.game import Position
from ..rules.ruleset import Rules
from .front_end import BoardWidget, static_dir
from .game_controller import GameController
from .replay_controller import ReplayController

__all__ = ["BoardWidget", "GameController", "ReplayController", "SPEED_MAX_MS", "SPEED_MIN_MS", "SPEED_STEP_MS",
           "clamp_speed", "play_in_notebook", "replay_in_notebook", "static_dir"]


def play_in_notebook(players: Sequence[str], bots: Mapping[str, object] | None = None, rules: Rules | None = None,
                     seed: int | None = None, viewer: str | None = None, speed_ms: int = 400, beliefs: bool = True,
                     start: Position | None = None, autoplay: bool | None = None, **kwargs) -> BoardWidget:
    """Open a game on the board: hot seat for the humans, bots for the rest (see :class:`GameController`).

    ``bots`` maps player names to bots; players without a bot are humans. With no humans, ``viewer``
    chooses the view shown (``None`` spectator, a player, or ``"omniscient"``). The controller is
    ``widget.controller``. ``class_folder="class-games"`` saves the finished game there for the class if every
    human ticks the board's consent box (``create_folder=True`` creates the folder; see docs/class-data.md).
    """
    ctl = GameController(players, bots=bots, rules=rules, seed=seed, viewer=viewer, speed_ms=speed_ms,
                         beliefs=beliefs, start=start, autoplay=autoplay, **kwargs)
    return ctl.widget


def replay_in_notebook(record, viewer: str | None = None, speed_ms: int = 300, beliefs: bool = True) -> BoardWidget:
    """Replay a record (or a path to one) on the board with a slider."""
    return ReplayController(record, viewer=viewer, speed_ms=speed_ms, beliefs=beliefs).widget
