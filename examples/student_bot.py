"""An example student bot: copy it, change ``choose``, and enter it in a tournament::

    heimlich-lab tournament --bot-file student_bot.py --bots "rotate:student_bot,random,greedy" --games 50

The contract (heimlich_lab/sandbox/bot_file.py): the file defines a class ``Bot`` whose ``choose(self, view,
legal_actions)`` returns one of ``legal_actions`` (or its notation, like ``"move red+2"``); it is made once per
game as ``Bot(seed=...)``. A function ``choose(view, legal_actions)`` would do as well.

The bot runs in its own process (docs/rules.md#bots-out-of-process): it sees only its player's view, as that
player's record tells it; it has a few seconds per decision (``--decision-time``) and a memory limit
(``--bot-memory``); a decision that crashes, hangs or answers an illegal action costs it that turn (the first
legal action is played instead). Keep it to this one file; it may import the standard library, numpy and
heimlich_lab. What it prints goes to its own error stream, not to the game.

This one plays a simple, readable strategy: move its own agent onto the safe when it can, and put the safe
where its own agent scores most.
"""
import random

from heimlich_lab.rules.board import building_after


class Bot:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, view, legal_actions):
        mine = set(view.own_agents)
        scored = [(self.score(view, a, mine), i) for i, a in enumerate(legal_actions)]
        best = max(s for s, _ in scored)
        return legal_actions[self.rng.choice([i for s, i in scored if s == best])]

    def score(self, view, action, mine) -> float:
        """How much this bot likes ``action`` (higher is better; ties are broken at random)."""
        if action.kind == "move":           # args: (colour, steps) pairs
            after = dict(view.positions)    # building values: church 0, 1..10, ruins -3
            for colour, steps in action.args:
                after[colour] = building_after(after[colour], steps)
            if any(after[colour] == view.safe for colour, _ in action.args):     # a scoring
                return 1.0 + sum(after[c] for c in mine)    # what my agent(s) gain from it
            return 0.0
        if action.kind == "safe":           # the safe where my agent stands scores for me next time
            building = action.args[0]
            return sum(max(building, 0) for c in mine if view.positions[c] == building)
        return 0.0
