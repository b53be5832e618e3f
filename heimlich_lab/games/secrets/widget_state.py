"""What the Secrets table in the notebook draws: plain data made from one viewer's :class:`View` only.

:func:`table_setup` is fixed for a game; :func:`table_state` is the position now, the viewer's decisions and
their belief panel. Both are JSON-ready dicts synced to the front end (``widgets/secrets/table.js``). Nothing
here reads the game itself, so the synced state can hold only what the viewer may know (the information rule;
``tests/test_secrets_widget.py`` proves it by changing only what the viewer may not know).

>>> from heimlich_lab.games.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
>>> s = table_state(g.view("Ann"))
>>> [(seat["name"], seat["marker"]) for seat in s["seats"]], s["middle"]["marker"]
([('Ann', 'CIA'), ('Bob', None), ('Cy', None), ('Dee', None)], None)
>>> s["log"][-1]
'Turn 1: Ann is the active player.'
>>> g.apply("reveal detective"); g.apply("reveal journalist")
>>> table_state(g.view("Ann"))["headline"], table_state(g.view("Bob"))["headline"]
('Turn 1 · Your decision: offer a card to another player', 'Turn 1 · Ann decides: offer a card to another player')

Every sentence about a player reads right for a player called "You" (:func:`~heimlich_lab.engine.words.for_any_name`):

>>> g = Game(["You", "Bob", "Cy", "Dee"], chance="manual")
>>> g.apply("deal You=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
>>> s = table_state(g.view("You"))
>>> s["label"], s["log"][-1], s["seats"][0]["title"]
('Your view', 'Turn 1: You are the active player.', 'You')
"""
from __future__ import annotations

from ...engine.words import for_any_name, possessive
from ...widget.story import evidence_text, lead_in, most_informative, panel_frame, quiet_headline
from .rules import CARDS, MIDDLE, TEAMS
from .transcript import card_name, describe

#: What each card does, in words: the effect column of docs/secrets.md's card table (a test checks they agree).
CARD_EFFECTS = {
    "psychiatrist": "swap the markers of two other players; nobody sees them",
    "double-agent": "swap your marker with the middle one, then look at your new one",
    "politician": "add it to another player's tableau instead, then look at that player's marker",
    "journalist": "your marker is shown to every other player, not to you",
    "diplomat": "the middle marker is shown to everyone; then you swap it with your left or right neighbour's, unseen",
    "detective": "look at any one marker: your own, another player's or the middle one",
    "scientist": "the first has no effect; adding a second turns all your characters face down",
    "assassin": "draw the top bullet, look at it, give it to another player (face down, unseen by them)",
}

#: What the player who decides does in each phase, for the turn headline ("{they}": "you" or "they").
PHASE_WORDS = {
    "deal": "the markers are dealt",
    "reveal": "the active player draws two cards, face up",
    "offer": "offer a card to another player",
    "un": "the UN may confiscate the offer",
    "answer": "accept or refuse the offer",
    "give": "give the Politician to another player",
    "swap": "choose two other players whose markers swap (Psychiatrist)",
    "side": "swap the middle marker with a neighbour's (Diplomat)",
    "look": "look at one marker (Detective)",
    "bullet": "the Assassin draws a bullet",
    "shoot": "give the bullet to another player (Assassin)",
}

#: How many of the latest events the table's log shows.
LOG_LINES = 12
#: How many lines "Since your last turn" shows at most.
SINCE_LINES = 20
#: The events that are a player's own decision (``data["player"]`` decided), for "since your last turn".
_OWN_DECISIONS = ("offer", "accept", "refuse", "allow", "interrupt", "side", "shot")


def _decision_label(action, view) -> str:
    """A button's words for one legal action."""
    k, a = action.kind, action.args
    if k == "offer":
        return f"Offer {card_name(a[0])} to {a[1]}"
    if k in ("swap", "give", "shoot", "look"):
        verb = {"swap": "Swap", "give": "Give it to", "shoot": "Shoot", "look": "Look at"}[k]
        return f"{verb} {' and '.join(a) if k == 'swap' else ('the middle' if a[0] == MIDDLE else a[0])}"
    if k == "side":
        i = view.players.index(view.current_player)
        n = len(view.players)
        who = view.players[(i + 1) % n] if a[0] == "left" else view.players[(i - 1) % n]
        return f"Swap with {a[0]} neighbour ({who})"
    return {"accept": "Accept", "refuse": "Refuse", "interrupt": "Confiscate (UN)", "allow": "Let it be answered"}[k]


def card_reference(rules) -> list[dict]:
    """Each card's name, value (under ``rules``) and effect in words: the table's card legend and its tooltips.

    >>> from heimlich_lab.games.secrets.rules import SecretsRules
    >>> ref = card_reference(SecretsRules())
    >>> [c["name"] for c in ref][-1], ref[-1]["value"]
    ('Assassin', 0)
    >>> ref[-1]["text"]
    'Assassin (0 points): draw the top bullet, look at it, give it to another player (face down, unseen by them)'
    """
    out = []
    for card in CARDS:
        value = rules.value(card)
        points = f"{value:+d} points" if value else "0 points"
        out.append({"card": card, "name": card_name(card), "value": value, "effect": CARD_EFFECTS[card],
                    "text": f"{card_name(card)} ({points}): {CARD_EFFECTS[card]}"})
    return out


