"""The kit's second game: Secrets (Bruno Faidutti and Eric M. Lang, 2017), where identities move.

CIA, KGB and Hippies; the identity markers are swapped during play, so beliefs must follow them (filtering).
The rules as implemented, with every reading of the OCR'd German rulebook, are in ``docs/secrets.md``.

>>> from heimlich_lab import secrets
>>> rec = secrets.play([secrets.RandomBot(i) for i in range(5)], seed=7)
>>> rec.replay().is_over, sorted(rec.final_identities) == sorted(rec.players + ("middle",))
(True, True)
"""
from ..._lazy import lazy_exports
from .play import play, play_game  # eager: ``secrets.play`` is the function, not the module play.py

#: public name -> the module of this package that defines it (imported when first used, so that the registry
#: of games can read this game's spec without loading its beliefs and bots)
_LAZY = {
    "RandomBot": "..bots.random_bot", "Action": "actions", "Belief": "belief",
    **dict.fromkeys(["BluffBot", "TeamBot", "available_bots", "make_bot"], "bots"),
    **dict.fromkeys(["CHANCE", "Game"], "game"), "SecretsModel": "model", "SecretsRecord": "records",
    **dict.fromkeys(["BULLETS", "CARD_COUNTS", "CARDS", "MIDDLE", "TEAMS", "SecretsRules", "card_value"], "rules"),
    **dict.fromkeys(["Event", "View"], "views"),
    # the table in the notebook loads anywidget
    **dict.fromkeys(["play_in_notebook", "replay_in_notebook"], "widget"),
}
__getattr__, __dir__ = lazy_exports(globals(), _LAZY)

__all__ = ["Action", "Belief", "BluffBot", "BULLETS", "CARD_COUNTS", "CARDS", "CHANCE", "Event", "Game", "MIDDLE",
           "RandomBot",
           "SecretsModel", "SecretsRecord", "SecretsRules", "TEAMS", "TeamBot", "View", "available_bots",
           "card_value", "make_bot", "play", "play_game",
           "play_in_notebook", "replay_in_notebook"]
