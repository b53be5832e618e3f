"""Readable transcripts of games and records, as seen by one viewer.

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
>>> lines = transcript(rec, viewer="Bob")
>>> lines[0]
"Transcript: Bob's view"
>>> any(line.startswith("Game over") for line in lines)
True
"""
from __future__ import annotations

from ...engine.words import count, for_any_name
from .rules.board import AGENT_BY_COLOUR, building_name
from .rules.cards import CARDS
from .rules.views import Event, view_label


def _moves(moves: dict) -> str:
    return ", ".join(f"{c} {building_name(a)}→{building_name(b)}" for c, (a, b) in moves.items())


#: What the second-agent card did (a play or reveal event's ``second``).
_SECOND_AGENT = {"take": "takes a free agent card",
                 "replace": "no free agent card to take, so the card leaves the game and a replacement is drawn"}


def describe(e: Event) -> str:
    """One event in words, right for any player name.

    >>> describe(Event("roll", {"player": "You", "turn": 3, "face": "4"}))
    'Turn 3: You roll 4.'
    """
    return for_any_name(_words(e))


def _words(e: Event) -> str:
    d, k, p = e.data, e.kind, e.data.get("player")
    if k == "start":
        return "The game starts from a given position."
    if k == "deal":
        if e.hidden:
            return f"{p} is dealt a secret agent card."
        return f"{p}'s secret agent card: {d['agent']} ({AGENT_BY_COLOUR[d['agent']].name})."
    if k == "dealt":
        return f"Agent cards dealt; {count(d['free'], 'free agent card')} lie face-down under the board."
    if k == "roll":
        return f"Turn {d['turn']}: {p} rolls {d['face']}."
    if k == "points":
        if d["points"] == 0:
            return f"{p} chooses 0 points: no move, a Top Secret card instead."
        return f"{p} chooses {count(d['points'], 'point')}."
    if k == "move":
        text = f"{p} moves {_moves(d['moves'])}."
        if d["triggers"]:
            text += f" Scoring situation: {', '.join(d['triggers'])} at the safe."
        return text
    if k == "draw":
        return (f"{p} draws a Top Secret card." if e.hidden
                else f"{p} draws {d['card']} ({CARDS[d['card']].text.rstrip('.')}).")
    if k == "no_draw":
        why = "already holds 4 cards" if d["reason"] == "hand-limit" else "finds no card left to draw"
        return f"{p} {why} and draws nothing."
    if k == "reshuffle":
        return f"The discards ({d['cards']} cards) are shuffled into a new supply."
    if k == "announce":
        return f"{p} {'wants' if d['want'] else 'does not want'} to play a Top Secret card."
    if k == "reveal":
        return f"{p} draws the second-agent card and shows it: {_SECOND_AGENT[d['second']]}."
    if k == "collect":
        return f"{p} chooses to draw a Top Secret card." if d["want"] else f"{p} chooses not to draw."
    if k == "no_round":
        return "Nobody plays a Top Secret card."
    if k == "round_start":
        return f"Top Secret round: {p} begins."
    if k == "play":
        card = d["card"]
        text = f"{p} plays {card} ({CARDS[card].text.rstrip('.')})"
        if d.get("moves"):
            text += f": {_moves(d['moves'])}"
        if "safe" in d:
            text += f": the safe to {building_name(d['safe'])}"
        if "gains" in d:
            text += ": " + ", ".join(f"{c} +{g}" for c, g in d["gains"].items())
        if d.get("second"):
            text += f": {_SECOND_AGENT[d['second']]}"
        if d.get("triggers"):
            text += f". Scoring situation: {', '.join(d['triggers'])} at the safe"
        return text + "."
    if k == "pass":
        return f"{p} passes."
    if k == "done":
        return f"{p} has played."
    if k == "round_end":
        return "Everyone passed: the Top Secret round ends."
    if k == "score":
        # every marker, zero gains too (the issue: each marker's gain at a scoring)
        gains = ", ".join(f"{c} {g:+d}" for c, g in d["gains"].items())
        return f"Scoring ({', '.join(d['triggers'])} at the safe): {gains}."
    if k == "dossier_mark":
        return "A marker reached 29: every player secretly fills in the Secret Dossier."
    if k == "dossier":
        return f"{p} writes a dossier entry." if e.hidden else f"{p}'s dossier: {d['agent']} = {d['entry']}."
    if k == "dossier_done":
        return "The dossier sheets are written."
    if k == "take":
        return f"{p} takes a free agent card." if e.hidden else f"{p} takes the free agent card {d['agent']}."
    if k == "safe":
        return f"{p} moves the safe to {building_name(d['building'])}."
    if k == "over":
        ids = ", ".join(f"{c}={o or 'free'}" for c, o in d["owners"].items())
        scores = ", ".join(f"{c} {s}" for c, s in d["scores"].items())
        bonus = ""
        if d.get("bonus"):
            bonus = " Dossier points: " + ", ".join(f"{q} +{b}" for q, b in d["bonus"].items()) + "."
        won = ", ".join(d["winners"]) if d["winners"] else "nobody (a free agent went farthest)"
        shared = " (shared)" if len(d["winners"]) > 1 else ""
        return (f"Game over. Final markers: {scores}.{bonus} Identities: {ids}. "
                f"Farthest: {', '.join(d['farthest'])}. Winner: {won}{shared}.")
    return f"{k}: {d}"


