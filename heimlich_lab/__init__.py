"""heimlich-lab: teach probability and hidden-information reasoning with Heimlich & Co.

>>> from heimlich_lab import Game, Rules
>>> g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), seed=1)
>>> g.current_player
'Ann'

The names below are imported when first used (PEP 562), so that a part of the kit, say the
game-agnostic :mod:`heimlich_lab.inference.core`, can be imported without the rest.
"""
from . import _compat
from ._lazy import lazy_exports
from .errors import HeimlichError, IllegalAction, ModelError, NotationError, PositionError, RecordError, WrongPlayer

_compat.install()   # old import paths (heimlich_lab.rules, heimlich_lab.secrets, ...) find the games' new homes
from .play import play, play_game  # noqa: E402  (heimlich_lab.play: Heimlich & Co.'s, through _compat)

__version__ = "0.1.0"

#: public name -> the submodule that defines it (imported on first use): the first game's, Heimlich & Co.
_LAZY = {
    **dict.fromkeys(["AGENTS", "COLOURS", "Action", "Event", "Game", "GameRecord", "Position", "Rules", "View"],
                    "games.heimlich.rules"),
    "Belief": "games.heimlich.inference.belief",
    "BeliefSet": "games.heimlich.inference.belief_set",
    "BoltzmannModel": "games.heimlich.inference.model",
    "secret_dossier": "games.heimlich.inference.dossier",
    # the board needs anywidget and ipywidgets
    **dict.fromkeys(["play_in_notebook", "replay_in_notebook"], "games.heimlich.widget.board"),
}

__all__ = ["Action", "AGENTS", "COLOURS", "Event", "Game", "GameRecord", "HeimlichError", "IllegalAction",
           "ModelError", "NotationError", "Position", "PositionError", "RecordError", "Rules", "View",
           "WrongPlayer", "play", "play_game", "Belief", "BeliefSet", "BoltzmannModel", "secret_dossier",
           "play_in_notebook", "replay_in_notebook"]


#: the subpackages reachable as attributes before anyone imported them: the ones `import heimlich_lab` used to
#: import at once, the second and third games (``from heimlich_lab import secrets``, ``topsecret1985``) and the
#: static pictures (``svg``)
__getattr__, __dir__ = lazy_exports(globals(), _LAZY,
                                    subpackages=("rules", "inference", "secrets", "topsecret1985", "svg"))
