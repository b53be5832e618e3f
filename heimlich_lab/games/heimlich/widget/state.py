"""The board widget's synced data, built from a :class:`~heimlich_lab.View` only.

Whatever this module returns is sent to the browser, so it is made from the
viewer's view (the information rule): another player's card, hand or dossier
entries can never reach the widget state or the DOM.

Two traitlets carry it. :func:`board_setup` is what stays fixed for a game (players,
agents, the ring, the track, the card names), sent once; :func:`board_state` is the
position and the decision now. The front end knows no rules: each decision comes as
a :func:`decision_entry` (notation, kind, group, label, and what a card would do), and
a move as an :func:`allocation_table` (the points to spend and, per agent, where it
would land after 0..points steps and whether that creates a scoring).

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)
>>> s = board_state(g, "Ann", human_players=["Ann"])
>>> s["viewer"], s["own_agents"] == list(g.owners["Ann"]), s["owners"] is None
('Ann', True, True)
>>> s["move"]["points"], s["decisions"]           # a move: the board builds the allocation itself
(3, [])
>>> [s["move"]["agents"]["grey"]["to"], s["move"]["agents"]["grey"]["scores"]]   # from the Church, safe on 7
[[0, 1, 2, 3], [False, False, False, False]]
>>> sorted(board_setup(g.view("Ann")))
['agents', 'card_names', 'dossier', 'dossier_mark', 'finish', 'players', 'ring', 'top_secret']

With ``chance="manual"`` a human's roll is a decision of its own (the widget's "Roll the die" button):

>>> m = Game(["Ann", "Bob"], chance="manual"); m.apply("deal Ann=red Bob=green")
>>> s = board_state(m, "Ann", human_players=["Ann"])
>>> s["phase"], s["current_player"], s["decisions"], s["decision_text"]
('roll', 'Ann', [{'notation': 'roll', 'kind': 'roll', 'group': 'roll', 'title': 'Die', 'label': 'Roll the die', \
'key': 'r'}], 'Ann: roll the die')
>>> c = board_state(m, None, human_players=["Ann"], curtain="Hand the screen to Ann")   # a curtain: the spectator's
>>> c["hand"], c["own_agents"], c["decisions"], c["belief"]
(None, [], [], None)
"""
from __future__ import annotations

from ....engine.words import count, for_any_name, possessive
from ..rules.actions import Action
from ..rules.board import (
    AGENT_BY_COLOUR,
    BUILDING_VALUES,
    CHURCH,
    DOSSIER_MARK,
    FINISH,
    RUINS,
    building_name,
    index_of,
    step,
    value_of,
)
from ..rules.cards import CARDS, PublicBoard
from ..transcript import describe
from .panel import last_decision_of

LOG_LINES = 60
#: The notation of a human's die roll (the controller samples the face).
ROLL = "roll"

_DECISION_TEXT = {
    "roll": "{p}: roll the die", "move": "{p}: allocate {points}",
    "safe": "{p}: a scoring! Move the safe to another building", "announce": "{p}: play a Top Secret card this turn?",
    "round": "{p}: play a Top Secret card, or pass", "dossier": "{p}: fill in the Secret Dossier ({a})",
    "collect": "{p}: take the Top Secret card you may draw?",
    "draw": "A card is drawn", "take": "A free agent card is taken", "deal": "Agent cards are dealt",
}


def building_label(value: int) -> str:
    """A building as the board labels it: ``Church``, ``Ruins`` or its number.

    >>> [building_label(v) for v in (0, 4, -3)]
    ['Church', '4', 'Ruins']
    """
    return "Church" if value == CHURCH else "Ruins" if value == RUINS else str(value)


