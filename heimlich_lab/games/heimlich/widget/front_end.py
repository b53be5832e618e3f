"""The board of Heimlich & Co. as an anywidget (:class:`BoardWidget`), and where its front end lives.

The front end is ``widgets/board.bundle.js`` (esbuild bundles ``widgets/board.js``, ``logic.js`` and
``render.js``; the wheel ships it as ``heimlich_lab/games/heimlich/widget/static``). It knows no rules: it draws
two synced traitlets, ``setup`` (fixed for a game: :func:`~heimlich_lab.games.heimlich.widget.state.board_setup`)
and ``state`` (the position and the decisions now: :func:`~heimlich_lab.games.heimlich.widget.state.board_state`),
and sends the messages described in ``widgets/README.md`` to its controller.
"""
from __future__ import annotations

from pathlib import Path

from ....widget.front_end import TableWidget, find_static


def static_dir() -> Path:
    """Where the front end lives: inside the installed package (wheel), else the checkout's ``widgets/``."""
    return find_static(Path(__file__).resolve().parent, Path(__file__).resolve().parents[4] / "widgets",
                       "board.bundle.js")


class BoardWidget(TableWidget):
    """The board of Heimlich & Co. (see :class:`~heimlich_lab.widget.front_end.TableWidget`)."""

    _esm = static_dir() / "board.bundle.js"  # one module: anywidget loads it from a blob URL
    _css = static_dir() / "board.css"
