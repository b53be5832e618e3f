"""Bots out of process (heimlich_lab.sandbox, docs/rules.md#bots-out-of-process): a bot that crashes, hangs,
answers nonsense or eats memory loses its turn and the game goes on; a bot that tries to cheat learns nothing
beyond its player's record.

Each test starts one or two worker processes (a fresh Python each: a few seconds on a busy machine).
"""
from __future__ import annotations

import json
import textwrap
import time

import pytest

from heimlich_lab import Rules
from heimlich_lab.bots import RandomBot
from heimlich_lab.play import play_game
from heimlich_lab.rules.actions import Action
from heimlich_lab.rules.game import CHANCE, Game
from heimlich_lab.sandbox import BotFile, SandboxedBot
from heimlich_lab.games.heimlich.wire import Follower as HeimlichFollower
from heimlich_lab.games.heimlich.wire import message as heimlich_message

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "killpg"), reason="worker processes need Unix")


def bot_file(tmp_path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return str(path)


def play_with(spec: BotFile, seed: int = 5, rules: Rules | None = None):
    bot = spec.make(seed=1)
    try:
        g = play_game(rules or Rules(), {"Ann": bot, "Bob": RandomBot(2)}, seed=seed)
    finally:
        bot.close()
    return g, bot


# ---------------------------------------------------------------------------------------------- the wire


VIEW_FIELDS = ["viewer", "kind", "players", "agents", "rules", "positions", "scores", "safe", "phase",
               "current_player", "active_player", "turn", "die", "points", "triggers", "own_agents", "hand",
               "hand_sizes", "supply_size", "discards", "removed", "dossier_sheet", "dossier_done", "is_over",
               "winners", "owners"]


class _Compare:
    """Plays randomly; at every decision rebuilds the view from the player record sent over the wire and
    compares it with the real one."""

    def __init__(self, seed, differences):
        self.rng, self.follower, self.consumed, self.diff = RandomBot(seed), None, 0, differences

    def choose(self, view, legal):
        header, entries, fields, self.consumed = heimlich_message(view, self.consumed)
        header, entries = json.loads(json.dumps(header)), json.loads(json.dumps(entries))    # as sent
        assert fields is None
        if header is not None:
            self.follower = HeimlichFollower(header)
        self.follower.extend(entries)
        rebuilt = self.follower.view()
        for k in VIEW_FIELDS:
            if getattr(rebuilt, k) != getattr(view, k):
                self.diff.append(k)
        if [(e.kind, e.data, e.hidden) for e in rebuilt.log] != [(e.kind, e.data, e.hidden) for e in view.log]:
            self.diff.append("log")
        if self.follower.shadow.game.legal_actions() != tuple(legal):
            self.diff.append("legal_actions")
        return self.rng.choose(view, legal)


@pytest.mark.parametrize("rules", [Rules(), Rules(top_secret=True, dossier=True),
                                   Rules(top_secret=True, second_agent="drawn", draws="always")],
                         ids=["basic", "both", "drawn"])
def test_a_view_rebuilt_from_the_player_record_equals_the_real_one(rules):
    diff = []
    for seed in range(2):
        play_game(rules, {p: _Compare(seed * 10 + i, diff) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=seed)
    assert diff == []


def test_the_header_sent_is_a_valid_player_record_with_no_secret_of_others():
    from heimlich_lab.rules.records import GameRecord
    g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), seed=2)
    header, entries, _, _ = heimlich_message(g.view("Bob"))
    rec = GameRecord.from_dict({**header, "log": entries})
    assert rec.view == "player:Bob" and rec.seed is None and rec.deal == {"Bob": g.owners["Bob"][0]}
    assert [e.to_list() for e in rec.log] == [e.to_list() for e in g.record.as_player("Bob").log]


# ---------------------------------------------------------------------------------------------- honest bots