def decision_entry(action, view) -> dict:
    """One button: its notation, words, group (the card offered, or the kind) and the target it names, if any."""
    k, a = action.kind, action.args
    entry = {"notation": str(action), "label": for_any_name(_decision_label(action, view)), "kind": k}
    if k == "offer":
        entry.update(group=f"Offer {card_name(a[0])} to", card=a[0], target=a[1])
    elif k in ("give", "shoot", "look"):
        entry.update(group={"give": "Give the Politician to", "shoot": "Give the bullet to",
                            "look": "Look at the marker of"}[k], target="the middle" if a[0] == MIDDLE else a[0])
    return entry


def table_setup(view) -> dict:
    """What is fixed for a game: the title, the seats, the slots, the marker counts, the tableau size that ends
    it and the card reference (:func:`card_reference`)."""
    return {"game": "secrets", "title": "Secrets", "players": list(view.players), "slots": list(view.slots),
            "teams": list(TEAMS), "marker_counts": dict(view.marker_counts), "end_size": view.end_size,
            "cards": card_reference(view.rules)}


def seat_title(name: str, viewer) -> str:
    """A seat's name as the table shows it: "Ann (you)" for the viewer, "You" for a viewer called "You"."""
    return f"{name} (you)" if name == viewer and name != "You" else name


def headline(view) -> str:
    """The turn headline: the turn, then who decides what now, or the result.

    >>> from heimlich_lab.games.secrets import Game
    >>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    >>> headline(g.view(None))
    'Turn 1 · the markers are dealt'
    """
    if view.is_over:
        won = ", ".join(view.winners) if view.winners else "nobody (a tie)"
        return for_any_name(f"Game over · winners: {won}")
    who = view.current_player
    words = PHASE_WORDS.get(view.phase, view.phase)
    if who is None:
        return f"Turn {view.turn} · {words.format(they='they')}"
    if who == view.viewer:
        return f"Turn {view.turn} · Your decision: {words.format(they='you')}"
    return for_any_name(f"Turn {view.turn} · {who} decides: {words.format(they='they')}")


def belief_panel(belief, since: int | None = None) -> dict:
    """The belief panel: per seat and the middle, P(CIA / KGB / Hippie), the ``headline`` (the most informative
    update since the viewer's last turn, :func:`story_headline`) and the last update in words.

    ``since``: how many of the belief's updates were made by the end of the viewer's last turn (the live table
    counts them); default: up to the viewer's latest own decision among the updates.
    """
    ids = belief.identities()
    o = belief.observer
    title = f"{possessive(o)} belief" if o is not None else "A spectator's belief"
    # the frame (title, headline, the model's sentence, glossary, version) is the shared one; the table is Secrets'
    return panel_frame(o, f"{title}: who is on which team?", story_headline(belief, since), belief.explain_last(),
                       GLOSSARY, len(belief.posterior.history)) | {
        "rows": {s: seat_title(s, o) for s in ids},
        "identities": {s: {t: round(p, 4) for t, p in d.items()} for s, d in ids.items()}}


#: The words of the panel's details, each with a one-line gloss (the headline uses none of them).
GLOSSARY = (
    {"term": "P(Cy is Hippie)", "gloss": "the probability that the marker in front of Cy is the Hippie one"},
    {"term": "times more likely (likelihood ratio)",
     "gloss": "how much more probable what happened is if the claim is true than if it is false"},
    {"term": "arrangement", "gloss": "one way the markers could lie on the seats and in the middle"},
)


def _own(label: str, observer) -> bool:
    """Whether an update's label is the observer's own decision or the observer's own look ("you saw ...")."""
    return label.startswith("you ") or (observer is not None and label.startswith(f"{observer} "))


def story_headline(belief, since: int | None = None) -> dict | None:
    """The most informative update since the viewer's last turn, in plain words: the update (not the viewer's
    own decision) whose largest cell change carries the most information (the binary KL divergence, bits), said
    as "what happened: N\u00d7 more likely if <seat> is <team> (before \u2192 after)". ``None`` before any update.

    >>> from heimlich_lab.games.secrets import Game
    >>> from heimlich_lab.games.secrets.belief import Belief
    >>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    >>> b = Belief.for_game(g, "Ann", model=None)
    >>> for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal detective", "reveal journalist",
    ...           "offer journalist Cy", "accept"]:
    ...     g.apply(a)
    >>> _ = b.sync(g.view("Ann"))
    >>> story_headline(b)["text"]
    "Cy's marker was shown: Hippie: only possible if Cy is Hippie (0.25 \u2192 1.00)"
    """
    history = belief.posterior.history
    if not history:
        return None
    o = belief.observer
    if since is None:
        since = max((i + 1 for i, u in enumerate(history) if _own(str(u.label or ""), o)
                     and not str(u.label).startswith("you ")), default=0)
    best = most_informative(u for u in history[since:] if not _own(str(u.label or ""), o))
    if best is None:
        return quiet_headline(o, yet=o is None or since <= 0)
    u, r, j, bits = best
    team, slot = [*u.owners, "free"][r], u.slots[j]
    before, after = float(u.marginals_before[r, j]), float(u.marginals_after[r, j])
    marker = "the middle marker" if slot == MIDDLE else slot
    text = evidence_text(str(u.label), f"{marker} is {team}", f"{marker} is not {team}", before, after,
                         float(u.log_likelihood_ratios()[r, j]))
    return {"text": text, "slot": slot, "team": team, "before": round(before, 4), "after": round(after, 4),
            "bits": round(bits, 4)} | lead_in(o)


