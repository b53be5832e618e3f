"""Fuzzing Secrets as the first game is fuzzed (tests/test_rules_fuzz.py, tests/test_cli_hardening.py): a record
changed anywhere (full, public or a player's) loads truthfully or gives a located RecordError, never another
exception; hand-built actions with junk arguments are legal or refused cleanly; and the command line with
``--game secrets`` and fuzzed arguments ends in a status and a short message, never a traceback."""
from __future__ import annotations

import copy
import json
import os
import stat
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from heimlich_lab.errors import HeimlichError, RecordError
from heimlich_lab.games.secrets import Game
from heimlich_lab.games.secrets.bots import RandomBot
from heimlich_lab.games.secrets.play import play
from heimlich_lab.games.secrets.records import SecretsRecord

FULL = play([RandomBot(i) for i in range(5)], seed=3)
RECORDS = {"full": FULL.to_dict(), "public": FULL.public().to_dict(), "player": FULL.as_player("Cy").to_dict()}


def _paths(d, prefix=()):
    """Every place in a JSON value: (path, value)."""
    yield prefix, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, prefix + (i,))


PLACES = sorted({p for d in RECORDS.values() for p, _ in _paths(d) if p and p[0] != "log"}, key=repr) + [
    ("log", i) for i in range(0, len(FULL.log), 5)] + [("log", i, 1) for i in range(0, len(FULL.log), 3)]
atoms = st.one_of(st.integers(-5, 12), st.booleans(), st.none(), st.floats(allow_nan=False, width=16),
                  st.sampled_from(["Ann", "Bob", "middle", "CIA", "KGB", "Hippie", "?", "chance", "deal ?",
                                   "bullet -2", "bullet ?", "offer ? Bob", "offer assassin Bob", "reveal spy",
                                   "look middle", "side left", "swap Ann Bob", "accept", "", "secrets",
                                   "heimlich-lab-record", "player:Ann", "public", "full"]))
junk = st.recursive(atoms, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["Ann", "4", "x", "winners"]), inner, max_size=2), max_leaves=5)
values = st.one_of(junk, st.integers(-10**40, 10**40))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(sorted(RECORDS)),
       changes=st.lists(st.tuples(st.sampled_from(PLACES), values), min_size=1, max_size=3),
       extra=st.sampled_from([None, "comment", "version"]))
@example(which="public", changes=[(("log", 0, 1), "deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA Eve=KGB middle=CIA")],
         extra=None)
@example(which="full", changes=[(("result",), None)], extra=None)
@example(which="full", changes=[(("rules", "markers"), {"4": [2, 2, 1]})], extra="version")
def test_mutated_records_load_truthfully_or_give_a_located_error(which, changes, extra):
    d = copy.deepcopy(RECORDS[which])
    for path, value in changes:
        node = d
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    if extra == "comment":
        d["comment"] = "added"
    elif extra == "version":
        d["version"] = 1.0
    try:
        text = json.dumps(d)
    except (TypeError, ValueError):
        return
    try:
        rec = SecretsRecord.from_json(text, source="fuzz.json")
    except RecordError as e:
        assert str(e).startswith("fuzz.json: ") and len(str(e)) < 2000
        return
    assert extra is None
    again = SecretsRecord.from_json(rec.to_json())       # what loads, saves and loads again the same
    assert again.to_dict() == rec.to_dict()
    if rec.is_full:
        game = rec.replay()
        assert rec.result == SecretsRecord.from_game(game).result
        assert rec.to_dict()["log"] == SecretsRecord.from_game(game).to_dict()["log"]
    else:   # a redacted record holds no secret but its viewer's
        keep = rec.view[7:] if rec.view.startswith("player:") else None
        full = SecretsRecord(rec.players, rec.rules, None, rec.chance, rec.log, rec.result)
        assert not any(full._is_secret(i, keep) for i in range(len(rec.log)))


# ---------------------------------------------------------------- hand-built actions
def _games():
    out = {}
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"], seed=5)
    bot = RandomBot(1)
    while not g.is_over and len(out) < 12:
        out.setdefault(g.phase, g.copy())
        g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
    out.setdefault(g.phase, g.copy())
    m = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual", seed=1)
    out["manual-deal"] = m.copy()
    return list(out.values())