def test_an_honest_bot_file_plays_a_whole_game_out_of_process_without_faults(tmp_path):
    path = bot_file(tmp_path, "honest", """
        class Bot:
            def __init__(self, seed=None):
                import random
                self.rng = random.Random(seed)

            def choose(self, view, legal_actions):
                assert view.viewer == "Ann" and view.own_agents
                return self.rng.choice(legal_actions)
        """)
    g, bot = play_with(BotFile(path, time_limit=30), rules=Rules(top_secret=True))
    assert g.is_over and bot.faults == []
    # the same bot in process plays the same game: the worker's view and seed are the in-process ones
    again = play_game(Rules(top_secret=True), {"Ann": BotFile(path, sandbox=False).make(seed=1),
                                               "Bob": RandomBot(2)}, seed=5)
    assert again.history == g.history


def test_a_bot_file_that_breaks_the_contract_is_refused_before_any_game(tmp_path):
    from heimlich_lab.errors import HeimlichError
    path = bot_file(tmp_path, "nothing", "X = 1\n")
    with pytest.raises(HeimlichError, match="class Bot.*choose"):
        BotFile(path).check()
    with pytest.raises(HeimlichError, match="Python file"):
        BotFile(str(tmp_path / "missing.py"))


# ---------------------------------------------------------------------------------------------- faults


def test_a_bot_that_crashes_loses_that_turn_and_the_game_goes_on(tmp_path):
    path = bot_file(tmp_path, "crashy", """
        import os
        CALLS = [0]

        def choose(view, legal_actions):
            CALLS[0] += 1
            if CALLS[0] == 2:
                return 1 / 0                    # the bot raises: its process lives on
            if CALLS[0] == 4:
                os._exit(3)                     # its process dies: a new one takes the next decision
            return legal_actions[-1]
        """)
    g, bot = play_with(BotFile(path, time_limit=30, max_faults=100))
    assert g.is_over
    kinds = [(f.decision, f.kind) for f in bot.faults]
    # decision 1 raised; decision 3 killed the process; the new process counts from 1 again, so every
    # fourth decision after it dies too, and the second call of each new process raises
    assert kinds[:2] == [(1, "crash"), (3, "crash")]
    assert "ZeroDivisionError" in bot.faults[0].message and "exited (status 3)" in bot.faults[1].message
    # the fallback took those turns: the first legal action, where the bot plays the last one
    ann = [a for actor, a in g.history if actor == "Ann"]
    assert len(ann) > 4


def test_a_bot_that_hangs_loses_the_turn_and_after_max_faults_the_rest_of_the_game(tmp_path):
    path = bot_file(tmp_path, "hangs", """
        import time

        def choose(view, legal_actions):
            if view.turn >= 2:
                while True:
                    time.sleep(0.01)
            return legal_actions[0]
        """)
    g, bot = play_with(BotFile(path, time_limit=0.5, max_faults=2))
    assert g.is_over
    assert [f.kind for f in bot.faults] == ["timeout", "timeout"]      # then it is not asked again


def test_illegal_and_malformed_answers_are_faults_and_the_fallback_plays(tmp_path):
    path = bot_file(tmp_path, "liar", """
        N = [0]

        def choose(view, legal_actions):
            N[0] += 1
            return {1: "fly to the moon", 2: "safe 3", 3: 12345, 4: "move red+1 " * 100000,
                    5: None}.get(N[0], legal_actions[0])
        """)
    g, bot = play_with(BotFile(path, time_limit=30, max_faults=10))
    assert g.is_over
    assert [f.kind for f in bot.faults] == ["illegal", "illegal", "answer", "answer", "answer"]
    assert "not an action" in bot.faults[0].message and "not a legal action" in bot.faults[1].message


def test_a_bot_that_eats_memory_is_stopped_by_its_limit(tmp_path):
    path = bot_file(tmp_path, "glutton", """
        HOARD = []

        def choose(view, legal_actions):
            if view.turn == 1:
                while True:
                    HOARD.append(bytearray(8 * 2**20))
            return legal_actions[0]
        """)
    g, bot = play_with(BotFile(path, time_limit=60, memory_mb=64, max_faults=5))
    assert g.is_over
    assert bot.faults and {f.kind for f in bot.faults} == {"memory"}


# ---------------------------------------------------------------------------------------------- cheating