def board_setup(view) -> dict:
    """What stays fixed for a game, sent once: players, agents, the ring (clockwise from the Church), the
    track (finish, dossier mark), the Top Secret card names and which variants are played."""
    return {
        "players": list(view.players),
        "agents": [{"colour": c, "name": AGENT_BY_COLOUR[c].name, "letter": AGENT_BY_COLOUR[c].letter}
                   for c in view.agents],
        "ring": [{"value": v, "name": building_name(v), "label": building_label(v)} for v in BUILDING_VALUES],
        "finish": FINISH,
        "dossier_mark": DOSSIER_MARK,
        "card_names": {c: k.text for c, k in CARDS.items()},
        "top_secret": view.rules.top_secret,
        "dossier": view.rules.dossier,
    }


def decider_of(view) -> str | None:
    """Whose decision it is in ``view``: the current player, or at a die roll the player whose turn it is."""
    if view.is_over:
        return None
    if view.current_player is not None:
        return view.current_player
    if view.phase == "roll":
        return view.active_player
    return None


class LogMemo:
    """What a live board reads of its game's log, each event read once: its line in words (:func:`describe`) and
    the players' latest moves (:func:`last_moves`). A view copies every event it hands out, and the board's log
    lines and latest moves would otherwise read every event again at every step; the memo reads each event once.
    It answers for one game's log as one viewer sees it (an event, once logged, is never changed, and the log only
    grows); a view of another game, of another viewer or with a shorter log starts it afresh (the answers are
    those of :func:`describe` and :func:`last_moves`).

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob", "Cy"], seed=2)
    >>> memo = LogMemo()
    >>> g.apply("move red+3"); v = g.view(None)
    >>> memo.lines(v, 0) == [describe(e) for e in v.log], memo.last_moves(v) == last_moves(v)
    (True, True)
    >>> g.apply("move blue+2"); v = g.view(None)
    >>> memo.lines(v, 2) == [describe(e) for e in v.log[2:]], memo.last_moves(v)
    (True, {'Ann': {'red': [0, 3]}, 'Bob': {'blue': [0, 2]}})
    """

    def __init__(self) -> None:
        self._log = None                # the log read (an EventLog: same_game tells another game's apart)
        self._whose: tuple = ()         # (viewer, kind) of the views read
        self._lines: list[str] = []     # event i's line in words, for the events read so far
        self._moves: dict = {}          # player -> {agent: (from, to)} of their latest move, up to _moved
        self._moved = 0                 # how many events last_moves has read

    def _follow(self, view):
        """The view's log, after forgetting what another game's or another viewer's log said."""
        log = view.log
        if (self._log is None or not log.same_game(self._log) or (view.viewer, view.kind) != self._whose
                or len(log) < max(len(self._lines), self._moved)):
            self._log, self._whose = log, (view.viewer, view.kind)
            self._lines, self._moves, self._moved = [], {}, 0
        return log

    def lines(self, view, start: int) -> list[str]:
        """The view's log from entry ``start`` on, in words (:func:`describe`)."""
        log = self._follow(view)
        known = self._lines
        if len(known) < len(log):
            known.extend(describe(e) for e in log[len(known):])
        return known[start:len(log)]

    def last_moves(self, view) -> dict:
        """:func:`last_moves` of the view, reading only the events logged since the last call."""
        log = self._follow(view)
        moves = self._moves
        for i, kind in enumerate(log.kinds(self._moved), start=self._moved):
            if kind in ("move", "play"):
                e = log[i]
                if e.data.get("moves") and e.player is not None:
                    moves[e.player] = {c: tuple(ft) for c, ft in e.data["moves"].items()}
        self._moved = len(log)
        return {p: {c: list(ft) for c, ft in m.items()} for p, m in moves.items()}


