"""The games of the kit, each a peer in its own package: ``heimlich`` (Heimlich & Co.) and ``secrets``
(Secrets). A game's package holds its rules and engine, its player model, beliefs and bots, its table for
JupyterLab and what the shared layers need to know about it (its spec). The shared layers
(:mod:`heimlich_lab.engine`, :mod:`heimlich_lab.inference`, :mod:`heimlich_lab.bots`,
:mod:`heimlich_lab.widget`, :mod:`heimlich_lab.analysis`, :mod:`heimlich_lab.commands`) know no game.
"""
