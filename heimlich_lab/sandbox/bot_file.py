"""A bot in a Python file: the contract a student's ``student.py`` follows, and loading it.

A bot file defines **either** a class ``Bot`` **or** a function ``choose``:

* ``class Bot`` with a method ``choose(self, view, legal_actions)``; it is made once per game as
  ``Bot(seed=seed)`` (or ``Bot()`` if its ``__init__`` takes no seed);
* ``def choose(view, legal_actions)``, or ``def choose(view, legal_actions, rng)`` to receive a
  :class:`random.Random` seeded for the game (use it for reproducible randomness).

``choose`` gets the player's view (``view.positions``, ``view.own_agents``, ``view.hand``, ``view.log``...,
see :class:`heimlich_lab.View`) and the legal actions, and returns one of them (an
:class:`~heimlich_lab.Action`, or its notation as text, like ``"move red+2"``). ``examples/student_bot.py``
is a complete example. By default such a bot runs in its own process (:mod:`heimlich_lab.sandbox`);
loading it here, in this process, runs its code with all of this process's rights: only for trusted code.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "first.py"
>>> _ = path.write_text("def choose(view, legal_actions):\\n    return legal_actions[0]\\n")
>>> make = bot_factory(load_module(path), path)
>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob"], seed=1)
>>> make(seed=1).choose(g.view("Ann"), g.legal_actions()) == g.legal_actions()[0]
True
"""
from __future__ import annotations

import importlib.util
import inspect
import os
import random
import sys
from pathlib import Path
from typing import Callable

from ..errors import HeimlichError

CONTRACT = ("a bot file defines a class Bot with a method choose(self, view, legal_actions), or a function "
            "choose(view, legal_actions) (or choose(view, legal_actions, rng))")


def load_module(path: "str | os.PathLike"):
    """Import the Python file ``path`` as a module (its folder is put on ``sys.path``, so that modules next
    to it can be imported). This runs the file's code in this process."""
    path = Path(path)
    if path.suffix != ".py" or not path.is_file():
        raise HeimlichError(f"{path}: a bot file is a Python file (.py) that exists")
    name = "heimlich_bot_" + "".join(c if c.isalnum() else "_" for c in path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has a loader
        raise HeimlichError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec.loader.exec_module(module)
    return module


def bot_factory(module, path="the bot file") -> Callable:
    """``make(seed=None)`` -> a new bot, from a module that follows the contract (see the module doc)."""
    cls = getattr(module, "Bot", None)
    if isinstance(cls, type):
        if not callable(getattr(cls, "choose", None)):
            raise HeimlichError(f"{path}: class Bot has no method choose(self, view, legal_actions)")
        takes_seed = _accepts(cls, "seed")

        def make(seed=None):
            return cls(seed=seed) if takes_seed else cls()
        return make
    fn = getattr(module, "choose", None)
    if callable(fn):
        with_rng = _n_positional(fn) >= 3

        def make(seed=None):
            return FunctionBot(fn, seed, with_rng)
        return make
    raise HeimlichError(f"{path}: {CONTRACT}")


class FunctionBot:
    """A bot made of a function ``choose(view, legal_actions[, rng])``."""

    def __init__(self, fn, seed=None, with_rng: bool = False):
        self.fn, self.seed, self.with_rng = fn, seed, with_rng
        self.rng = random.Random(seed)

    def choose(self, view, legal_actions):
        if self.with_rng:
            return self.fn(view, legal_actions, self.rng)
        return self.fn(view, legal_actions)

    def __repr__(self):
        return f"FunctionBot({getattr(self.fn, '__module__', '?')}.choose, seed={self.seed})"


def _accepts(cls, name: str) -> bool:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _n_positional(fn) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 2
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return 3
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
