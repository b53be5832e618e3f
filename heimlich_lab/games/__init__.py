"""The games of the kit, each a peer in its own package: ``heimlich`` (Heimlich & Co.), ``secrets``
(Secrets) and ``topsecret1985`` (Top Secret, 1985). A game's package holds its rules and engine, its player
model, beliefs and bots, its table for JupyterLab, and its spec (``spec.py``: what the shared layers need to
know about it, see :class:`heimlich_lab.engine.registry.GameSpec`). The shared layers (:mod:`heimlich_lab.engine`,
:mod:`heimlich_lab.inference`, :mod:`heimlich_lab.bots`, :mod:`heimlich_lab.widget`,
:mod:`heimlich_lab.analysis`, :mod:`heimlich_lab.commands`) know no game: they find the games through the
registry.

>>> from heimlich_lab.engine.registry import game_names
>>> game_names()
('heimlich', 'secrets', 'topsecret1985')
"""
from importlib import import_module

#: The games the kit ships, in the order the commands list them (the first is the default game).
BUILTIN = ("heimlich", "secrets", "topsecret1985")


def register_builtin_games() -> None:
    """Register the spec of every game in :data:`BUILTIN` (called by the registry when first asked)."""
    from ..engine.registry import register_game
    for name in BUILTIN:
        register_game(import_module(f".{name}.spec", __name__).SPEC)