def board_state(game, viewer: str | None, *, omniscient: bool = False, human_players=(), belief=None,
                curtain: str | None = None, autoplay: dict | None = None, replay: dict | None = None,
                last_move: dict | None = None, view=None, label: str | None = None,
                ask_cards: dict | None = None, memo: LogMemo | None = None) -> dict:
    """The JSON state the front end draws, seen as ``viewer`` (``None``: spectator).

    ``omniscient=True`` shows every secret and is labelled so (for replays and teachers).
    ``belief`` is an optional dict for the belief panel (see
    :func:`~heimlich_lab.games.heimlich.widget.panel.belief_panel`). ``view`` may be passed to draw a stored snapshot
    instead of the game's current state (then nothing is playable). Under a ``curtain`` no private field is filled in at
    all: pass a spectator (``viewer=None``) and the state is the spectator's plus the curtain text. The fixed part of
    the game (players, agents, ring, card names) is :func:`board_setup`'s. ``ask_cards``: the human at the
    screen's Top Secret preference (``{"player", "only_playable"}``, the controller's; never under a curtain).
    ``memo``: a live board's :class:`LogMemo` (the same state, each event of the log read once).
    """
    if curtain is not None and (viewer is not None or omniscient):
        raise ValueError("under a curtain the state is a spectator's: pass viewer=None")
    v = view if view is not None else (game.omniscient_view() if omniscient else game.view(viewer))
    current = decider_of(v)
    human_turn = (current is not None and current in human_players and (current == viewer or omniscient)
                  and curtain is None and view is None)
    private = viewer is not None and curtain is None
    log = v.log
    decisions, move = [], None
    if human_turn:
        if v.phase == "roll":
            decisions = [decision_entry(ROLL, v)]
        elif v.phase == "move":
            move = allocation_table(v)
        else:
            decisions = decision_entries(game.legal_actions(), v)
    text = _decision_text(v, current) if replay is None else turn_banner(v, replay=True)
    if v.phase == "round" and decisions and not any(d["kind"] in ("pass", "done") for d in decisions):
        # why there is no Pass: the round's first player must play (docs/rules.md#top-secret-round)
        text = for_any_name(f"{current}: play at least one Top Secret card (the first to play in a round may not pass)")
    return {
        "viewer": viewer,
        "view_label": label or v.label,
        "positions": v.positions,
        "scores": v.scores,
        "safe": v.safe,
        "die": v.die,
        "points": v.points,
        "current_player": current,
        "active_player": v.active_player,
        "turn": v.turn,
        "phase": v.phase,
        "decision_text": text,
        "banner": turn_banner(v, replay=replay is not None),
        "is_human_turn": bool(human_turn),
        "own_agents": list(v.own_agents) if private else [],
        "identity": (for_any_name(f"{v.viewer} controls " + " and ".join(
            f"{AGENT_BY_COLOUR[c].name} ({c})" for c in v.own_agents)) if private and v.own_agents else ""),
        "owners": ({c: o for c, o in (v.final_owners or {}).items()} if v.is_over
                   else ({c: p for p, cols in v.owners.items() for c in cols} if v.owners else None)),
        "hand": list(v.hand) if private else None,
        "hand_sizes": v.hand_sizes,
        "dossier_sheet": v.dossier_sheet if private else None,
        "triggers": list(v.triggers),
        "log": (memo.lines(v, max(0, len(log) - LOG_LINES)) if memo is not None
                else [describe(e) for e in log[max(0, len(log) - LOG_LINES):]]),
        "last_move": last_move or {},
        "last_moves": memo.last_moves(v) if memo is not None else last_moves(v),
        "since_last_turn": since_last_turn(v, memo) if private and replay is None else [],
        "card_play": card_play_of(v),
        "ask_cards": ask_cards if curtain is None else None,
        "curtain": curtain,
        "autoplay": autoplay,
        "replay": replay,
        "winners": list(v.winners) if v.winners is not None else None,
        "result_text": describe(log[-1]) if v.is_over and len(log) else "",
        "result": game_result(v),
        "belief": belief if curtain is None else None,
        "decisions": decisions,
        "move": move,
    }


