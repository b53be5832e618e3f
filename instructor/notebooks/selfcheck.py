"""The course's self-checks: answers kept as salted hashes, hints that name the mistake.

A self-check cell in a notebook calls :func:`check` with the exercise's key and the student's answer. The
expected answer is not in the notebook, nor in the student's namespace, nor in this file in readable form:
:data:`EXERCISES` keeps a salted SHA-256 digest of it (numbers rounded on a grid of ``10**-places``, so an answer
within the tolerance matches). The typical wrong answers are recognised in the same way, each with a hint
that names the mistake: a known wrong value (the library's default model instead of the simple one, the
independent answer...) is a digest too, and a *slip* (nats for bits, an unnormalised table, the complement,
a percentage) is a transformation that turns the slip back into the expected answer. Multiple-choice
questions (:func:`choose`) explain every option, right or wrong.

This file is copied next to the student copies (``student/selfcheck.py``) by ``scripts/make_student_copies.py``.

>>> key = "demo.1"
>>> EXERCISES[key] = Exercise("p", fingerprint(key, 0.25), "multiply prior by likelihood",
...                           mistakes=(Mistake("that is a percentage: use a number between 0 and 1", slip="percent"),))
>>> check(key, 0.2500001)
✓ Correct
>>> check(key, 25.0)
✗ Not yet — hint: that is a percentage: use a number between 0 and 1
>>> check(key, 0.3)
✗ Not yet — hint: multiply prior by likelihood
>>> del EXERCISES[key]
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import numpy as np

CORRECT = "✓ Correct"
NOT_YET = "✗ Not yet — hint: "


def _hash(key: str, index: int, token: str) -> str:
    return hashlib.sha256(f"heimlich-lab:{key}:{index}:{token}".encode()).hexdigest()[:20]


def _whole(v):
    """3.0 -> 3, so that a dict of whole numbers matches however they were computed."""
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) and float(v).is_integer():
        return int(v)
    return v


def _elements(value) -> list:
    """The answer as a flat list of numbers and strings (a mapping: its items, sorted by key)."""
    if isinstance(value, dict):
        return [f"{k}={_whole(v)}".strip().lower() for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))]
    if isinstance(value, str):
        return [value.strip().lower()]
    arr = np.asarray(value)
    if arr.dtype.kind in "biuf":
        return [float(x) for x in arr.ravel()]
    return [str(x).strip().lower() for x in arr.ravel()]


def _grid(x: float, places: int) -> int:
    return round(x * 10 ** places)


def fingerprint(key: str, value, places: int = 4) -> tuple[str, ...]:
    """The digests :func:`check` compares an answer with: one per number (rounded to ``places`` decimals) or string.

    >>> fingerprint("demo", 0.5) == fingerprint("demo", 0.50000001) != fingerprint("other", 0.5)
    True
    """
    return tuple(_hash(key, i, str(_grid(x, places)) if isinstance(x, float) else x)
                 for i, x in enumerate(_elements(value)))


def matches(key: str, value, digests: tuple[str, ...], places: int = 4) -> bool:
    """Whether ``value`` equals the answer behind ``digests`` (numbers within about ``10**-places``).

    A number is compared at its grid point and both neighbours, so that two answers closer than the tolerance
    never fall on different sides of a rounding boundary.

    >>> d = fingerprint("demo", [0.1, 0.9])
    >>> matches("demo", [0.10004, 0.89996], d), matches("demo", [0.9, 0.1], d), matches("demo", [0.1], d)
    (True, False, False)
    """
    try:
        items = _elements(value)
    except (TypeError, ValueError):
        return False
    if len(items) != len(digests):
        return False
    for i, (x, d) in enumerate(zip(items, digests)):
        if isinstance(x, float):
            if not math.isfinite(x):
                return False
            k = _grid(x, places)
            if not any(_hash(key, i, str(k + step)) == d for step in (0, -1, 1)):
                return False
        elif _hash(key, i, x) != d:
            return False
    return True


#: Slips: a transformation that turns a typical slip back into the right answer.
SLIPS = {
    "nats": lambda a: np.asarray(a, dtype=float) / math.log(2),           # natural log instead of log2
    "percent": lambda a: np.asarray(a, dtype=float) / 100,
    "complement": lambda a: 1 - np.asarray(a, dtype=float),               # the other event, the wrong direction
    "unnormalised": lambda a: np.asarray(a, dtype=float) / np.sum(a),     # forgot to divide by the total
}


@dataclass(frozen=True)
class Mistake:
    """A foreseeable wrong answer and the hint for it: either a known wrong value (``answer``, digests made with
    :func:`fingerprint` under the exercise's key) or a ``slip`` (a name in :data:`SLIPS`)."""
    hint: str
    answer: tuple[str, ...] | None = None
    slip: str | None = None

    def __post_init__(self):
        if (self.answer is None) == (self.slip is None):
            raise ValueError("a Mistake has either answer digests or a slip")
        if self.slip is not None and self.slip not in SLIPS:
            raise ValueError(f"unknown slip {self.slip!r}; slips are {', '.join(SLIPS)}")


@dataclass(frozen=True)
class Exercise:
    """One exercise: the answer's name (for the 'define ...' message), its digests, the hint for an answer that
    is no foreseeable mistake, the foreseeable mistakes, and the tolerance."""
    name: str
    answer: tuple[str, ...]
    hint: str
    mistakes: tuple[Mistake, ...] = ()
    places: int = 4

    def verdict(self, key: str, value) -> str:
        if matches(key, value, self.answer, self.places):
            return CORRECT
        for m in self.mistakes:
            if m.answer is not None and matches(key, value, m.answer, self.places):
                return NOT_YET + m.hint
            if m.slip is not None:
                try:
                    back = SLIPS[m.slip](value)
                except (TypeError, ValueError, ZeroDivisionError):
                    continue
                if matches(key, back, self.answer, self.places):
                    return NOT_YET + m.hint
        return NOT_YET + self.hint


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question: the digest of the right letter and an explanation for every option."""
    answer: tuple[str, ...]
    feedback: dict[str, str] = field(default_factory=dict)

    def verdict(self, key: str, letter) -> str:
        letter = str(letter).strip().lower()
        if letter not in self.feedback:
            return NOT_YET + f"answer with one of the letters {', '.join(sorted(self.feedback))}, as a string."
        if matches(key, letter, self.answer):
            return f"{CORRECT}. {self.feedback[letter]}"
        return NOT_YET + self.feedback[letter]


def check(key: str, value) -> None:
    """Print whether ``value`` answers exercise ``key``: '✓ Correct' or '✗ Not yet — hint: ...'."""
    print(EXERCISES[key].verdict(key, value))


def choose(key: str, letter) -> None:
    """Print the feedback on option ``letter`` of multiple-choice question ``key``."""
    print(EXERCISES[key].verdict(key, letter))


#: Every exercise and question of the course, by key "<notebook>.<name>". Digests come from the solution
#: notebooks (tests/test_course.py checks that every solution passes and every foreseeable mistake gets its hint).
EXERCISES: dict[str, Exercise | Choice] = {}

EXERCISES.update({
    # notebook 0, the rules primer
    "00.q_pass": Choice(("83873550f0e86ac38cb0",), {
        "a": "passing through the safe's building does not count: the agent must END its move there.",
        "b": "A scoring needs an agent that was moved this turn to stop in the safe's building; red only walked "
             "through it.",
        "c": "there is no scoring here at all; and when there is one, EVERY agent scores, not only the one "
             "that was moved.",
    }),
    "00.q_free": Choice(("beebef636660a47e9711",), {
        "a": "a free agent in a tie for farthest takes nothing away: the owned agents tied with it still win "
             "(docs/rules.md#game-end). Nobody wins only when a free agent is farthest ALONE.",
        "b": "Red is tied for farthest and is owned, so Bob wins; the free agent in the tie wins nothing and "
             "takes nothing away (docs/rules.md#game-end).",
        "c": "only the agents that went FARTHEST count; grey at 41 is behind.",
    }),
    "00.gains": Exercise(
        "gains",
        ("f99bcebfc6561e8581fe", "8494c1c62cbf1f465133", "268ca164dc1d5673d661", "c9d257ae802d24cdf0c5",
         "0803357b9c3e2666e643", "9cc0005c2964605230d6"),
        "every agent scores the value of the building it stands on AFTER the move; the Ruins count -3.",
        mistakes=(
            Mistake("the Ruins take 3 away, but a marker never goes below 0: look at red's marker before the "
                    "scoring.",
                    answer=("f99bcebfc6561e8581fe", "8494c1c62cbf1f465133", "268ca164dc1d5673d661",
                            "c9d257ae802d24cdf0c5", "5bd2468393916f3e47e5", "9cc0005c2964605230d6")),
            Mistake("EVERY agent scores in a scoring, not only the agents that were moved.",
                    answer=("f99bcebfc6561e8581fe", "8494c1c62cbf1f465133", "684835c429e8863132c1",
                            "e0d7c9a107ee4cfc91e4", "b9603fb5787b6d6aab3d", "9cc0005c2964605230d6")),
            Mistake("score the buildings the agents stand on AFTER Ann's move (yellow walks from 10 into the Ruins).",
                    answer=("9af13a23caa9ed9e6bac", "8494c1c62cbf1f465133", "268ca164dc1d5673d661",
                            "c9d257ae802d24cdf0c5", "0803357b9c3e2666e643", "0510f787fb13bd1b3088")),
            Mistake("score the buildings the agents stand on AFTER Ann's move (yellow walks from 10 into the Ruins), "
                    "and a marker never goes below 0.",
                    answer=("9af13a23caa9ed9e6bac", "8494c1c62cbf1f465133", "268ca164dc1d5673d661",
                            "c9d257ae802d24cdf0c5", "5bd2468393916f3e47e5", "0510f787fb13bd1b3088")),
        )),
})

EXERCISES.update({
    # notebook 3, Bayes' rule for one move
    "03.q_likelihood": Choice(('92c4d79da1fdacdc21c5',), {
        "a": 'that is the posterior read backwards. 0.19 is P(move | red): how often a player of '
             'red makes this move. P(red | move) needs the other hypotheses too, and came out '
             '0.695.',
        "b": 'A likelihood is a probability of the DATA given a hypothesis: among games where Bob '
             'plays for red, how often he chooses red+2. It is a column of P, not a probability of '
             'red.',
        "c": 'for a player of yellow, orange or green the best move is blue+2; a likelihood says '
             'how probable the move is under ONE hypothesis, not which move is best overall.',
    }),
    "03.p_red": Exercise(
        "p_red", ('297bf4a90065f9635660',),
        'take the row of P for this move (find it in game.legal_actions()), multiply by the prior '
        'of 1/5, and divide by the total so that the posterior sums to 1.',
        mistakes=(
            Mistake('that is prior x likelihood for red alone, unnormalised: divide by the sum over'
                    ' all five hypotheses.',
                    answer=('bfd137ad79423e25bd71',)),
            Mistake("that is the library's full model (BoltzmannModel() with default weights). The "
                    'exercise asks for the simple utility: the table P above, beta = 1, no tremble.',
                    answer=('6e40a42cc12be1553e53',)),
            Mistake('that is the probability that Bob does NOT control red.',
                    slip='complement'),
            Mistake('that looks like a percentage: give a probability between 0 and 1.',
                    slip='percent'),
        ),
    ),
    "03.posterior_beta0": Exercise(
        "posterior_beta0", ('f93f668562a7fade4f7e', 'b157073eb011aa1a49c4', '8cbd58aa567a8bda34b4', '3c5d9c511bc1193860c3', '643b413c673eccc111c2'),
        'what is exp(beta * U) when beta = 0, and what does that make each column of P? The answer '
        'is an array of 5 probabilities.',
        mistakes=(
            Mistake('that is the posterior at beta = 1. At beta = 0 every move has the same '
                    'probability for every agent.',
                    answer=('95b33d526f8b344b5f37', '37d799e9495173e9b16e', '36410e79567ff45fb4fa', '4b7bbe079ecd80353650', '461fc604c3340edf6557')),
            Mistake('your numbers are proportional to the posterior but do not sum to 1: divide by '
                    'their total.',
                    slip='unnormalised'),
        ),
    ),
    "03.p_runner": Exercise(
        "p_runner", ('8e7986d087c572708679',),
        'for red, the move comes from running (0.6) OR from the random choice (0.4 / 21); for any '
        'other agent only from the random choice. Then prior x likelihood, divided by the total.',
        mistakes=(
            Mistake('that is prior x likelihood for red alone, unnormalised: divide by the sum over'
                    ' all five hypotheses.',
                    answer=('7845f2aa93cd572a8719',)),
            Mistake('a runner playing for red can also play red+2 in his random 40%: P(red+2 | red)'
                    ' = 0.6 + 0.4 / 21.',
                    answer=('6fe47794142978c3b659',)),
            Mistake('the random choice happens only 40% of the time: each move has probability 0.4 '
                    '/ 21 from it, not 1 / 21.',
                    answer=('38d35222da3a44dce692',)),
            Mistake("that is the Boltzmann player's posterior from the Bayes table; the runner's "
                    'likelihood is different: build it from the description.',
                    answer=('78861421cb23bfe3358e',)),
            Mistake('that is the probability that Bob does NOT control red.',
                    slip='complement'),
        ),
    ),
})

EXERCISES.update({
    # notebook 7, bluffing and information
    "07.q_misled": Choice(('3dfe66b8efc6899fd897',), {
        "a": 'a KL divergence of 1.3 bits is a large move (from a uniform prior over 5, a belief of'
             ' about 0.7 on one agent is 1 bit away). Small KL means little change.',
        "b": 'KL says how far the belief moved (1.3 bits, a lot); the negative bits towards the '
             'truth say the true agent lost probability. A bluff does exactly this.',
        "c": 'neither number measures certainty: that is the entropy, and its drop can have either '
             'sign whatever these two say.',
    }),
    "07.h": Exercise(
        "h", ('ab3d09e72c82e18e5019',),
        'H = -sum p log2(p). Each term is p times the number of yes/no questions that outcome '
        "'costs'.",
        mistakes=(
            Mistake('that is in nats (natural log). Entropy in bits uses log base 2.',
                    slip='nats'),
        ),
    ),
    "07.kl_bits": Exercise(
        "kl_bits", ('1c97707ca03b0e69c8bd',),
        'KL(posterior || prior) = sum over hypotheses of q * log2(q / p), in bits.',
        mistakes=(
            Mistake('KL is not symmetric: that is D(p || q), the wrong direction. Weigh by the '
                    'posterior: sum q log2(q / p).',
                    answer=('0690a4e76ca39955c61b',)),
            Mistake('that is in nats (natural log); use log2 for bits.',
                    slip='nats'),
        ),
    ),
    "07.bits_to_truth": Exercise(
        "bits_to_truth", ('96447dbef2c95e9f9c50',),
        "build the runner's likelihood (0.6 + 0.4/21 for red, 0.4/21 for the others), the posterior"
        ' q, then log2(q[blue] / p[blue]) with p = 1/5.',
        mistakes=(
            Mistake('wrong direction: bits towards the truth are log2(q / p), after over before; a '
                    'move that misleads gives a negative number.',
                    answer=('dbcd14f30e0658fdc84c',)),
            Mistake('that is in nats (natural log); use log2 for bits.',
                    slip='nats'),
            Mistake("that is for red. Bob's true agent is blue: measure how the move changed "
                    'P(blue).',
                    answer=('70b173837bf063444760',)),
        ),
    ),
})

EXERCISES.update({
    # notebook 5, modelling players
    "05.q_random": Choice(('f1ebde78313da62c2942',), {
        "a": 'beta is a property of the PLAYERS, not of the game: it says how strongly they prefer '
             'better moves. Players who ignore the utility have no preference to measure.',
        "b": 'Choices that ignore the utility are best explained by a flat softmax, beta near 0 '
             '(the fit cannot go below 0, so the interval starts at or near 0).',
        "c": 'a large beta predicts that the player almost always picks the best move; random '
             'choices contradict that, so a large beta has a LOW likelihood here.',
    }),
    "05.beta_hat": Exercise(
        "beta_hat", ('5a6d4f8e4ece7b10f29a',),
        'log L(beta) = sum over the four decisions of log softmax(beta * U)[chosen]; evaluate it at'
        ' every beta of the grid and take the beta with the largest value.',
        mistakes=(
            Mistake('the likelihood kept rising to the end of the grid: that happens when only the '
                    'best option is ever chosen. Use all four choices: 2, 2, 1 and 0.',
                    answer=('8437dca53a2c46721959',)),
            Mistake('that is the fit with a tremble of 0.05; the exercise says epsilon = 0 (the '
                    'softmax alone).',
                    answer=('a849010ddd9f52714bec',)),
        ),
        places=2,
    ),
    "05.beta_random": Exercise(
        "beta_random", ('92a372fb7898e4b4c33d',),
        'play the 5 games with RandomBot (seeds as in the prompt), then call fit_boltzmann(records,'
        ' epsilon=0.05) and take .beta.',
        mistakes=(
            Mistake('that is the fit with epsilon free; the exercise fixes epsilon = 0.05 '
                    '(fit_boltzmann(..., epsilon=0.05)).',
                    answer=('707040f511d95bc8af05',)),
        ),
    ),
})

EXERCISES.update({
    # notebook 6, the Secret Dossier as a decision
    "06.expected_points": Exercise(
        "expected_points", ('55398c11601eb48b99c8',),
        'by linearity of expectation, add up P(entry is right) over the three entries, then '
        'multiply by the points per correct entry.',
        mistakes=(
            Mistake('that is the expected number of correct entries. How many points is each worth?',
                    answer=('ecf9554b8a0747b08d54',)),
        ),
    ),
    "06.penalty_sheet": Exercise(
        "penalty_sheet", ('7013df6386c13352c0fe', 'ad11e6eb7dcf5b10fd0c', 'bf3dd39875575f69f366', 'c0f3c534ee907ac780b9'),
        "an entry 'agent -> w' is worth 5 p - 5 (1 - p) in expectation, with p = P(w holds the "
        "agent) from the marginal table (without Ann's row). Write the entries where that is "
        'positive, with the most probable w.',
        mistakes=(
            Mistake('that is the per-agent sheet with every entry filled in. An entry whose best p '
                    'is below 1/2 loses points in expectation (10 p - 5 < 0): leave it blank.',
                    answer=('7013df6386c13352c0fe', 'ad11e6eb7dcf5b10fd0c', '747c784b676a3d4f0909', '5cadd4f173b544b5372a', 'be5b657ee7c01ae8e168', '367b700d65ce8204f694')),
            Mistake('that is the MAP assignment: the best sheet for an all-or-nothing prize, not '
                    'for this reward. Judge each entry on its own: 10 p - 5.',
                    answer=('7013df6386c13352c0fe', 'ad11e6eb7dcf5b10fd0c', '96de961d7bee556e029e', '5cadd4f173b544b5372a', 'be5b657ee7c01ae8e168', '367b700d65ce8204f694')),
            Mistake('an empty sheet earns 0 for sure, but an entry with p above 1/2 earns 10 p - 5 '
                    '> 0 in expectation.',
                    answer=()),
        ),
    ),
})

EXERCISES.update({
    # notebook 8, experiments
    "08.n_needed": Exercise(
        "n_needed", ('1a94099d042ae88e2000',),
        'solve 1.96 * sqrt(p (1 - p) / n) = 0.02 for n, with p = 0.3, and round up (any n within '
        'about 15 games of the smallest is fine).',
        mistakes=(
            Mistake('that uses z = 2; a 95% interval uses z = 1.96.',
                    answer=('d0cf7565a7d7120c2266',)),
            Mistake('square 1.96 too: n = 1.96^2 p (1 - p) / 0.02^2.',
                    answer=('ebb133bc67efc626455b',)),
            Mistake('that is the worst case p = 0.5; the exercise says the win rate is near 0.3.',
                    answer=('205b5d3d72b17277e236',)),
        ),
        places=-1,
    ),
    "08.ece_middle": Exercise(
        "ece_middle", ('e135b67ea3ea4d660c6b',),
        'keep bins 1 to 8; for each take |mean_predicted - frequency|, weight it by n / (total n of'
        ' these bins), and add up.',
        mistakes=(
            Mistake('that is the ECE of all ten bins; the exercise keeps only bins 1 to 8.',
                    answer=('0e5cb167cf53d65244ba',)),
            Mistake('you weighted by the share of ALL predictions; weight by the share of the '
                    'predictions in bins 1 to 8.',
                    answer=('64d45d05574f71b404f4',)),
            Mistake('that is the plain mean over the 8 bins; weight each bin by how many '
                    'predictions it holds.',
                    answer=('4411e6f8ae3479f603ce',)),
            Mistake('take the absolute value of each gap: over- and underconfidence must not '
                    'cancel.',
                    answer=('3abb4bf91fb7736ee69f',)),
        ),
    ),
})

EXERCISES.update({
    # notebook 9, Top Secret cards
    "09.p_orange": Exercise(
        "p_orange", ('b1f1ea2c30a1faf8416b',),
        'Bob holds orange afterwards if it was his first card, or if his first card was another one'
        ' and he then drew orange out of the three free cards.',
        mistakes=(
            Mistake("0.1 is the chance that orange was Bob's FIRST card. He may also draw it now.",
                    answer=('3f823e70d6f1a5597254',)),
            Mistake('there are three free cards here, not two: each is drawn with probability 1/3.',
                    answer=('53e498ced74fb204b53f',)),
            Mistake('that is the chance of drawing orange now, without the chance that it was '
                    'already his.',
                    answer=('293168a5a61b6163085b',)),
            Mistake('that is the probability that Bob does NOT hold orange.',
                    slip='complement'),
        ),
    ),
    "09.n_after": Exercise(
        "n_after", ('0fa5a2a45c4fba9d2441',),
        "after the take Bob holds 2 of Ann's 5 unknown agents (in any order: a set) and Cy 1 of the"
        ' rest.',
        mistakes=(
            Mistake('you counted (parent, drawn card) pairs. Different parents can give the same '
                    'assignment: count distinct assignments.',
                    answer=('9abd1a5576e47118515a',)),
            Mistake('that is the count BEFORE the take (Bob and Cy with one agent each).',
                    answer=('028f744f8f303ec6b71d',)),
        ),
    ),
})

EXERCISES.update({
    # notebook 4, one agent per player
    "04.n_hyp": Exercise(
        "n_hyp", ('088c946303989168320f',),
        'how many agents are unknown to Ann now, and how many players must each get one of them? '
        'Use n! / (n - k)!.',
        mistakes=(
            Mistake("that counts Ann's hypotheses before Bob showed his card. Bob's agent is known "
                    'now: leave him and his agent out.',
                    answer=('34703083413cad962c2d',)),
            Mistake('that counts what a spectator does not know. Ann knows two cards.',
                    answer=('50ca5fb4432c5d47f9d7',)),
            Mistake('the players are different people: Cy with red and Dee with blue is not Cy with'
                    ' blue and Dee with red. Count ordered choices, n! / (n - k)!, not '
                    'combinations.',
                    answer=('6a6fcc713f9c0a76f0ec',)),
            Mistake('the deal gives each of Cy, Dee and Eve ONE agent; the other two unknown agents'
                    ' are free. Not every ordering of all 5 agents is a different assignment.',
                    answer=('e9338c586cb15dacd056',)),
        ),
    ),
    "04.p_cy_red": Exercise(
        "p_cy_red", ('5ff054d1267a895360d4',),
        "list the 6 (Bob, Cy) assignments, weigh each by Bob's likelihood times Cy's, normalize, "
        'and add up the assignments in which Cy holds red.',
        mistakes=(
            Mistake('that is the independent answer, which ignores Bob. Enumerate the 6 assignments'
                    ' and weigh each by both likelihoods.',
                    answer=('ea4173c8e5486813a783',)),
            Mistake('that is the probability that Cy does NOT hold red.',
                    slip='complement'),
        ),
    ),
    "04.q_linked": Choice(('61bc02838d55b0fdd27e',), {
        "a": 'the beliefs are linked through the whole assignment: only one player can control red,'
             " so what makes Bob's claim on red stronger weakens Cy's.",
        "b": "Exclusivity links the players: probability that moves to 'Bob controls red' must come"
             " from the other owners of red, Cy and 'free' (explaining away).",
        "c": 'nothing in the model says players choose alike; and two players can never control the'
             ' same agent.',
    }),
})

EXERCISES.update({
    # notebook 1, start here
    "01.p_after": Exercise(
        "p_after", ('d175e70bbaf7342e2a86',),
        'turn the prior 1/5 into odds (1 to 4), multiply the odds by the likelihood ratio 6, then turn the '
        'odds back into a probability: odds / (1 + odds).',
        mistakes=(
            Mistake('you multiplied the probability 1/5 by 6: a likelihood ratio multiplies the ODDS, not the '
                    'probability (a probability cannot exceed 1).', answer=('b0d3268374ce56684319',)),
            Mistake("6 / 7 is the answer for even prior odds (1 to 1); Bob's prior is 1/5, odds 1 to 4.",
                    answer=('a46fcaca7043f0e57b0a',)),
            Mistake('that is the prior: the move changes it; multiply the odds by 6.',
                    answer=('334b5f4387de213b3d4f',)),
            Mistake('that is a percentage: use a number between 0 and 1.', slip="percent"),
        ),
    ),
})

EXERCISES.update({
    # notebook 2, the rules as a program
    "02.q_share": Choice(('c5bea5ed79c731da8b29',), {
        "a": '0.19 is a share of the allocations. It is the probability only if Ann picks an '
             'allocation uniformly at random, like a RandomBot; a player who wants a scoring picks '
             'one almost surely.',
        "b": 'Counting gives a probability only under a uniform choice. How Ann chooses is a model '
             'of the player: notebook 3 turns that model into likelihoods.',
        "c": "the die is already rolled (6): what remains uncertain is Ann's choice among the 462 "
             'allocations, not the die.',
    }),
    "02.p_red_scores": Exercise(
        "p_red_scores", ('63be0bf46eb3c5c99bda',),
        'for each of the six faces, ask: can Ann put exactly 4 steps on red (from 3 to 7) and spend'
        ' any other points on other agents? Count the faces that allow it, out of 6.',
        mistakes=(
            Mistake('red need not take ALL the points: with 5 or 6 she gives red 4 and the rest to '
                    'other agents.',
                    answer=('b8552dda111df3945fd6',)),
            Mistake('the 1-3 face gives at most 3 points, one short of the 4 red needs.',
                    answer=('ad64ce959afa5a5535fc',)),
            Mistake('the die has six faces, and 1-3 is one of them: divide by 6.',
                    answer=('ff44b60ec73f584b6a3a',)),
        ),
    ),
})

EXERCISES.update({
    # notebook 10, beliefs that move (Secrets)
    "10.q_entropy": Choice(('f739be1b969a659321d6',), {
        "a": 'a predict step observes nothing, so it cannot teach Ann anything: only an update (a look) '
             'lowers the entropy. The Psychiatrist moves each arrangement\'s probability to one other '
             'arrangement, and the Diplomat mixes two such moves.',
        "b": 'A known swap only moves each probability to another arrangement: the same numbers in new '
             'places, so the same entropy (3.58 bits before and after the Psychiatrist). The hidden side '
             'splits each of the 6 arrangements left after the look into 2: from 2.58 to 3.58 bits, '
             'exactly the one bit of the unseen coin flip.',
        "c": 'a known swap forgets nothing: each arrangement keeps its probability and only changes place. '
             'Ann\'s OWN row became unsure, but Bob\'s became certain in exchange; the entropy over the 30 '
             'arrangements did not change. Only the hidden side mixes.',
    }),
    "10.p_hippie": Exercise(
        "p_hippie", ('4a4a6e27e6aad2466f82',),
        "move each arrangement's probability to the arrangement with Ann's and Cy's entries exchanged, keep "
        'the arrangements with KGB on Dee, normalize, and add up those with Hippie on Ann.',
        mistakes=(
            Mistake("that is the prediction alone. Now update on what the Journalist showed: Dee's marker "
                    'is KGB.',
                    answer=('d8b9c26f152d72e96646',)),
            Mistake("Ann's CIA marker moved to Cy: predict through the swap first. Her seat now holds Cy's "
                    'old marker, which she never saw.',
                    answer=('813f4fff0550fdcca39e',)),
            Mistake("that is P(Ann is Hippie and Dee is KGB), unnormalised: divide by P(Dee is KGB), the "
                    'total of the kept arrangements.',
                    answer=('c44de4e7151868881610',)),
        ),
    ),
    "10.p_middle_cia": Exercise(
        "p_middle_cia", ('35e14683a5f67ca6fcf1',),
        'a mixture: 0.8 times the belief moved by the Dee-middle swap plus 0.2 times the belief moved by the '
        'Bob-middle swap; then add up the arrangements with CIA in the middle.',
        mistakes=(
            Mistake('that is the answer for a coin flip. Weigh the left swap by 0.8 and the right swap by 0.2.',
                    answer=('38642e955638dc7985f9',)),
            Mistake("the weights are the wrong way round: left (Dee) has 0.8, and going left puts Dee's "
                    'marker in the middle.',
                    answer=('7b7346b247c8f3d05491',)),
            Mistake('that is the probability that the middle marker is NOT CIA.',
                    slip='complement'),
        ),
    ),
})

EXERCISES.update({
    # notebook 11, when the model is wrong
    "11.p_top_mixed": Exercise(
        "p_top_mixed", ('e39c50a3536e2d51da3f',),
        "mixed likelihood = 0.8 * random + 0.2 * careful per agent; divide by its sum over the agents; read the "
        "row of the careful type's favourite agent.",
        mistakes=(
            Mistake('you averaged the two posteriors. Average the likelihoods (weighted by the type prior), '
                    "then apply Bayes' rule once.",
                    answer=('b19e26e7f550c576dc63',)),
            Mistake("that is the careful type alone. Mix in the random type's likelihood with weight 0.8.",
                    answer=('f7c97b993d15db47422f',)),
            Mistake('that is the prior of a half each, read from the table above. The exercise puts 0.8 on '
                    'random and 0.2 on careful.',
                    answer=('1e19e783c584ea113293',)),
        ),
    ),
    "11.p_cy_random": Exercise(
        "p_cy_random", ('81fe8823f50fa0d909c7',),
        "Bayes' rule over the two types: multiply each type's prior weight by its likelihood (the exp of its "
        'log-likelihood) and divide by the total of the two.',
        mistakes=(
            Mistake("you left out the prior. Multiply each type's likelihood by its prior weight (0.3 and 0.7) "
                    'before normalizing.',
                    answer=('178ee5085a6bce27f8fd',)),
            Mistake('the prior weights are the wrong way round: 0.3 for random, 0.7 for careful.',
                    answer=('b9cc854b3300bf6c997a',)),
            Mistake('a log-likelihood is not a likelihood: take exp of each before weighing by the prior. '
                    '(Or subtract the larger one first: exp(-25.1 + 25.1) and exp(-28.3 + 25.1).)',
                    answer=('564351f0e659e2cf257a',)),
            Mistake('that is P(careful). The question asks for the random type.',
                    slip='complement'),
        ),
    ),
    "11.q_dee": Choice(('44d1c95c07ffeabd0912',), {
        "a": "her decisions do favour random, but only by a likelihood ratio of exp(-31.0 + 31.4) = exp(0.4), "
             'about 1.5. The prior odds of random were 3 to 7; times 1.5 they are still below 1 (about 0.64): '
             'P(random) is about 0.39. Evidence shifts the prior; weak evidence does not overturn it.',
        "b": 'The likelihood ratio exp(0.4), about 1.5 for random, multiplies the prior odds 0.3 / 0.7: about '
             '0.64, so P(random) is about 0.39 and careful stays the better bet. Weak evidence moves a belief a '
             'little (compare Cy: a ratio of exp(3.2), about 25).',
        "c": 'both are log-probabilities of the same decisions, under two models; their difference is the log '
             "of the likelihood ratio (0.4 here, a factor of about 1.5), exactly what Bayes' rule needs.",
    }),
})
