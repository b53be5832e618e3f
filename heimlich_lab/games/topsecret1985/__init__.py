"""The kit's third game: Top Secret (Alex Randolph, 1985), where an owner's moves betray which suitcase holds the
bomb.

Each player hides 5, 3 and 1 secrets and a bomb in their four suitcases A-D; everyone sees where every suitcase
is and who carries it. The rules as implemented, with every reading of the French and Dutch rulebook, are in
``docs/topsecret1985.md``.

>>> from heimlich_lab import topsecret1985
>>> rec = topsecret1985.play([topsecret1985.RandomBot(i) for i in range(4)], seed=7)
>>> rec.replay().is_over, sorted(rec.contents) == sorted(rec.players)
(True, True)
>>> sorted(rec.contents["Ann"].values())
['1', '3', '5', 'bomb']
"""
from ..._lazy import lazy_exports
from .play import play, play_game  # eager: ``topsecret1985.play`` is the function, not the module play.py

#: public name -> the module of this package that defines it (imported when first used)
_LAZY = {
    "RandomBot": "..bots.random_bot", "Action": "actions", "Belief": "belief",
    **dict.fromkeys(["DuelSolution", "DuelValues", "duel_equilibrium"], "duel"),
    **dict.fromkeys(["PlayerType", "Population"], "model"),
    "TypeBot": "bots",
    **dict.fromkeys(["available_bots", "make_bot"], "bots"),
    **dict.fromkeys(["CHANCE", "Game", "SEATING"], "game"),
    **dict.fromkeys(["CORNERS", "LETTERS", "Map", "MapError"], "map"),
    "TopSecretRecord": "records",
    **dict.fromkeys(["AGENTS", "CONTENTS", "DIE_FACES", "DUEL_CARDS", "TopSecretRules", "VALUES"], "rules"),
    **dict.fromkeys(["Event", "View"], "views"),
    "transcript": "transcript",
}
__getattr__, __dir__ = lazy_exports(globals(), _LAZY)

__all__ = ["AGENTS", "Action", "Belief", "CHANCE", "CONTENTS", "CORNERS", "DIE_FACES", "DUEL_CARDS", "DuelSolution",
           "DuelValues", "Event", "Game", "LETTERS", "Map", "MapError", "PlayerType", "Population", "RandomBot",
           "SEATING", "TopSecretRecord", "TopSecretRules", "TypeBot", "VALUES", "View", "available_bots",
           "duel_equilibrium", "make_bot", "play", "play_game", "transcript"]
