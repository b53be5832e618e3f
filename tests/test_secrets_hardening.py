"""Secrets under attack (issue 23): the rules a bot reads cannot be changed, a legal action changed in place is
refused, and a public record never shows a bullet that is still waiting for its shot."""
from __future__ import annotations

import json

import pytest

from heimlich_lab.errors import IllegalAction, RecordError
from heimlich_lab.games.secrets import Game
from heimlich_lab.games.secrets.records import SecretsRecord
from heimlich_lab.games.secrets.rules import SecretsRules

P4 = ["Ann", "Bob", "Cy", "Dee"]
ASSASSIN = ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal assassin", "reveal scientist",
            "offer assassin Bob", "accept", "bullet -2"]


def manual(actions, players=P4, **kw) -> Game:
    g = Game(players, chance="manual", seed=0, **kw)
    for a in actions:
        g.apply(a)
    return g


# ---------------------------------------------------------------- the rules in a view are read-only
def test_a_bot_cannot_edit_the_rules_it_reads():
    g = Game(P4, seed=2, rules=SecretsRules(markers={4: (2, 2, 1)}))
    rules = g.view("Ann").rules
    with pytest.raises(TypeError):
        rules.markers[4] = (1, 3, 1)
    with pytest.raises(TypeError):
        rules.markers[5] = (2, 2, 2)
    assert g.rules.markers_for(4) == {"CIA": 2, "KGB": 2, "Hippie": 1}
    assert SecretsRecord.from_json(g.record.to_json()).rules == g.rules      # the record still loads
    assert g.copy().rules == g.rules                                         # and the game still copies


# ---------------------------------------------------------------- legal actions are checked by value
def test_a_legal_action_changed_in_place_is_refused_and_changes_nothing():
    g = Game(P4, seed=3)
    assert "assassin" not in g.candidates
    legal = g.legal_actions()
    object.__setattr__(legal[0], "args", ("assassin", "Bob"))     # a card that was never drawn
    before = (g.phase, list(g.history), len(g.events))
    with pytest.raises(IllegalAction):
        g.apply(legal[0])
    assert (g.phase, list(g.history), len(g.events)) == before
    g.apply(f"offer {g.candidates[0]} Bob")                        # the real offers still work


def test_a_legal_action_with_look_alike_types_is_refused():
    g = manual(ASSASSIN[:5])
    assert g.phase == "bullet"
    with pytest.raises(IllegalAction):
        g.apply(g.Action("bullet", (-2.0,)))
    with pytest.raises(IllegalAction):
        g.apply(g.Action("bullet", (False,)))       # False == 0, but it is no bullet
    g.apply(g.Action("bullet", (0,)))


# ---------------------------------------------------------------- a pending bullet is the Assassin's secret
def test_a_bullet_waiting_for_its_shot_is_hidden_in_the_public_record():
    g = manual(ASSASSIN)
    assert g.phase == "shoot" and g.current_player == "Bob"
    assert g.record.public().log[-1] == ("chance", "bullet ?")
    assert g.record.as_player("Cy").log[-1] == ("chance", "bullet ?")
    assert g.record.as_player("Bob").log[-1] == ("chance", "bullet -2")     # the Assassin saw it
    d = g.record.public().to_dict()
    d["log"][-1] = ["chance", "bullet -2"]
    with pytest.raises(RecordError, match="log entry 5 .*secret"):
        SecretsRecord.from_json(json.dumps(d))


def test_the_assassin_is_who_took_the_card_whichever_way():
    # refused: the offerer adds the Assassin and draws the bullet
    g = manual(ASSASSIN[:4] + ["refuse", "bullet -1"])
    assert g.current_player == "Ann"
    assert g.record.as_player("Ann").log[-1] == ("chance", "bullet -1")
    assert g.record.as_player("Bob").log[-1] == ("chance", "bullet ?")
    g.apply("shoot Cy")
    assert g.record.public().log[-2] == ("chance", "bullet ?")
    assert g.record.as_player("Ann").log[-2] == ("chance", "bullet -1")


# ---------------------------------------------------------------- a view holds only what its player may know
def hidden_raw_events(view, viewer_index: int) -> int:
    """How many raw events reachable from the view's object graph (gc.get_referents, as a determined spy walks
    it; classes, modules and functions excluded) still carry a secret the viewer did not see."""
    import gc
    import types
    from heimlich_lab.games.secrets.views import SECRET_FIELDS
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    found, todo, seen_ids = 0, [view], set()
    while todo:
        o = todo.pop()
        if id(o) in seen_ids or isinstance(o, skip):
            continue
        seen_ids.add(id(o))
        if (type(o) is tuple and len(o) == 3 and isinstance(o[0], str) and isinstance(o[1], dict)
                and isinstance(o[2], frozenset) and viewer_index not in o[2]
                and any(o[1].get(f) is not None for f in SECRET_FIELDS.get(o[0], ()))):
            found += 1
        todo.extend(gc.get_referents(o))
    return found


