"""The anywidget every game's table is (:class:`TableWidget`), the autoplay pace, and where a front end lives.

A game's front end is an ES module and its CSS (each game's subclass names them, ``_esm`` and ``_css``; the
wheel ships them inside the game's package). It knows no rules: it draws two synced traitlets, ``setup``
(fixed for a game) and ``state`` (what the viewer may see now, with the decisions), and sends its messages
(``widgets/README.md``) to its controller.

>>> clamp_speed(5000), clamp_speed(-1), clamp_speed("120")
(2000, 0, 120)
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..errors import HeimlichError

#: The autoplay pace (ms per bot step): one range for the kernel (``set_speed``) and the front end's
#: slider (``SPEED_RANGE`` in ``widgets/shell.js``, the table shell; a test checks they agree).
SPEED_MIN_MS, SPEED_MAX_MS, SPEED_STEP_MS = 0, 2000, 50


def clamp_speed(ms) -> int:
    """``ms`` clamped to the autoplay range shared with the front end's slider."""
    try:
        x = float(ms) if not isinstance(ms, bool) else math.nan
    except (TypeError, ValueError):
        x = math.nan
    if not math.isfinite(x):     # "fast", inf, None: refused, not a ValueError or OverflowError from int()
        raise HeimlichError(f"speed_ms must be a number of milliseconds, not {ms!r}")
    return max(SPEED_MIN_MS, min(SPEED_MAX_MS, int(x)))


def find_static(package_dir: Path, checkout_dir: Path, file: str) -> Path:
    """Where a game's front end lives: ``package_dir / "static"`` inside the installed package (the wheel ships it
    there), else ``checkout_dir`` in a checkout of the repository; the folder that holds ``file``."""
    for folder in (package_dir / "static", checkout_dir):
        if (folder / file).exists():
            return folder
    raise FileNotFoundError(f"the front end ({file}) is missing from the package and the checkout; run: make bundle")


def notebook_path() -> str:
    """The notebook's path that the Jupyter server gave this kernel (``JPY_SESSION_NAME``), or "" (plain Python,
    a kernel started without a notebook): the key of what a table remembers per notebook (projector mode).

    >>> import os; saved = os.environ.pop("JPY_SESSION_NAME", None)
    >>> os.environ["JPY_SESSION_NAME"] = "course/01-start-here.ipynb"
    >>> notebook_path()
    'course/01-start-here.ipynb'
    >>> del os.environ["JPY_SESSION_NAME"]; notebook_path()
    ''
    >>> if saved is not None: os.environ["JPY_SESSION_NAME"] = saved
    """
    return os.environ.get("JPY_SESSION_NAME", "")


class TableWidget(anywidget.AnyWidget):
    """A game's table as an anywidget: ``setup`` (fixed for the game, sent once), ``state`` (what the viewer may
    see now), ``speed_ms`` (animation and autoplay pace) and ``class_data`` (the *Class data* box, empty unless
    the table saves games for a class: :mod:`heimlich_lab.widget.class_folder`). Messages from the front end go
    to ``controller``. Each game's subclass names its front end (``_esm``, ``_css``)."""

    setup = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    speed_ms = traitlets.Int(400).tag(sync=True)
    class_data = traitlets.Dict().tag(sync=True)
    #: Projector mode (the table shell's toggle): a larger board and text for a room. The front end remembers the
    #: choice per notebook in the browser (localStorage, keyed by ``notebook``) and sets this traitlet to it.
    projector = traitlets.Bool(False).tag(sync=True)
    #: The notebook's path as the server names it (``JPY_SESSION_NAME``; "" elsewhere): the projector choice's key.
    notebook = traitlets.Unicode("").tag(sync=True)

    #: The synced traits that hold JSON only (dicts, lists, strings, numbers, booleans, ``None``; never bytes):
    #: :meth:`send_state` sends them without ipywidgets' search for binary buffers.
    JSON_ONLY = frozenset({"setup", "state", "class_data"})

    def __init__(self, controller: Any = None, **kwargs: Any) -> None:
        kwargs.setdefault("notebook", notebook_path())
        super().__init__(**kwargs)
        self.controller = controller
        self.on_msg(self._on_front_end_message)

    def send_state(self, key: Any = None) -> None:
        """ipywidgets' ``send_state``, the same message, for one of the traits in :data:`JSON_ONLY` without the
        walk through every dict and list of the value that looks for binary buffers (there are none: the message
        says ``buffer_paths: []`` as ipywidgets' would); any other key goes through ipywidgets' own. The table's
        state changes at every step, and the walk cost as much as building part of it."""
        if not (isinstance(key, str) and key in self.JSON_ONLY):
            return super().send_state(key)
        state = self.get_state(key=key)
        if self._property_lock:     # as ipywidgets: keep a value the front end is sending up to date
            for name, value in state.items():
                if name in self._property_lock:
                    self._property_lock[name] = value
        self._send({"method": "update", "state": state, "buffer_paths": []}, buffers=[])
        return None

    def _on_front_end_message(self, widget, content, buffers):
        if self.controller is not None and isinstance(content, dict):
            self.controller.handle_message(content)
