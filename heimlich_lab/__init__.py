"""heimlich-lab: teach probability and hidden-information reasoning with Heimlich & Co.

>>> from heimlich_lab import Game, Rules
>>> g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), seed=1)
>>> g.current_player
'Ann'

The names below are imported when first used (PEP 562), so that a part of the kit, say the
game-agnostic :mod:`heimlich_lab.inference.core`, can be imported without the rest.
"""
from ._lazy import lazy_exports
from .errors import (HeimlichError, IllegalAction, ModelError, NotationError, PositionError, RecordError,
                     WrongPlayer)
from .play import play, play_game

__version__ = "0.1.0"

#: public name -> the submodule that defines it (imported on first use)
_LAZY = {
    **dict.fromkeys(["AGENTS", "COLOURS", "Action", "Event", "Game", "GameRecord", "Position", "Rules", "View"],
                    "rules"),
    **dict.fromkeys(["Belief", "BeliefSet", "BoltzmannModel", "secret_dossier"], "inference"),
    # the board needs anywidget and ipywidgets
    **dict.fromkeys(["play_in_notebook", "replay_in_notebook"], "widget"),
}

__all__ = ["Action", "AGENTS", "COLOURS", "Event", "Game", "GameRecord", "HeimlichError", "IllegalAction",
           "ModelError", "NotationError", "Position", "PositionError", "RecordError", "Rules", "View",
           "WrongPlayer", "play", "play_game", "Belief", "BeliefSet", "BoltzmannModel", "secret_dossier",
           "play_in_notebook", "replay_in_notebook"]


#: the subpackages `import heimlich_lab` used to import at once (still reachable as attributes)
__getattr__, __dir__ = lazy_exports(globals(), _LAZY, subpackages=("rules", "inference"))