class SpyBot:
    """Plays like RandomBot, and at every decision walks its view's object graph and tries to turn it into
    another player's view or the omniscient one."""

    def __init__(self, seed):
        from heimlich_lab.games.secrets.bots import RandomBot
        self.bot, self.leaks, self.flips = RandomBot(seed), 0, 0

    def choose(self, view, legal):
        self.leaks += hidden_raw_events(view, view.players.index(view.viewer))
        for name, value in (("_omni", True), ("_i", 1), ("_events", [])):
            try:
                setattr(view, name, value)
                self.flips += 1
            except AttributeError:
                pass
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("n", [4, 5, 7])
def test_a_spy_bot_learns_nothing_hidden_from_its_views(n):
    from heimlich_lab.games.secrets.bots import RandomBot
    from heimlich_lab.games.secrets.play import play_game
    spy = SpyBot(0)
    g = play_game([spy] + [RandomBot(i) for i in range(1, n)], seed=n)
    assert g.is_over
    assert hidden_raw_events(g.omniscient_view(), 0) > 0       # the walk finds secrets where they are
    assert spy.leaks == 0 and spy.flips == 0


def test_the_spectator_and_player_views_hold_no_raw_secret_at_any_moment():
    from heimlich_lab.games.secrets.bots import RandomBot
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"], seed=11)
    bots = [RandomBot(i) for i in range(7)]
    while not g.is_over:
        assert hidden_raw_events(g.spectator_view(), -1) == 0
        for i, p in enumerate(g.players):
            assert hidden_raw_events(g.view(p), i) == 0
        p = g.current_player
        g.apply(bots[g.players.index(p)].choose(g.view(p), g.legal_actions()))


# ---------------------------------------------------------------- a bot cannot rewrite others' knowledge
def test_a_bot_editing_its_log_changes_no_other_log_marker_or_belief():
    from heimlich_lab.games.secrets import Belief
    g = manual(["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal journalist", "reveal diplomat",
                "offer diplomat Cy", "accept", "side left"])
    before = {p: (g.view(p).log, g.view(p).known_markers) for p in g.players}
    belief_before = Belief.for_game(g, "Ann").identities()
    for p in g.players:                         # every bot edits every event it was handed
        for e in g.view(p).log:
            for k in list(e.data):
                v = e.data[k]
                if isinstance(v, dict):
                    v.clear()
                    v["middle"] = "Hippie"
                e.data[k] = "Hippie" if k in ("team", "slot") else v
            e.data["team"] = "Hippie"
        for e in g.spectator_view().log:
            e.data.clear()
    after = {p: (g.view(p).log, g.view(p).known_markers) for p in g.players}
    assert after == before
    assert Belief.for_game(g, "Ann").identities() == belief_before
    assert belief_before["middle"]["Hippie"] < 1.0
    assert g.record.to_json() == SecretsRecord.from_json(g.record.to_json()).to_json()


# ---------------------------------------------------------------- records refuse what they cannot hold
def _finished() -> dict:
    from heimlich_lab.games.secrets.bots import RandomBot
    from heimlich_lab.games.secrets.play import play
    return play([RandomBot(i) for i in range(5)], seed=1).to_dict()


FINISHED = _finished()


def _public() -> dict:
    return SecretsRecord.from_dict(FINISHED).public().to_dict()


