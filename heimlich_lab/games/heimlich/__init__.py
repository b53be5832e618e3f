"""Heimlich & Co. (Wolfgang Kramer and Ursula Kramer, 1984; Top Secret Spies): the kit's first game.

``rules`` (the board, the cards, the engine, views, records, the public replay), ``inference`` (the player
model, beliefs, the dossier), ``bots``, ``widget`` (the board in JupyterLab), ``adapters`` (OpenSpiel and
PettingZoo), ``transcript``, ``svg``, ``play``, ``evaluate`` and ``benchmarks``. The rules as implemented are
in ``docs/rules.md``.
"""