CHEAT = """
    import gc, json, sys

    def _game_like(o):
        return type(o).__name__ == "Game" and hasattr(o, "owners")

    def _walk(root, depth=5):
        seen, todo, out = set(), [(root, 0)], []
        while todo:
            o, d = todo.pop()
            if id(o) in seen or d > depth:
                continue
            seen.add(id(o))
            if _game_like(o):
                out.append(o)
            kids = []
            for name in getattr(type(o), "__slots__", ()) if not isinstance(o, (str, bytes)) else ():
                try:
                    kids.append(getattr(o, name))
                except Exception:
                    pass
            kids += list(getattr(o, "__dict__", {}).values())
            if isinstance(o, dict):
                kids += list(o.values())
            elif isinstance(o, (list, tuple, set)):
                kids += list(o)
            todo += [(k, d + 1) for k in kids]
        return out

    def findings(view):
        games = [o for o in gc.get_objects() if _game_like(o)]
        games += [o for r in gc.get_referrers(view) for o in _walk(r, 2)]
        f = sys._getframe()
        while f is not None:
            games += [v for v in f.f_locals.values() if _game_like(v)]
            f = f.f_back
        games += _walk(view)
        owners = sorted({json.dumps(g.owners, sort_keys=True, default=repr) for g in games})
        deals = sorted({json.dumps(o, sort_keys=True, default=repr) for o in gc.get_objects()
                        if isinstance(o, dict) and "deal" in o and isinstance(o.get("deal"), dict)})
        return {"owners": owners, "deals": deals}

    CALLS = [0]

    def choose(view, legal_actions):
        CALLS[0] += 1
        print(f"CHEAT {CALLS[0]} " + json.dumps(findings(view), sort_keys=True), file=sys.stderr, flush=True)
        return legal_actions[0]
"""


def _twin_game(deal: dict, bot, decisions: int) -> list:
    """A basic game with the deal given and the same rolls, Ann played by ``bot``, the others by the first legal
    action: two deals that agree on Ann's card give two games with the same public history."""
    g = Game(["Ann", "Bob", "Cy"], chance="manual")
    g.apply(Action("deal", tuple(deal.items())), player=CHANCE)
    rolls = iter(["4", "2", "6", "3", "5", "2", "4", "6", "3", "5"] * 10)
    seen = []
    while len(seen) < decisions:
        if g.is_chance_node:
            g.apply(Action.roll(next(rolls)), player=CHANCE)
        elif g.current_player == "Ann":
            g.apply(bot.choose(g.view("Ann"), g.legal_actions()))
            seen.append(_last_finding(bot))
        else:
            g.apply(g.legal_actions()[0])
    return seen


def _last_finding(bot):
    if not isinstance(bot, SandboxedBot):
        return bot.last
    want = getattr(bot, "_calls", 0) + 1
    for _ in range(600):        # the bot's standard error is read by a thread: wait for the line to arrive
        for line in bot.stderr_tail(40).split(" | "):
            if line.startswith(f"CHEAT {want} "):
                bot._calls = want
                return json.loads(line.split(" ", 2)[2])
        time.sleep(0.05)
    raise AssertionError("the cheating bot printed nothing: " + bot.stderr_tail(10))


class _InProcessCheat:
    """The same cheat, run in this process (trusted code): it does find the game."""

    def __init__(self, source):
        ns = {}
        exec(textwrap.dedent(source), ns)
        self.findings, self.last = ns["findings"], None

    def choose(self, view, legal):
        self.last = self.findings(view)
        return legal[0]