def since_last_turn(view) -> list[str]:
    """What happened since the viewer's last decision, in words (the newest :data:`SINCE_LINES` lines; nothing
    for a spectator or before the viewer has decided anything).

    >>> from heimlich_lab.games.secrets import Game
    >>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    >>> for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal detective", "reveal journalist",
    ...           "offer journalist Cy", "accept"]:
    ...     g.apply(a)
    >>> for line in since_last_turn(g.view("Ann")):
    ...     print(line)
    Cy accepts.
    Cy adds the Journalist.
    Cy shows their marker to everyone else: Hippie.
    Turn 2: Bob is the active player.
    """
    if view.viewer is None or view.kind != "player":
        return []
    log = view.log

    def own(e) -> bool:
        d = e.data
        if e.kind in _OWN_DECISIONS:
            return d.get("player") == view.viewer
        if e.kind == "look":
            return d.get("player") == view.viewer and d.get("cause") == "detective"
        return e.kind == "add" and d.get("by") == view.viewer and d.get("player") != view.viewer

    last = max((i for i, e in enumerate(log) if own(e)), default=None)
    if last is None:
        return []
    lines = [for_any_name(line) for line in map(describe, log[last + 1:]) if line is not None]
    return lines[-SINCE_LINES:]


def table_state(view, belief=None, *, legal=(), human: bool = False, curtain: str | None = None,
                label: str | None = None, replay: dict | None = None, autoplay: dict | None = None,
                error: str = "", markers: dict | None = None, since: int | None = None) -> dict:
    """The synced state for ``view`` (a player's, a spectator's or the omniscient one).

    ``belief`` is the viewer's belief (its panel is shown), ``legal`` the actions offered as buttons when
    ``human`` (the viewer decides now). With a ``curtain``, pass the spectator's view: only public facts.
    ``markers`` (slot -> team) is for the omniscient view only, which shows where every marker lies. ``since``:
    the belief's updates made by the end of the viewer's last turn (the headline tells what came after).
    """
    known = view.known_markers if markers is None else dict(markers)
    log = view.log
    over = next((e for e in reversed(log) if e.kind == "over"), None) if view.is_over else None
    bullets = (over.bullets if over is not None else {}) or {}
    seats = []
    for p in view.players:
        tab = view.tableaux[p]
        seats.append({"name": p, "cards": [{"card": c, "up": up} for c, up in tab],
                      "bullets": view.bullet_counts[p], "bullet_values": list(bullets.get(p, ())),
                      "size": len(tab) + view.bullet_counts[p], "points": (view.scores or view.visible_points)[p],
                      "marker": known.get(p), "active": p == view.active_player,
                      "deciding": p == view.current_player, "un": p == view.un_player,
                      "you": p == view.viewer, "title": seat_title(p, view.viewer)})
    offer = None
    if view.offer is not None:
        offer = {"from": view.active_player, "to": view.offer[1], "card": view.offer[0]}
    lines = [for_any_name(line) for line in map(describe, log) if line is not None]
    state = {
        "viewer": view.viewer, "kind": view.kind,
        "label": label or {"omniscient": "Omniscient: every secret shown", "spectator": "Spectator: public "
                           "information only"}.get(view.kind, f"{possessive(view.viewer)} view"),
        "headline": headline(view),
        "turn": view.turn, "phase": view.phase, "active": view.active_player, "current": view.current_player,
        "un_player": view.un_player, "deck_size": view.deck_size, "end_size": view.end_size,
        "candidates": list(view.candidates) if view.phase in ("offer",) else [],
        "offer": offer, "seats": seats, "middle": {"marker": known.get(MIDDLE)},
        "log": lines[-LOG_LINES:], "log_length": len(lines), "since_last_turn": since_last_turn(view),
        "decisions": [decision_entry(a, view) for a in legal] if human else [],
        "is_human_turn": bool(human), "is_over": view.is_over,
        "winners": list(view.winners) if view.is_over else None,
        "scores": dict(view.scores) if view.is_over else None,
        "belief": belief_panel(belief, since) if belief is not None else None,
        "curtain": curtain, "replay": replay, "autoplay": autoplay, "error": error,
    }
    return state