def allocation_table(view) -> dict:
    """What the front end needs to build a move without knowing the ring: the points to spend (every split of
    exactly that many steps is legal) and, per agent, the building it reaches after 0..points steps and whether
    it would land on the safe (a scoring).

    >>> from heimlich_lab import Game
    >>> t = allocation_table(Game(["Ann", "Bob", "Cy"], seed=2).view("Ann"))
    >>> t["points"], t["agents"]["red"]
    (3, {'from': 0, 'to': [0, 1, 2, 3], 'scores': [False, False, False, False]})
    """
    points, safe = view.points, view.safe
    agents = {}
    for c in view.agents:
        here = view.positions[c]
        to = [value_of(step(index_of(here), n)) for n in range(points + 1)]
        agents[c] = {"from": here, "to": to, "scores": [n > 0 and b == safe for n, b in enumerate(to)]}
    return {"points": points, "agents": agents}


# The order of the decision groups on the screen (cards in order of first appearance, dossier agents in
# agent order); within a group, ties keep the engine's order.
_GROUP_RANK = {"roll": -1, "points": 0, "safe": 1, "announce": 2, "play": 3, "dossier": 4}
_TARGET_JOIN = {"swap": " \u2194 ", "join": " \u2192 "}


def decision_entries(actions, view) -> list[dict]:
    """The legal decisions as the front end shows them: one :func:`decision_entry` each (moves left out: the
    allocation editor builds them from :func:`allocation_table`), in their groups' order."""
    entries, seen = [], set()
    for a in actions:
        text = str(a)
        if text in seen or Action.parse(a).kind == "move":
            continue
        seen.add(text)
        entries.append(decision_entry(a, view))
    if [e["label"] for e in entries if e["kind"] == "announce"] == ["No"]:
        for e in entries:
            if e["kind"] == "announce":
                e["title"] = "Announce? No card you hold can be played now"
    groups = list(dict.fromkeys(e["group"] for e in entries))
    agents = list(view.agents)

    def order(i_e):
        i, e = i_e
        kind = e["kind"] if e["kind"] in _GROUP_RANK else "other"
        rank = _GROUP_RANK.get(kind, 5)
        sub = agents.index(e["group"][8:]) if kind == "dossier" else 0
        within = (int(e["label"]) if kind == "points" else index_of(e["building"]) if kind == "safe"
                  else e["label"] != "Yes" if kind == "announce" else 0)
        return rank, sub, groups.index(e["group"]), within, i
    return [e for _, e in sorted(enumerate(entries), key=order)]


