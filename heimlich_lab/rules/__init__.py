"""The rules engine: board, cards, rules, actions and notation, game state, views, records."""
from .actions import Action
from .board import AGENTS, BUILDING_VALUES, COLOURS, board_graph
from .cards import CARDS, DEFAULT_DECK
from .game import CHANCE, Game, Position
from .records import GameRecord
from .ruleset import Rules
from .views import Event, View

__all__ = ["Action", "AGENTS", "BUILDING_VALUES", "COLOURS", "board_graph", "CARDS", "DEFAULT_DECK", "CHANCE",
           "Game", "Position", "GameRecord", "Rules", "Event", "View"]