def test_a_cheating_bot_learns_nothing_out_of_process_and_everything_in_process(tmp_path):
    # two games that differ only in what Ann may not know: Bob's and Cy's cards
    a = {"Ann": "red", "Bob": "green", "Cy": "blue"}
    b = {"Ann": "red", "Bob": "blue", "Cy": "orange"}
    # in process, the tricks work: gc, frames and the view's referrers reach the real game and its owners
    found_a, found_b = _twin_game(a, _InProcessCheat(CHEAT), 4), _twin_game(b, _InProcessCheat(CHEAT), 4)
    assert found_a != found_b
    assert any('"Bob": ["green"]' in o for o in found_a[0]["owners"])
    # out of process, the same tricks find only what Ann's record holds: the same in both games
    path = bot_file(tmp_path, "cheat", CHEAT)
    bot = BotFile(path, time_limit=60).make(seed=0)
    try:
        out_a = _twin_game(a, bot, 4)
        out_b = _twin_game(b, bot, 4)
    finally:
        bot.close()
    assert bot.faults == []
    assert out_a == out_b
    assert out_a[0]["owners"], "the cheat found no game at all: it did not run"     # it found the shadow game
    assert not any('"Bob": ["green"]' in o for o in out_a[-1]["owners"])
    assert not any('"Bob": ["blue"]' in o for o in out_b[-1]["owners"])
    assert all('"Bob"' not in d for d in out_a[-1]["deals"] + out_b[-1]["deals"])


# ---------------------------------------------------------------------------------------------- what else a worker cannot do

PROBE = """
    import json, os, socket, sys

    def attempt(fn):
        try:
            fn()
            return "done"
        except BaseException as e:
            return type(e).__name__

    def _read(path):
        with open(path, "rb") as f:
            f.read(10)

    def _write(path):
        with open(path, "w") as f:
            f.write("x" * 10)

    def _connect():
        s = socket.socket()
        s.settimeout(1)
        s.connect(("127.0.0.1", PORT))

    def choose(view, legal_actions):
        report = {"secret": attempt(lambda: _read(SECRET)), "write": attempt(lambda: _write(WRITE)),
                  "parent_environ": attempt(lambda: _read(f"/proc/{os.getppid()}/environ")),
                  "parent_mem": attempt(lambda: _read(f"/proc/{os.getppid()}/mem")),
                  "connect": attempt(_connect), "environment": sorted(os.environ)}
        print("PROBE " + json.dumps(report), file=sys.stderr, flush=True)
        return legal_actions[0]
"""


def _probe(tmp_path, confine: bool) -> dict:
    import socket
    secret = tmp_path / "results.csv"
    secret.write_text("root_seed\n7\n")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    source = PROBE.replace("SECRET", repr(str(secret))).replace("WRITE", repr(str(tmp_path / "out.txt"))).replace(
        "PORT", str(server.getsockname()[1]))
    (tmp_path / "bots").mkdir()
    bot = BotFile(bot_file(tmp_path / "bots", "probe", source), time_limit=60, confine=confine).make(seed=0)
    try:
        g = Game(["Ann", "Bob"], seed=1)
        bot.choose(g.view("Ann"), g.legal_actions())
        for _ in range(600):
            line = next((x for x in bot.stderr_tail(20).split(" | ") if x.startswith("PROBE ")), None)
            if line:
                return json.loads(line[len("PROBE "):])
            time.sleep(0.05)
        raise AssertionError("the probe printed nothing: " + bot.stderr_tail(10))
    finally:
        bot.close()
        server.close()
        assert not (tmp_path / "out.txt").exists() or (tmp_path / "out.txt").read_text() == ""


def test_a_worker_writes_no_file_and_inherits_no_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("HEIMLICH_DASK_SCHEDULER", "tcp://secret:8786")
    report = _probe(tmp_path, confine=False)
    assert report["write"] != "done"
    assert "HEIMLICH_DASK_SCHEDULER" not in report["environment"]


@pytest.mark.skipif(__import__("heimlich_lab.sandbox.confine", fromlist=["x"]).abi_version() < 6,
                    reason="Landlock (Linux 6.7+, ABI 6) is not available on this machine")
def test_with_landlock_a_worker_reads_no_other_file_no_parent_memory_and_opens_no_connection(tmp_path):
    report = _probe(tmp_path, confine=True)
    assert {k: v for k, v in report.items() if k != "environment"} == {
        "secret": "PermissionError", "write": "PermissionError", "parent_environ": "PermissionError",
        "parent_mem": "PermissionError", "connect": "PermissionError"}


# ---------------------------------------------------------------------------------------------- the command line


