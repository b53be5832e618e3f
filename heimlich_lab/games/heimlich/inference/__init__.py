"""Heimlich & Co.'s inference, one idea per module: ``belief`` (one observer's exact belief over who controls
which agent, fed by the public stream of :mod:`heimlich_lab.games.heimlich.rules.replay`), ``belief_set``
(several observers of one game), ``baselines``, ``likelihoods`` (asking a player model), ``model`` and
``utility`` (the kit's player model), ``player_types`` (a population of kinds of player, learned per player),
``population`` (fitting the population to a class's games), ``exposure`` (what the table can see), ``wording``
(decisions in words), ``dossier`` (the Secret Dossier notes and sheets) and ``fit``. They are built on the
game-agnostic :mod:`heimlich_lab.inference` core.
"""
