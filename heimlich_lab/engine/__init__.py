"""The engine every game shares, and knows no game: the contract each game implements
(:mod:`~heimlich_lab.engine.contract`), the registry of games as data (:mod:`~heimlich_lab.engine.registry`) and
the play loop with its seat names (:mod:`~heimlich_lab.engine.play`).
"""