def test_tournament_bot_file_runs_out_of_process_and_reports_faults(tmp_path, capsys):
    from heimlich_lab.analysis.storage import load_results
    from heimlich_lab.cli import main
    path = bot_file(tmp_path, "wobbly", """
        def choose(view, legal_actions):
            if view.turn >= 3:
                raise RuntimeError("oops")
            return legal_actions[-1]
        """)
    out = tmp_path / "results.csv"
    assert main(["tournament", "--bot-file", path, "--games", "2", "--seed", "1", "--no-progress",
                 "--decision-time", "30", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "2 games" in text and "crash at decision" in text and "RuntimeError: oops" in text
    df = load_results(out)
    assert set(df["bot"]) == {"wobbly", "random"}       # the default line-up: rotate:FILES,random
    assert (df.loc[df["bot"] == "wobbly", "bot_faults"] == 3).all()     # then it is not asked again
    assert (df.loc[df["bot"] == "random", "bot_faults"] == 0).all()


def test_tournament_refuses_a_bot_file_that_breaks_the_contract_before_any_game(tmp_path, capsys):
    from heimlich_lab.cli import main
    path = bot_file(tmp_path, "broken", "def choose(:\n")
    assert main(["tournament", "--bot-file", path, "--games", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "SyntaxError" in err and "games" not in capsys.readouterr().out
    assert main(["tournament", "--bot-file", f"random={path}", "--no-progress"]) == 2
    assert "taken" in capsys.readouterr().err


def test_a_bot_that_stops_its_worker_reading_cannot_block_the_game(tmp_path):
    # the bot sabotages its own worker: the protocol's input is closed under it (the worker then exits), or
    # never read again; either way the next questions must not hang the game's process
    path = bot_file(tmp_path, "saboteur", """
        import os, threading, time

        def choose(view, legal_actions):
            if view.turn >= 2:
                os.close(0)
                for fd in range(3, 20):
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            return legal_actions[0]
        """)
    g, bot = play_with(BotFile(path, time_limit=2, max_faults=2))
    assert g.is_over and 1 <= len(bot.faults) <= 2


# ---------------------------------------------------------------------------------------------- Secrets


def test_a_secrets_view_rebuilt_from_what_is_sent_equals_the_real_one():
    from heimlich_lab.games.secrets.wire import Follower as SecretsFollower
    from heimlich_lab.games.secrets.wire import message as secrets_message
    from heimlich_lab.secrets.bots import make_bot as secrets_bot
    from heimlich_lab.secrets.play import play_game as play_secrets
    diff = []

    class Compare:
        def __init__(self, bot):
            self.bot, self.follower, self.consumed = bot, None, 0

        def choose(self, view, legal):
            header, events, fields, self.consumed = secrets_message(view, self.consumed)
            header, events, fields = (json.loads(json.dumps(x)) for x in (header, events, fields))     # as sent
            if header is not None:
                self.follower = SecretsFollower(header)
            self.follower.extend(events, fields)
            rebuilt = self.follower.view()
            if rebuilt != view or rebuilt.known_markers != view.known_markers:
                diff.append(view.turn)
            return self.bot.choose(view, legal)

    for seed, n in ((1, 4), (2, 6), (3, 8)):
        names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:n]
        play_secrets({p: Compare(secrets_bot(("random", "team", "bluff")[i % 3], seed=i))
                      for i, p in enumerate(names)}, seed=seed)
    assert diff == []


def _secrets_twin(deal: str) -> list:
    """A Secrets game with this deal, the same chance outcomes and every player taking the first legal action:
    Ann's view and what would be sent for it, at each of her decisions."""
    from heimlich_lab.games.secrets.wire import message as secrets_message
    from heimlich_lab.secrets.game import Game as SecretsGame
    g = SecretsGame(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    g.apply(deal)
    out, consumed = [], 0
    while not g.is_over:
        if g.is_chance_node:
            g.apply(g.chance_outcomes()[0][0])
            continue
        if g.current_player == "Ann":
            view = g.view("Ann")
            header, events, fields, consumed = secrets_message(view, consumed)
            out.append((view, json.dumps([header, events, fields], sort_keys=True)))
        g.apply(g.legal_actions()[0])
    return out


def test_what_is_sent_for_a_secrets_view_depends_only_on_what_the_view_shows():
    # two deals that differ in markers Ann does not see at first (she learns some of them later, by the rules)
    a = _secrets_twin("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
    b = _secrets_twin("deal Ann=CIA Bob=Hippie Cy=KGB Dee=CIA middle=KGB")
    same = [va == vb for (va, _), (vb, _) in zip(a, b)]
    assert same[0] and not all(same)        # both cases happen: equal views, then a look shows a difference
    first = same.index(False)
    assert [ma for _, ma in a[:first]] == [mb for _, mb in b[:first]]


SECRETS_CHEAT = """
    import gc, sys

    def choose(view, legal_actions):
        games = [o for o in gc.get_objects() if type(o).__name__ == "Game" and hasattr(o, "identities")]
        f, framed = sys._getframe(), 0
        while f is not None:
            framed += sum(type(v).__name__ == "Game" for v in f.f_locals.values())
            f = f.f_back
        print(f"CHEAT games={len(games)} framed={framed}", file=sys.stderr, flush=True)
        return legal_actions[0]
"""


def test_a_secrets_bot_runs_out_of_process_and_finds_no_game_there(tmp_path):
    from heimlich_lab.secrets.bots import RandomBot as SecretsRandom
    from heimlich_lab.secrets.play import play_game as play_secrets
    path = bot_file(tmp_path, "secret_cheat", SECRETS_CHEAT)
    bot = BotFile(path, time_limit=60, game="secrets").make(seed=0)
    try:
        g = play_secrets({"Ann": bot, **{p: SecretsRandom(i) for i, p in enumerate(["Bob", "Cy", "Dee", "Eve"])}},
                         seed=4)
        lines = []
        for _ in range(600):
            lines = [x for x in bot.stderr_tail(40).split(" | ") if x.startswith("CHEAT ")]
            if lines:
                break
            time.sleep(0.05)
    finally:
        bot.close()
    assert g.is_over and bot.faults == []
    assert lines and all(x == "CHEAT games=0 framed=0" for x in lines)
    # the same code in process finds the game
    ns = {}
    exec(textwrap.dedent(SECRETS_CHEAT).replace("print(", "ns_out.append(").replace(", file=sys.stderr, flush=True)",
                                                                                    ")"), ns)
    ns["ns_out"] = []
    play_secrets({"Ann": type("B", (), {"choose": staticmethod(ns["choose"])})(),
                  **{p: SecretsRandom(i) for i, p in enumerate(["Bob", "Cy", "Dee", "Eve"])}}, seed=4)
    assert any(not x.startswith("CHEAT games=0") for x in ns["ns_out"])


def test_tournament_secrets_bot_file(tmp_path, capsys):
    from heimlich_lab.cli import main
    path = bot_file(tmp_path, "agent", """
        def choose(view, legal_actions, rng):
            return rng.choice(legal_actions)
        """)
    assert main(["tournament", "--game", "secrets", "--players", "4", "--bot-file", path, "--games", "2",
                 "--seed", "3", "--no-progress", "--decision-time", "30"]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out and "agent" in out and "crash" not in out


def test_a_bot_that_writes_garbage_on_the_protocol_loses_the_turn_and_its_worker(tmp_path):
    # the bot finds the worker's answer pipe and writes a line that is not an answer, then a very long one
    path = bot_file(tmp_path, "forger", """
        import os

        def choose(view, legal_actions):
            if view.turn in (3, 5):
                junk = b"this is not JSON\\n" if view.turn == 3 else b"x" * 200000
                for fd in range(3, 12):
                    try:
                        os.write(fd, junk)
                    except OSError:
                        pass
            return legal_actions[0]
        """)
    g, bot = play_with(BotFile(path, time_limit=30, max_faults=10))
    assert g.is_over and bot.faults and {f.kind for f in bot.faults} == {"answer"}
    assert any("not JSON" in f.message for f in bot.faults)
    assert any("without ending the line" in f.message for f in bot.faults)
