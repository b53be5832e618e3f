"""The interactive board for JupyterLab (anywidget + SVG)."""
from .board import BoardWidget, GameController, ReplayController, play_in_notebook, replay_in_notebook
from .state import board_state

__all__ = ["BoardWidget", "GameController", "ReplayController", "board_state", "play_in_notebook",
           "replay_in_notebook"]
