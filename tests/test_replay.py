"""The public record of play (heimlich_lab.rules.replay): one stream of decisions per observer, the same from
every source that observer may read, and never holding another player's secret."""
from __future__ import annotations

import pytest

from heimlich_lab import Game, Rules
from heimlich_lab.bots import RandomBot
from heimlich_lab.errors import InformationRuleError, ModelError, RecordError
from heimlich_lab.rules.actions import CHANCE_KINDS, DECISION_KINDS, HIDDEN, Action
from heimlich_lab.rules.records import GameRecord, LogEntry
from heimlich_lab.rules.replay import Decision, DecisionStream, public_decisions
from heimlich_lab.rules.views import visible_action

P3 = ("Ann", "Bob", "Cy")
RULES = {"basic": Rules(), "top secret": Rules(top_secret=True), "dossier": Rules(top_secret=True, dossier=True),
         # the options of issue 11: the stream and the information rule hold under them too
         "options": Rules(top_secret=True, dossier=True, draws="may", lone_announcer="one_card",
                          safe_mover="creator", second_agent="drawn")}


def _view_fields(v):
    if v is None:
        return None
    return (v.viewer, v.kind, v.turn, v.phase, v.current_player, v.active_player, v.positions, v.scores, v.safe,
            v.die, v.points, v.triggers, v.own_agents, v.hand, v.hand_sizes, v.supply_size, v.discards,
            v.dossier_sheet, v.dossier_done, v.is_over, v.owners)


def _fields(d: Decision):
    """Everything a decision tells its observer."""
    return (d.index, d.actor, str(d.action), d.to, d.turn, d.at_mark, d.history_key,
            [(e.kind, e.data, e.hidden) for e in d.events], _view_fields(d.view))


def _play_streaming(rules, seed, viewers, steps_between_reads=3):
    """Play a game with random bots, reading a DecisionStream per viewer every few actions."""
    g = Game(P3, rules=rules, seed=seed)
    bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(P3)}
    streams = {v: DecisionStream(g, v) for v in viewers}
    read = {v: list(s.new()) for v, s in streams.items()}
    n = 0
    while not g.is_over:
        p = g.current_player
        g.apply(bots[p].choose(g.view(p), g.legal_actions()))
        n += 1
        if n % steps_between_reads == 0:
            for v, s in streams.items():
                read[v] += s.new()
    for v, s in streams.items():
        read[v] += s.new()
        assert s.new() == []  # nothing new: nothing returned
    return g, read