def decision_entry(action, view) -> dict:
    """One decision for the front end: its ``notation`` (sent back when chosen), ``kind``, ``group`` and the
    group's ``title``, the button ``label``, and where it applies: ``key`` (its keyboard key), ``building``
    (a click on that building chooses it) and, for a card, its ``effect`` (:func:`card_effect`).

    >>> from heimlich_lab import Game
    >>> v = Game(["Ann", "Bob", "Cy"], seed=2).view("Ann")
    >>> decision_entry("points 2", v)
    {'notation': 'points 2', 'kind': 'points', 'group': 'points', 'title': 'Points', 'label': '2', 'key': '2'}
    >>> decision_entry("collect no", v)["label"], decision_entry("pass", v)["key"]
    ("Don't draw", 'x')
    >>> e = decision_entry("play fwd123 red+2", v)
    >>> e["group"], e["label"], e["effect"]
    ('play:fwd123', 'Jaques +2', {'moves': {'red': [0, 2]}})
    """
    if action == ROLL:
        return {"notation": ROLL, "kind": "roll", "group": "roll", "title": "Die", "label": "Roll the die", "key": "r"}
    act = Action.parse(action)
    k, args = act.kind, act.args
    entry = {"notation": str(act), "kind": k}
    if k == "points":
        entry |= {"group": "points", "title": "Points", "label": str(args[0]), "key": str(args[0])}
    elif k == "safe":
        entry |= {"group": "safe", "title": "Move the safe to", "label": building_label(args[0]),
                  "building": args[0]}
    elif k == "announce":
        entry |= {"group": "announce", "title": "Announce?", "label": "Yes" if args[0] else "No",
                  "key": "y" if args[0] else "n"}
    elif k == "play":
        code = args[0]
        targets = str(act).split()[2:]
        entry |= {"group": f"play:{code}", "title": f"{CARDS[code].text} ({code})",
                  "label": _TARGET_JOIN.get(code, ", ").join(map(_target_label, targets)) or "Play",
                  "effect": card_effect(view, act)}
        if code == "placesafe":
            entry["building"] = args[1]
    elif k == "dossier":
        agent, name = args
        entry |= {"group": f"dossier:{agent}", "title": f"Dossier: {AGENT_BY_COLOUR[agent].name} ({agent})",
                  "label": name}
    elif k in ("pass", "done"):
        entry |= {"group": "round", "title": "Top Secret round", "key": "x" if k == "pass" else "d",
                  "label": "Pass (play no card)" if k == "pass" else "Done (end my part of the round)"}
    elif k == "collect":     # a choice in words, not the notation "collect yes"
        entry |= {"group": "collect", "title": "The Top Secret card you may draw",
                  "label": "Draw a Top Secret card" if args[0] else "Don't draw", "key": "y" if args[0] else "n"}
    else:
        entry |= {"group": "other", "title": "Other", "label": str(act)}
    return entry


def _target_label(word: str) -> str:
    """A card target as a button shows it, agents by name as on the board: ``red+1`` as ``Jaques +1``,
    ``blue-2`` as ``Doyle \u22122``, buildings by their labels.

    >>> _target_label("red+1"), _target_label("blue"), _target_label("ruins")
    ('Jaques +1', 'Doyle', 'Ruins')
    """
    for sign in "+-":
        colour, _, n = word.partition(sign)
        if n.isdigit() and colour in AGENT_BY_COLOUR:   # named as the board names the agent
            return f"{AGENT_BY_COLOUR[colour].name} {sign.replace('-', chr(0x2212))}{n}"
    if word in AGENT_BY_COLOUR:
        return AGENT_BY_COLOUR[word].name
    if word in ("church", "ruins") or word.lstrip("-").isdigit():
        value = CHURCH if word == "church" else RUINS if word == "ruins" else int(word)
        if value in BUILDING_VALUES:
            return building_label(value)
    return word


def card_effect(view, action) -> dict:
    """What a card play would do in ``view``'s position: ``moves`` (agent -> [from, to] buildings), and when they
    change, the ``safe`` ([from, to]) and markers' ``gains`` (agent -> points). Public facts only."""
    board = PublicBoard.from_view(view)
    played = CARDS[action.args[0]].effect(board, action.args[1:])
    effect = {"moves": {board.agents[a]: [value_of(frm), value_of(to)] for a, frm, to in sorted(played.moves)}}
    if played.safe is not None and played.safe != board.safe:
        effect["safe"] = [value_of(board.safe), value_of(played.safe)]
    gains = {board.agents[a]: g for a, g in sorted(played.gains) if g}
    if gains:
        effect["gains"] = gains
    return effect


def plural(n, word: str) -> str:
    """``n`` and ``word``, plural when ``n`` is not 1: never "step(s)".

    >>> plural(1, "step"), plural(4, "point"), plural(None, "step")
    ('1 step', '4 points', 'steps')
    """
    return f"{word}s" if n is None else count(n, word)


def _counts(n) -> dict:
    return {"n": n, "points": plural(n, "point"), "steps": plural(n, "step")}


def _decision_text(v, who) -> str:
    if v.is_over:
        return "Game over"
    who = who or v.current_player or v.active_player
    if v.phase == "points":
        return f"{who}: choose 1, 2 or 3 points" + (" (or 0 to draw a card)" if v.rules.top_secret else "")
    about = "for each agent but your own, an opponent or 'free'"
    return for_any_name(_DECISION_TEXT.get(v.phase, "{p}").format(p=who, a=about, **_counts(v.points)))


