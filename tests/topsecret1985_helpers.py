"""Helpers of the Top Secret tests: a game set up by hand (manual chance), turns played step by step."""
from __future__ import annotations

from heimlich_lab.games.topsecret1985 import Game, TopSecretRules

ANN = "A=5 B=3 C=1 D=bomb"
BOB = "A=bomb B=1 C=3 D=5"
#: Where the suitcases lie unless a test says otherwise: far from the paths the tests walk.
PLACES = {"Ann": ("rome", "berlin", "rio", "delhi"), "Bob": ("paris", "lagos", "cairo", "moscow")}


def set_up(players=("Ann", "Bob"), first="Ann", contents=None, places=None, rules=None, **kw) -> Game:
    """A game with manual chance, its contents hidden and its suitcases placed, at the first roll."""
    g = Game(list(players), chance="manual", rules=rules or TopSecretRules(**kw))
    g.apply(f"first {first}")
    contents = contents or {"Ann": ANN, "Bob": BOB, "Cy": ANN, "Dee": BOB}
    places = {**PLACES, "Cy": ("london", "istanbul", "havana", "nairobi"),
              "Dee": ("chicago", "dubai", "buenos-aires", "new-york"), **(places or {})}
    while g.phase == "contents":
        g.apply(f"contents {contents[g.current_player]}")
    while g.phase == "place":
        p = g.current_player
        placed = sum(g.suitcase_places[f"{p}:{L}"] is not None for L in "ABCD")
        g.apply(f"place {'ABCD'[placed]} {places[p][placed]}", player=p)
    return g


def turn(g: Game, dice: tuple[int, int], *steps: str, end: bool = True) -> None:
    """One turn: the roll, then the actions; ``end`` ends the move if it is still open."""
    player = g.active_player
    g.apply(f"roll {dice[0]} {dice[1]}")
    for s in steps:
        g.apply(s)
    if end and g.phase == "move" and g.active_player == player and any(
            a.kind == "end" for a in g.legal_actions()):
        g.apply("end")


def pass_turn(g: Game) -> None:
    """The player whose turn it is rolls two blanks: nothing to move."""
    g.apply("roll 0 0")


def to_tokyo_duel(**rules) -> Game:
    """Ann#1 waits in tokyo; Bob#1 walks sydney, singapore, hong-kong and enters tokyo: a duel, Bob attacks."""
    g = set_up(**rules)
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    turn(g, (2, 0), "step Bob#1 sydney", "step Bob#1 singapore")
    pass_turn(g)
    turn(g, (1, 0), "step Bob#1 hong-kong")
    pass_turn(g)
    g.apply("roll 1 0")
    g.apply("step Bob#1 tokyo")
    return g