@pytest.mark.parametrize("make, change, words", [
    (lambda: FINISHED, lambda d: d.update(result=None), "the log ends the game but the record's result is null"),
    (lambda: FINISHED, lambda d: d.update(version=True), "unknown version True"),
    (lambda: FINISHED, lambda d: d.update(version=1.0), "unknown version 1.0"),
    (lambda: FINISHED, lambda d: d.update(comment="hi"), r"unknown field\(s\) \['comment'\]"),
    (_public, lambda d: d.update(secret_deal="Ann=CIA"), r"unknown field\(s\) \['secret_deal'\]"),
    (lambda: FINISHED, lambda d: d.update(seed=-1), "'seed' must be a whole number 0 <= seed < 2\\*\\*128"),
    (lambda: FINISHED, lambda d: d.update(seed=2**200), "'seed' must be a whole number"),
    (lambda: FINISHED, lambda d: d.update(players=["Ann", "Ann", "Cy", "Dee", "Eve"]), "'players' repeat a name"),
    (lambda: FINISHED, lambda d: d["result"].update(winners="Ann"), "result 'winners' must be a list"),
    (_public, lambda d: d["result"].update(winners="Ann"), "result 'winners' must be a list"),
    (_public, lambda d: d["result"].update(winners=["Ann", "Ann"]), "result 'winners' must be a list of different"),
    (_public, lambda d: d["result"].update(winners=["Zed"]), "result 'winners' must be a list of different players"),
    (_public, lambda d: d["result"].update(scores={"Ann": "3"}), "result 'scores' must be"),
    (_public, lambda d: d["result"]["scores"].update(Ann=True), "result 'scores' must be"),
    (_public, lambda d: d["result"]["final_identities"].update(middle="Spy"), "result 'final_identities' must be"),
    (_public, lambda d: d["result"]["bullets"].update(Ann=[-7]), "result 'bullets' must be"),
    (_public, lambda d: d["result"].update(mvp="Ann"), "'result' must have exactly the fields"),
    (_public, lambda d: d["result"].pop("bullets"), "'result' must have exactly the fields"),
    (_public, lambda d: d.update(result=None), "the log ends the game but the record's result is null"),
    (_public, lambda d: d["log"].pop(), "the record has a result but its log does not end the game"),
    (_public, lambda d: d["log"].append(["Ann", "accept"]), r"log entry \d+ \('accept'\) comes after the end"),
    (_public, lambda d: d["log"].__setitem__(3, ["Cy", d["log"][3][1]]), r"log entry 3 .* is illegal"),
])
def test_a_record_that_lies_about_its_frame_or_result_is_refused(make, change, words):
    d = json.loads(json.dumps(make()))
    change(d)
    with pytest.raises(RecordError, match=f"^game.json: {words}"):
        SecretsRecord.from_json(json.dumps(d), source="game.json")


@pytest.mark.parametrize("text", [b"[" * 100_000 + b"]" * 100_000, b'{"seed": ' + b"9" * 5000 + b"}",
                                  b"\xff\xfe{}", b'{"format": "heimlich-lab-record", "game": "secrets", '
                                                 b'"version": 1, "players": [], "rules": {"markers": {"x": 1}}, '
                                                 b'"log": []}'])
def test_json_that_breaks_the_parser_is_a_record_error(text, tmp_path):
    with pytest.raises(RecordError, match="^bad.json: "):
        SecretsRecord.from_json(text, source="bad.json")
    (tmp_path / "bad.json").write_bytes(text)
    with pytest.raises(RecordError):
        SecretsRecord.load(tmp_path / "bad.json")


def test_the_first_games_records_refuse_unknown_fields_too():
    from heimlich_lab.games.heimlich.rules.records import GameRecord
    from heimlich_lab import Game as HGame
    d = HGame(["Ann", "Bob", "Cy"], seed=1).record.to_dict()
    d["notes"] = "mine"
    with pytest.raises(RecordError, match=r"unknown field\(s\) \['notes'\]"):
        GameRecord.from_json(json.dumps(d))


# ---------------------------------------------------------------- saving never destroys anything
def _records():
    from heimlich_lab import Game as HGame
    return [SecretsRecord.from_dict(FINISHED), HGame(["Ann", "Bob", "Cy"], seed=1).record]


@pytest.mark.parametrize("rec", _records(), ids=["secrets", "heimlich"])
def test_saving_refuses_a_fifo_a_folder_and_a_link_to_a_fifo_and_leaves_them_as_they_were(rec, tmp_path):
    import os
    import stat
    from heimlich_lab.errors import HeimlichError
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "link").symlink_to(fifo)
    (tmp_path / "folder").mkdir()
    for name, words in (("pipe", "not a regular file"), ("link", "not a regular file"), ("folder", "is a folder")):
        with pytest.raises(HeimlichError, match=words):
            rec.save(tmp_path / name)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and (tmp_path / "link").is_symlink()
    assert (tmp_path / "folder").is_dir() and not any((tmp_path / "folder").iterdir())
    assert sorted(os.listdir(tmp_path)) == ["folder", "link", "pipe"]       # no temporary file left


