"""The kit's second game: Secrets (Bruno Faidutti and Eric M. Lang, 2017), where identities move.

CIA, KGB and Hippies; the identity markers are swapped during play, so beliefs must follow them (filtering).
The rules as implemented, with every reading of the OCR'd German rulebook, are in ``docs/secrets.md``.

>>> from heimlich_lab import secrets
>>> rec = secrets.play([secrets.RandomBot(i) for i in range(5)], seed=7)
>>> rec.replay().is_over, sorted(rec.final_identities) == sorted(rec.players + ("middle",))
(True, True)
"""
from ...bots.random_bot import RandomBot
from .actions import Action
from .belief import Belief
from .bots import BluffBot, TeamBot, available_bots, make_bot
from .game import CHANCE, Game
from .play import play, play_game
from .model import SecretsModel
from .records import SecretsRecord
from .rules import BULLETS, CARD_COUNTS, CARDS, MIDDLE, TEAMS, SecretsRules, card_value
from .views import Event, View
from ..._lazy import lazy_exports

# the table in the notebook loads anywidget: imported when first used
__getattr__, __dir__ = lazy_exports(globals(), {"play_in_notebook": "widget", "replay_in_notebook": "widget"})

__all__ = ["Action", "Belief", "BluffBot", "BULLETS", "CARD_COUNTS", "CARDS", "CHANCE", "Event", "Game", "MIDDLE",
           "RandomBot",
           "SecretsModel", "SecretsRecord", "SecretsRules", "TEAMS", "TeamBot", "View", "available_bots",
           "card_value", "make_bot", "play", "play_game",
           "play_in_notebook", "replay_in_notebook"]
