"""heimlich-lab: teach probability and hidden-information reasoning with Heimlich & Co.

>>> from heimlich_lab import Game, Rules
>>> g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), seed=1)
>>> g.current_player
'Ann'
"""
from .errors import (HeimlichError, IllegalAction, ModelError, NotationError, PositionError, RecordError,
                     WrongPlayer)
from .play import play, play_game
from .inference import Belief, BeliefSet, BoltzmannModel, secret_dossier
from .rules import AGENTS, COLOURS, Action, Event, Game, GameRecord, Position, Rules, View

__version__ = "0.1.0"

__all__ = ["Action", "AGENTS", "COLOURS", "Event", "Game", "GameRecord", "HeimlichError", "IllegalAction",
           "ModelError", "NotationError", "Position", "PositionError", "RecordError", "Rules", "View",
           "WrongPlayer", "play", "play_game", "Belief", "BeliefSet", "BoltzmannModel", "secret_dossier",
           "play_in_notebook", "replay_in_notebook"]


def __getattr__(name):
    # The board needs anywidget and ipywidgets: import it only when asked for.
    if name in ("play_in_notebook", "replay_in_notebook"):
        from . import widget
        return getattr(widget, name)
    raise AttributeError(f"module 'heimlich_lab' has no attribute {name!r}")