@pytest.mark.parametrize("variant", sorted(RULES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_source_gives_the_same_stream(variant, seed):
    g, live = _play_streaming(RULES[variant], seed, ["Bob", None])
    rec = g.record
    sources = {
        "Bob": [rec, rec.as_player("Bob"), g, g.view("Bob")],
        None: [rec, rec.public(), rec.as_player("Bob"), g, g.view(None)],
    }
    for viewer, srcs in sources.items():
        want = [_fields(d) for d in live[viewer]]
        assert len(want) == len(rec.log) and [w[0] for w in want] == list(range(len(rec.log)))
        for src in srcs:
            got = [_fields(d) for d in public_decisions(src, viewer)]
            assert got == want, f"{viewer}: {type(src).__name__} {getattr(src, 'view', '')}"


def test_a_decision_unpacks_like_the_old_tuples_and_views_come_before_player_decisions():
    g, live = _play_streaming(RULES["top secret"], 3, ["Ann"])
    for d in live["Ann"]:
        index, actor, action, to, view, events = d
        assert (index, actor, action, to, view, events) == (d.index, d.actor, d.action, d.to, d.view, d.events)
        if action.kind in DECISION_KINDS:
            assert view.current_player == actor and view.viewer == "Ann" and view.turn == d.turn
        else:
            assert view is None
        assert (actor == "chance") == (action.kind in CHANCE_KINDS)
    assert repr(live["Ann"][0]) == "<Decision 0: chance: deal ?, turn 1>"


def test_until_stops_at_the_dossier_mark_or_a_count():
    g, _ = _play_streaming(RULES["dossier"], 4, [])
    rec = g.record
    assert [d.index for d in public_decisions(rec.public(), None, until=7)] == list(range(7))
    to_mark = list(public_decisions(rec, "Cy", until="dossier"))
    assert to_mark[-1].at_mark and not any(d.at_mark for d in to_mark[:-1])
    assert [_fields(d) for d in public_decisions(rec.as_player("Cy"), "Cy", until="dossier")] == \
        [_fields(d) for d in to_mark]
    with pytest.raises(ModelError, match="until"):
        public_decisions(rec, None, until="soon")


def test_an_observer_reads_only_what_they_may():
    g, _ = _play_streaming(RULES["basic"], 5, [])
    rec = g.record
    with pytest.raises(InformationRuleError, match="Ann's secrets"):
        public_decisions(rec.as_player("Ann"), "Bob")
    with pytest.raises(InformationRuleError, match="no secrets"):
        public_decisions(rec.public(), "Bob")
    with pytest.raises(InformationRuleError, match="omniscient"):
        public_decisions(g.omniscient_view(), None)
    with pytest.raises(InformationRuleError):
        public_decisions(g.view("Ann"), "Bob")
    with pytest.raises(ModelError, match="unknown observer"):
        public_decisions(rec, "Zed")
    with pytest.raises(ModelError, match="expected a Game"):
        public_decisions("a record", None)
    with pytest.raises(ModelError, match="unknown observer"):
        DecisionStream(g, "Zed")


@pytest.mark.parametrize("viewer", ["Ann", None])
def test_a_stream_from_a_start_position_reads_incrementally(viewer):
    g0 = Game(P3, rules=RULES["top secret"], seed=6)
    bots = {p: RandomBot(i) for i, p in enumerate(P3)}
    for _ in range(30):
        p = g0.current_player
        g0.apply(bots[p].choose(g0.view(p), g0.legal_actions()))
    while g0.phase not in ("roll", "points", "move", "safe"):    # where a start position may stand
        p = g0.current_player
        g0.apply(bots[p].choose(g0.view(p), g0.legal_actions()))
    g = Game(P3, rules=RULES["top secret"], seed=7, start=g0.position())
    stream = DecisionStream(g, viewer)
    seen = stream.new()
    for _ in range(25):
        p = g.current_player
        g.apply(bots[p].choose(g.view(p), g.legal_actions()))
        seen += stream.new()
    want = [_fields(d) for d in public_decisions(g.record, viewer)]
    assert [_fields(d) for d in seen] == want and len(want) == len(g.record.log)


def test_a_stream_of_a_manual_game_begins_empty_and_follows_each_entry():
    g = Game(P3, chance="manual")
    stream = DecisionStream(g, "Cy")
    assert stream.new() == []
    for text in ("deal Ann=red Bob=blue Cy=green", "roll 4", "move red+3 blue+1", "roll 2"):
        g.apply(text)
        (d,) = stream.new()
        assert d.index == len(g.history) - 1 and str(d.action) == ("deal ?" if text.startswith("deal") else text)
    assert [_fields(d) for d in public_decisions(g.record, "Cy")] == \
        [_fields(d) for d in public_decisions(g.record.as_player("Cy"), "Cy")]


# --------------------------------------------------------------------------- the information rule


def _with_other_secrets(rec: GameRecord, observer: str) -> GameRecord:
    """The same game with the other players' secrets changed: their dealt agents swapped, their dossier
    entries written otherwise, and (Top Secret) cards they draw and never play replaced by cards nobody draws.
    Every public action stays as it was."""
    others = [p for p in rec.players if p != observer]
    log = rec.log
    played = [(e.actor, e.action.args[0]) for e in log if e.action.kind == "play"]
    drawn_later = [{e.action.args[0] for e in log[k:] if e.action.kind == "draw"} for k in range(len(log) + 1)]
    g = Game(rec.players, rules=rec.rules, chance="manual")
    changed = 0
    for k, e in enumerate(log):
        a = e.action
        if a.kind == "deal":
            deal = dict(a.args)
            deal[others[0]], deal[others[1]] = deal[others[1]], deal[others[0]]
            a = Action.deal(deal)
            changed += 1
        elif a.kind == "dossier" and e.actor != observer:
            options = [x for x in g.legal_actions() if x != a]
            if options:
                a = options[0]
                changed += 1
        elif a.kind == "draw" and e.to != observer:
            still_played = (e.to, a.args[0]) in played[sum(1 for x in log[:k] if x.action.kind == "play"):]
            spare = sorted({x.args[0] for x in g.legal_actions()} - drawn_later[k] - {a.args[0]})
            if not still_played and spare:
                a = Action.parse(f"draw {spare[0]}")
                changed += 1
        g.apply(a, player=e.actor)
    assert changed >= (2 if rec.rules.top_secret else 1)  # the variant holds other secrets than the original
    return g.record














SEED_WITH_SECRETS = 21   # a game in which other players draw cards the test can change


@pytest.mark.parametrize("variant", sorted(RULES))
def test_a_players_stream_never_holds_another_players_secret(variant):
    g, _ = _play_streaming(RULES[variant], SEED_WITH_SECRETS, [])
    rec = g.record
    other = _with_other_secrets(rec, "Ann")
    assert [e.action for e in other.log] != [e.action for e in rec.log]
    for src_a, src_b in [(rec, other), (rec.as_player("Ann"), other.as_player("Ann"))]:
        a = [_fields(d) for d in public_decisions(src_a, "Ann")]
        b = [_fields(d) for d in public_decisions(src_b, "Ann")]
        # the game-over event names the owners (public at the end): everything before it is the same
        assert a[:-1] == b[:-1] and a[-1][:7] == b[-1][:7]
    spectator = [_fields(d) for d in public_decisions(rec.public(), None)][:-1]
    assert spectator == [_fields(d) for d in public_decisions(other.public(), None)][:-1]


def test_visible_action_hides_each_secret_from_everyone_but_its_holder():
    deal = Action.deal({"Ann": "red", "Bob": "blue"})
    assert str(visible_action(deal, "chance", None, "Ann")) == "deal ?"
    draw, take = Action.parse("draw ruins"), Action.parse("take green")
    for a in (draw, take):
        assert visible_action(a, "chance", "Bob", "Bob") == a
        assert visible_action(a, "chance", "Bob", "Ann").args == (HIDDEN,)
        assert visible_action(a, "chance", "Bob", None).args == (HIDDEN,)
    entry = Action.parse("dossier red=Ann")
    assert visible_action(entry, "Bob", None, "Bob") == entry
    assert visible_action(entry, "Bob", None, "Ann").args == (HIDDEN, HIDDEN)
    move = Action.parse("move red+2")
    assert visible_action(move, "Ann", None, None) is move


def test_records_hide_secrets_as_the_stream_does():
    g, _ = _play_streaming(RULES["dossier"], 9, [])
    rec = g.record
    for keep in (None, "Cy"):
        red = rec.as_player(keep) if keep else rec.public()
        assert [e.action for e in red.log] == [visible_action(e.action, e.actor, e.to, keep) for e in rec.log]
        # a record that holds one secret too many is refused
        leak = next(i for i, e in enumerate(rec.log) if e.action.kind == "draw" and e.to != keep)
        log = list(red.log)
        log[leak] = LogEntry(rec.log[leak].actor, rec.log[leak].action, rec.log[leak].to)
        with pytest.raises(RecordError, match="secret"):
            GameRecord.from_dict({**red.to_dict(), "log": [e.to_list() for e in log]})


@pytest.mark.parametrize("variant", sorted(RULES))
def test_the_transcript_reads_the_stream_from_any_record_the_viewer_may_read(variant):
    from heimlich_lab.transcript import describe, transcript
    g, _ = _play_streaming(RULES[variant], 10, [])
    rec = g.record
    for viewer, redacted in (("Cy", rec.as_player("Cy")), (None, rec.public()), (None, rec.as_player("Cy"))):
        want = transcript(rec, viewer)
        # the engine's own log of what the viewer saw
        assert want[1:] == [describe(e) for e in g.view(viewer).log]
        assert transcript(redacted, viewer) == want == transcript(g, viewer)
    with pytest.raises(InformationRuleError):
        transcript(rec.public(), "Cy")


def test_a_record_made_by_the_engine_is_read_without_a_second_replay_until_it_is_edited():
    from dataclasses import replace
    g, _ = _play_streaming(RULES["top secret"], 5, [])
    rec = g.record
    assert rec.is_as_played()
    fresh = [_fields(d) for d in public_decisions(rec, "Ann")]
    loaded = GameRecord.from_json(rec.to_json())          # from a file: checked by a replay when read
    assert not loaded.is_as_played() and not replace(rec).is_as_played()
    assert [_fields(d) for d in public_decisions(loaded, "Ann")] == fresh
    # an edit after the game: the record is no longer trusted, and the reader's replay finds the lie
    k = next(i for i, e in enumerate(rec.log) if e.action.kind == "roll")
    face = "6" if str(rec.log[k].action) != "roll 6" else "5"
    rec.log[k] = LogEntry("chance", Action.parse(f"roll {face}"))
    assert not rec.is_as_played()
    with pytest.raises(RecordError):
        list(public_decisions(rec, "Ann"))
