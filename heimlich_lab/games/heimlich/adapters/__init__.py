"""Adapters to reinforcement-learning and game-theory toolkits (optional extras).

* :mod:`heimlich_lab.games.heimlich.adapters.openspiel`: the game registered with OpenSpiel as
  ``"heimlich_lab"`` (``pip install heimlich-lab[openspiel]``).
* :mod:`heimlich_lab.games.heimlich.adapters.pettingzoo_env`: a PettingZoo AEC environment with
  action masks (``pip install heimlich-lab[pettingzoo]``).
* :mod:`heimlich_lab.games.heimlich.adapters.encoding`: the integer action ids and observation
  vectors both use (no extra needed).

Nothing is imported until asked for (``from heimlich_lab.games.heimlich.adapters import env``
loads PettingZoo then), so ``import heimlich_lab`` never loads pyspiel or
pettingzoo.
"""
from __future__ import annotations

import importlib

_LAZY = {
    "HeimlichGame": "openspiel", "load_openspiel_game": "openspiel",
    "HeimlichEnv": "pettingzoo_env", "env": "pettingzoo_env", "raw_env": "pettingzoo_env",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