class TranscriptWriter:
    """A reader of the public decision stream (:class:`~heimlich_lab.inference.reader.DecisionReader`) that
    writes it in words: :attr:`lines` grows with each decision's events, as ``observer`` saw them (``start``:
    the game began from a given position).

    >>> from heimlich_lab import Game
    >>> from heimlich_lab.rules.replay import DecisionStream
    >>> g = Game(["Ann", "Bob", "Cy"], seed=5)
    >>> writer, stream = TranscriptWriter("Bob"), DecisionStream(g, "Bob")
    >>> g.apply("move grey+5")
    >>> for d in stream.new():
    ...     _ = writer.add(d)
    >>> writer.lines[-2:]
    ['Ann moves grey church→5.', 'Turn 2: Bob rolls 6.']
    """

    def __init__(self, observer: str | None = None, start: bool = False):
        self.observer = observer
        self.lines: list[str] = [f"Transcript: {view_label(observer)}"]
        if start:  # the one event no decision produced
            self.lines.append(describe(Event("start", {"position": True})))

    def add(self, decision) -> list[str]:
        """The lines of one decision's events (also appended to :attr:`lines`)."""
        new = [describe(e) for e in decision.events]
        self.lines += new
        return new


def transcript(source, viewer: str | None = None) -> list[str]:
    """Lines describing a game or record as ``viewer`` saw it.

    ``viewer`` is a player name, ``None`` (spectator) or ``"omniscient"``
    (a game or a full record only). ``source`` is a :class:`~heimlich_lab.Game`
    or any record the viewer may read: the full one, ``record.public()``, or
    ``record.as_player(viewer)``. The lines are read from the public record of
    play (:func:`~heimlich_lab.games.heimlich.rules.replay.public_decisions`).

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
    >>> transcript(rec.public()) == transcript(rec)
    True
    """
    from .rules.game import Game
    from .rules.records import GameRecord
    from .rules.replay import public_decisions
    if not isinstance(source, (Game, GameRecord)):
        raise TypeError("transcript() takes a Game or a GameRecord")
    if viewer == "omniscient":
        game = source.replay() if isinstance(source, GameRecord) else source
        return [f"Transcript: {view_label(None, omniscient=True)}"] + [describe(e) for e in game.omniscient_view().log]
    writer = TranscriptWriter(viewer, start=source.start is not None)
    for d in public_decisions(source, viewer):
        writer.add(d)
    return writer.lines