#: What the decider is asked, in the banner (a question to whoever decides now).
_ASKED = {"roll": "roll the die", "points": "choose the points", "move": "move agents {steps}",
          "safe": "a scoring! Move the safe", "announce": "play a Top Secret card?", "round": "play a card or pass?",
          "dossier": "fill in the Secret Dossier", "collect": "take the card you may draw?"}
#: The same decisions in the past tense, for replays (the position before the decision was made).
_WAS_ASKED = {"roll": "{p} was about to roll the die", "points": "{p} was choosing the points",
              "move": "{p} was moving agents {steps}", "safe": "A scoring: {p} was to move the safe",
              "announce": "{p} was asked whether to play a Top Secret card",
              "round": "Top Secret round: {p} was to play a card or pass",
              "dossier": "{p} was filling in the Secret Dossier", "collect": "{p} was asked whether to take a card",
              "draw": "A card was being drawn", "take": "A free agent card was being taken",
              "deal": "The agent cards were being dealt"}


def turn_banner(view, replay: bool = False) -> str:
    """Whose turn it is, what was rolled, and who must decide now (in a Top Secret round not the same player).

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob", "Cy"], seed=2)
    >>> turn_banner(g.view("Ann")), turn_banner(g.view("Ann"), replay=True)
    ("Ann's turn (rolled 3): move agents 3 steps", 'Turn 1: Ann was moving agents 3 steps')
    """
    if view.is_over:
        won = view.winners or ()
        return for_any_name("Game over: " + (f"{' and '.join(won)} {'win' if len(won) > 1 else 'wins'}" if won
                                             else "a free agent went farthest, so nobody wins"))
    active, decider = view.active_player, decider_of(view)
    if replay:
        who = decider or active
        return for_any_name(f"Turn {view.turn}: " + _WAS_ASKED.get(view.phase, "{p}").format(p=who,
                                                                                             **_counts(view.points)))
    text = f"{possessive(active)} turn" + (f" (rolled {view.die})" if view.die is not None else "")
    asked = _ASKED.get(view.phase, "").format(**_counts(view.points))
    if decider is None:
        return text + (f": {_DECISION_TEXT[view.phase].lower()}" if view.phase in _DECISION_TEXT else "")
    if decider == active:
        return for_any_name(f"{text}: {asked}" if asked else text)
    return for_any_name(f"{text}. {decider}: {asked}")


def game_result(view) -> dict | None:
    """The end of the game as a table: one row per agent, farthest first (``None`` before the end): its owner,
    the marker before the dossier points, the dossier points its owner earned, the final marker."""
    if not view.is_over or not len(view.log) or view.log[-1].kind != "over":
        return None
    d = view.log[-1].data
    bonus = d.get("bonus") or {}
    rows = []
    for c, final in d["scores"].items():
        owner = d["owners"].get(c)
        extra = bonus.get(owner, 0) if owner is not None else 0
        rows.append({"agent": c, "owner": owner, "marker": final - extra, "dossier": extra, "final": final,
                     "farthest": c in d["farthest"]})
    rows.sort(key=lambda r: -r["final"])
    past = any(r["final"] > FINISH for r in rows)
    if not past:
        note = ""
    elif view.rules.dossier:
        note = (f"Markers may end past {FINISH}: the dossier points are added after the race, and the farthest "
                "marker wins.")
    else:       # no dossier in this game: its sentence would only confuse
        note = f"Markers may end past {FINISH}: a scoring moves every marker at once, and the farthest marker wins."
    return {"rows": rows, "winners": list(d["winners"]), "dossier": bool(bonus), "note": note}


