"""Heimlich & Co. (Wolfgang Kramer and Ursula Kramer, 1984; Top Secret Spies): the kit's first game.

``rules`` (the board, the cards, the engine, views, records, the public replay), ``inference`` (the player
model, beliefs, the dossier), ``bots``, ``widget`` (the board in JupyterLab), ``adapters`` (OpenSpiel and
PettingZoo), ``transcript``, ``svg`` (static pictures), ``display`` (in a notebook), ``play``, ``evaluate``,
``analysis`` (its tournament table and belief evaluator), ``cli`` (its command-line options), ``benchmarks``
and ``spec`` (what the registry of games knows about it). The rules as implemented are in ``docs/rules.md``;
its public names are :mod:`heimlich_lab`'s (``from heimlich_lab import Game, Rules, play, Belief``).
"""
