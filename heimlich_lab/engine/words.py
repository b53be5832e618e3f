"""Sentences about a player that read right for any name, "You" included.

The course's first notebook names the human player "You"; a sentence made as ``f"{p} rolls 4"`` then reads
"You rolls 4". Every sentence of the kit about a player (the transcript, the board) is made for a third
person and passed through :func:`for_any_name`, which turns a player called "You" into the second person.

>>> for_any_name("Turn 3: You rolls 4."), for_any_name("Turn 3: Ann rolls 4.")
('Turn 3: You roll 4.', 'Turn 3: Ann rolls 4.')
>>> possessive("You"), possessive("Ann")
('Your', "Ann's")
"""
from __future__ import annotations

import re

_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}
# "You" followed by a verb in the third person (an adverb may come between), or "You's"
_YOU_VERB = re.compile(r"\bYou( (?:already|also|now|still) | )([a-z]+)\b")
_YOUS = re.compile(r"\bYou's\b")


def possessive(name: str) -> str:
    """``name``'s, in words: "Ann's", "Your" for a player called "You".

    >>> possessive("Bob") + " view"
    "Bob's view"
    """
    return "Your" if name == "You" else f"{name}'s"


def _plural(verb: str) -> str:
    """The verb of "you" from the verb of "he": rolls -> roll, passes -> pass, is -> are."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if re.search(r"(ss|sh|ch|x|z)es$", verb):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def _your(match: re.Match[str]) -> str:
    before = match.string[:match.start()].rstrip()
    return "Your" if not before or before[-1] in ".:!?" else "your"


def for_any_name(sentence: str) -> str:
    """``sentence`` (written in the third person) with a player called "You" in the second person.

    >>> for_any_name("You passes. You has played. You is dealt a card. You's dossier: red = Bob.")
    'You pass. You have played. You are dealt a card. Your dossier: red = Bob.'
    >>> for_any_name("if You controls Perry; You already holds 4 cards; Winner: You.")
    'if You control Perry; You already hold 4 cards; Winner: You.'
    >>> for_any_name("Top Secret round: You begins; Bob and You's agents")
    'Top Secret round: You begin; Bob and your agents'
    """
    if "You" not in sentence:
        return sentence
    sentence = _YOUS.sub(_your, sentence)
    return _YOU_VERB.sub(lambda m: f"You{m[1]}{_plural(m[2])}", sentence)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1: never "4 step(s)".

    >>> count(1, "step"), count(4, "step"), count(0, "secret"), count(2, "city", "cities")
    ('1 step', '4 steps', '0 secrets', '2 cities')
    """
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