#: Decisions of a player (what "your last turn" ends with).
_OWN_DECISIONS = ("points", "move", "announce", "play", "pass", "done", "safe", "dossier", "collect")
SINCE_LINES = 30


def since_last_turn(view, memo: LogMemo | None = None) -> list[str]:
    """What happened since the viewer's last turn, in words (the newest :data:`SINCE_LINES` lines): since the end of
    the viewer's latest turn that is over, as the belief panel's headline counts it
    (:func:`~heimlich_lab.games.heimlich.widget.panel.last_decision_of`). The viewer's answers in other players'
    Top Secret rounds ("no" to a card, which the table may give for them after every move: ``ask_cards``) do not
    cut it down to the latest move. ``memo``: a live board's :class:`LogMemo` (the same lines).

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob", "Cy"], seed=2)
    >>> g.apply("move red+3"); g.apply("move blue+2")
    >>> since_last_turn(g.view("Ann"))
    ['Turn 2: Bob rolls 2.', 'Bob moves blue church→2.', 'Turn 3: Cy rolls 5.']
    """
    if view.viewer is None:
        return []
    log = view.log
    last = last_decision_of(view)
    start = max(last + 1, len(log) - SINCE_LINES)
    return memo.lines(view, start) if memo is not None else [describe(e) for e in log[start:]]


def card_play_of(view) -> dict | None:
    """The newest Top Secret card play of the turn now, for the board to show it (``None`` once the next die is
    rolled or agents move by the die, and in a game without one): who played which card (its ``title``), what it
    did in words (``text``, the log's sentence; ``effect``, its part after the card) and its ``log`` index (the
    board animates each play once).

    >>> from heimlich_lab.games.heimlich.rules.views import Event
    >>> class V: log = [Event("play", {"player": "Bob", "card": "fwd123", "moves": {"red": (5, 7)}})]
    >>> p = card_play_of(V()); p["player"], p["title"], p["log"]
    ('Bob', 'One agent 1, 2 or 3 buildings forward', 0)
    >>> p["text"], p["effect"]
    ('Bob plays fwd123 (One agent 1, 2 or 3 buildings forward): red 5→7.', 'red 5→7.')
    """
    log = view.log
    for i in range(len(log) - 1, max(-1, len(log) - 60), -1):
        e = log[i]
        if e.kind in ("roll", "move", "over"):
            return None
        if e.kind == "play":
            card, text = e.data["card"], describe(e)
            title = CARDS[card].text.rstrip(".")
            said = for_any_name(f"{e.player} plays {card} ({title})")
            effect = text[len(said):].lstrip(":").strip() if text.startswith(said) else text
            return {"player": e.player, "card": card, "title": title, "text": text, "effect": effect, "log": i}
    return None


def last_is_card_play(view) -> bool:
    """Whether the newest decision of a player in the view's log is a card play (autoplay then pauses longer)."""
    log = view.log
    for i in range(len(log) - 1, max(-1, len(log) - 12), -1):
        e = log[i]
        if e.player is not None and e.kind in _OWN_DECISIONS:
            return e.kind == "play"
    return False


def last_moves(view) -> dict:
    """Each player's latest move or card play: player -> {agent: [from, to]} (public)."""
    out: dict = {}
    log = view.log
    for i, kind in enumerate(log.kinds()):      # only moves and plays are read (a view copies what it hands out)
        if kind in ("move", "play"):
            e = log[i]
            if e.data.get("moves") and e.player is not None:
                out[e.player] = {c: list(ft) for c, ft in e.data["moves"].items()}
    return out


def last_move_of(view) -> dict:
    """Agent -> [from, to] of the newest move or card in the view's log (for the animation)."""
    log = view.log
    for i in range(len(log) - 1, max(-1, len(log) - 7), -1):
        e = log[i]
        if e.kind in ("move", "play") and e.data.get("moves"):
            return {c: list(ft) for c, ft in e.data["moves"].items()}
    return {}
