"""The rules engine: board, cards, rules, actions and notation, game state, views, records, and the public
record of play (every decision as one observer saw it)."""
from .actions import Action
from .board import AGENTS, BUILDING_VALUES, COLOURS, board_graph
from .cards import CARDS, DEFAULT_DECK, CardEffect, PublicBoard, card_effect
from .game import CHANCE, Game, Position
from .records import GameRecord
from .replay import Decision, DecisionStream, public_decisions
from .ruleset import Rules
from .views import Event, View, visible_action

__all__ = ["Action", "AGENTS", "BUILDING_VALUES", "COLOURS", "board_graph", "CARDS", "DEFAULT_DECK", "CardEffect",
           "PublicBoard", "card_effect", "CHANCE", "Game", "Position", "GameRecord", "Rules", "Event", "View",
           "Decision", "DecisionStream", "public_decisions", "visible_action"]