GAMES = _games()
KINDS = ["deal", "reveal", "offer", "allow", "interrupt", "accept", "refuse", "give", "swap", "side", "look",
         "bullet", "shoot", "jump"]
args = st.lists(st.one_of(atoms, st.tuples(atoms, atoms)), max_size=6).map(tuple)


def snapshot(g: Game):
    return copy.deepcopy((g.phase, g.current_player, g.identities, g.tableaux, g.bullets, list(g.history),
                          len(g.events), g.deck_size))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(GAMES) - 1), kind=st.sampled_from(KINDS), a=args)
def test_junk_actions_are_legal_or_refused_cleanly(i, kind, a):
    g = GAMES[i].copy()
    legal = g.legal_actions()
    before = snapshot(g)
    act = Game.Action(kind, a)
    try:
        g.apply(act)
    except HeimlichError as e:
        assert isinstance(e, ValueError)
        assert snapshot(g) == before
        return
    assert act in legal and all(type(x) is type(y) for x, y in zip(act.args, legal[legal.index(act)].args))


# ---------------------------------------------------------------- the command line
_PATHS = ["/dev/zero", "/dev/null", "/dev/stdout", "", ".", "/no/such/dir/x.json", "deep.json", "fifo.json",
          "ok.json", "pub.json", "x.csv", "r\x00.json"]
_VALUES = st.one_of(st.sampled_from(["0", "1", "-1", "4", "9", "inf", "nan", "1e400", "999999999", "٣",
                                     "Ann,Bob,Cy,Dee", "Ann,Ann,Cy,Dee", "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal,Ivy",
                                     "middle,Bob,Cy,Dee", "random", "team", "bluff", "greedy", "rotate:team,random",
                                     "basic", "double_agent=-1", "omniscient", "Ann", "other", "always", "x" * 500]),
                    st.sampled_from(_PATHS), st.text(max_size=20))
_FLAGS = {"play": ["--players", "--seed", "--bots", "--out", "--as", "--draws", "--safe-destination", "--top-secret"],
          "replay": ["--as"],
          "tournament": ["--players", "--variants", "--bots", "--seed", "--out", "--by", "--decision-time"],
          "evaluate": ["--seed", "--players", "--bots", "--beta", "--out"]}
_SWITCHES = {"--top-secret"}


def run(capsys, argv):
    from heimlich_lab.cli import main
    try:
        code = main(argv)
    except SystemExit as e:     # argparse's own exits
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@st.composite
def argvs(draw):
    command = draw(st.sampled_from(sorted(_FLAGS)))
    argv = [command]
    if command == "replay":
        argv.append(draw(st.sampled_from(_PATHS)))
    else:
        argv += ["--game", "secrets"]
    for flag in draw(st.lists(st.sampled_from(_FLAGS[command]), max_size=4)):
        argv += [flag] if flag in _SWITCHES else [flag, draw(_VALUES)]
    if command == "tournament":      # keep the work small when the arguments are all valid
        argv += ["--games", draw(st.sampled_from(["0", "1", "x", "-2", "999999999"])), "--no-progress"]
    if command == "evaluate":        # only its argument checks: an evaluation takes long
        argv += ["--games", draw(st.sampled_from(["0", "x", "-2"]))]
    return argv


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=argvs())
@example(argv=["play", "--game", "secrets", "--safe-destination", "other"])
@example(argv=["replay", "pub.json"])
@example(argv=["replay", "r\x00.json"])
def test_fuzzed_secrets_arguments_end_in_a_status_and_a_short_message(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if not Path("deep.json").exists():
        Path("deep.json").write_text("[" * 100_000 + "]" * 100_000)
        Path("ok.json").write_text("{}")
        Path("pub.json").write_text(FULL.public().to_json())
        os.mkfifo("fifo.json")
    before = os.stat("/dev/null")
    code, out, err = run(capsys, argv)
    assert code in (0, 2), (argv, code, err[-500:])
    assert len(err) < 3000, argv
    if code == 2:
        assert "Traceback" not in err and ("error" in err or "usage" in err)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert stat.S_ISFIFO(os.stat("fifo.json").st_mode)