@pytest.mark.parametrize("rec", _records(), ids=["secrets", "heimlich"])
def test_a_failed_save_leaves_the_old_file_intact(rec, tmp_path, monkeypatch):
    import os
    path = tmp_path / "game.json"
    path.write_text("the old record")
    calls = []
    real_replace = os.replace

    def broken_fsync(fd):
        raise OSError("disk full")
    monkeypatch.setattr(os, "fsync", broken_fsync)
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append((a, b)), real_replace(a, b))[1])
    with pytest.raises(OSError, match="disk full"):
        rec.save(path)
    assert path.read_text() == "the old record" and os.listdir(tmp_path) == ["game.json"] and calls == []
    monkeypatch.undo()
    rec.save(path)
    assert type(rec).load(path).to_dict() == rec.to_dict()


# ---------------------------------------------------------------- the command line refuses another game's options
@pytest.mark.parametrize("argv", [
    ["play", "--safe-destination", "other"],               # the first game's options, with their default values
    ["play", "--safe-destination=other"],
    ["play", "--safe-dest", "other"],                      # abbreviated
    ["play", "--draws", "always"],
    ["play", "--draws", "may"],
    ["evaluate", "--beta", "1"],
    ["evaluate", "--epsilon", "0.05"],
    ["evaluate", "--model", "robust"],
])
def test_options_of_another_game_are_an_error_even_with_their_default_value(argv, capsys):
    from heimlich_lab.cli import main
    cmd, *opts = argv
    common = ["--players", "Ann,Bob,Cy,Dee", "--seed", "1"] if cmd == "play" else ["--games", "1", "--players", "4"]
    assert main([cmd, "--game", "secrets", *common, *opts]) == 2
    err = capsys.readouterr().err
    assert "options of Heimlich & Co.; Secrets has none of them" in err and "Traceback" not in err


# ---------------------------------------------------------------- cards from under the deck are chance events
def _under_indices(rec) -> list[int]:
    """Log entries that turn up a card put under the deck (found by following the game in manual chance)."""
    g, out = Game(rec.players, chance="manual", rules=rec.rules), []
    for i, (actor, text) in enumerate(rec.log):
        if g.from_under_deck and text.startswith("reveal "):
            out.append(i)
        g.apply(text, player=actor)
    return out


def _v1(d: dict, under: list[int]) -> dict:
    """The record ``d`` as version 1 wrote it: the cards from under the deck left out of the log."""
    return {**d, "version": 1, "log": [e for i, e in enumerate(d["log"]) if i not in under]}


def test_cards_from_under_the_deck_are_logged_as_certain_chance_events():
    from heimlich_lab.games.secrets.bots import RandomBot
    from heimlich_lab.games.secrets.play import play_game
    g = play_game([RandomBot(i) for i in range(6)], seed=21)
    under = _under_indices(g.record)
    assert len(under) > 3
    m = Game(g.players, chance="manual", seed=g.seed)
    for i, (actor, act) in enumerate(g.history):
        if i in under:
            assert m.is_chance_node and m.from_under_deck
            assert m.chance_outcomes() == [(act, 1.0)]
            with pytest.raises(IllegalAction):          # only the card on top of those put under
                m.apply(next(f"reveal {c}" for c in ("scientist", "assassin") if c != act.args[0]))
        m.apply(act, player=actor)
    assert m.history == g.history and m.scores == g.scores


@pytest.mark.parametrize("view", ["full", "public", "player:Cy"])
def test_version_1_records_still_load_and_replay_to_the_same_game(view, tmp_path):
    from heimlich_lab.games.secrets.bots import RandomBot
    from heimlich_lab.games.secrets.play import play
    rec = play([RandomBot(i) for i in range(6)], seed=21)
    new = rec if view == "full" else rec.public() if view == "public" else rec.as_player("Cy")
    under = _under_indices(rec)
    old = _v1(new.to_dict(), under)
    assert len(old["log"]) == len(rec.log) - len(under)
    (tmp_path / "v1.json").write_text(json.dumps(old))
    got = SecretsRecord.load(tmp_path / "v1.json")
    assert got.to_dict() == new.to_dict()                # migrated: the version-2 record, chance events and all
    if view == "full":
        assert got.replay().history == rec.replay().history
        from heimlich_lab.cli import main
        assert main(["replay", str(tmp_path / "v1.json"), "--as", "Cy"]) == 0     # the command line reads it too


def test_a_version_1_record_that_cannot_be_followed_is_a_located_error():
    from heimlich_lab.games.secrets.bots import RandomBot
    from heimlich_lab.games.secrets.play import play
    d = play([RandomBot(i) for i in range(4)], seed=2).public().to_dict()
    d["version"] = 1
    d["log"][3] = ["Ann", "offer spy Bob"]
    with pytest.raises(RecordError, match=r"^v1.json: log entry 3 \('offer spy Bob'\)"):
        SecretsRecord.from_json(json.dumps(d), source="v1.json")
