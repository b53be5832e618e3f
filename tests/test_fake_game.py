"""A third game, registered here and nowhere else, plays through every shared layer unchanged (issue 22): the
commands ``play``, ``replay``, ``tournament``, ``evaluate`` and the analysis layer take it from the registry.

The game, *Parity*: chance gives every player a coin, heads or tails, that only its owner sees; then each
player in turn guesses whether the number of heads is odd or even; those who guess right win. It is built the
way docs/architecture.md ("Adding a game") says a game is: an action, a view, a game and a record on the
engine's bases, its rules, a transcript, its tournament table and belief evaluator, and a spec.
"""
from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass

import numpy as np
import pytest

from heimlich_lab.engine.actions import HIDDEN, ActionBase, need
from heimlich_lab.engine.contract import CHANCE, GameProtocol, RecordProtocol, ViewProtocol
from heimlich_lab.engine.game import GameBase
from heimlich_lab.engine.records import RecordBase
from heimlich_lab.engine.registry import GameSpec, TournamentSpec, game_names, register_game, unregister_game
from heimlich_lab.engine.views import Event, ViewBase
from heimlich_lab.errors import HeimlichError, NotationError, RecordError

NAME = "parity"
SIDES = ("H", "T")


# ----------------------------------------------------------------------------------------------- the game
@dataclass(frozen=True)
class ParityRules:
    """No options: the game has one set of rules."""

    def to_dict(self) -> dict:
        return {}

    @classmethod
    def from_dict(cls, d) -> "ParityRules":
        if d:
            raise HeimlichError(f"Parity has no rule options, not {d!r}")
        return cls()


@dataclass(frozen=True, slots=True, repr=False)
class ParityAction(ActionBase):
    CHANCE_KINDS = frozenset({"deal"})

    def __str__(self) -> str:
        if self.kind == "deal":
            return "deal ?" if self.args == (HIDDEN,) else "deal " + " ".join(f"{p}={c}" for p, c in self.args)
        return f"guess {self.args[0]}"

    @classmethod
    def _parse(cls, text, kind, words):
        if kind == "deal":
            if words == [HIDDEN]:
                return cls("deal", (HIDDEN,))
            pairs = tuple(tuple(w.split("=")) for w in words)
            if not pairs or any(len(p) != 2 or p[1] not in SIDES for p in pairs):
                raise NotationError(f"{text!r}: a deal is PLAYER=H or PLAYER=T for every player")
            return cls("deal", pairs)
        if kind == "guess":
            need(text, kind, words, 1)
            if words[0] not in ("odd", "even"):
                raise NotationError(f"{text!r}: guess odd or guess even")
            return cls("guess", (words[0],))
        raise NotationError(f"{text!r}: unknown action {kind!r}; actions are deal, guess")


class ParityView(ViewBase):
    __slots__ = ("coin", "guesses", "_log")
    REPR_NAME = "Parity view"

    @classmethod
    def _of(cls, game, player, omniscient=False):
        v = object.__new__(cls)
        v.viewer, v.players, v.rules, v.phase = player, game.players, game.rules, game.phase
        v.kind = "omniscient" if omniscient else ("spectator" if player is None else "player")
        v.current_player, v.active_player, v.turn = game.current_player, game.active_player, game.turn
        v.is_over, v.winners = game.is_over, game.winners
        v.coin = game._coins.get(player)
        v.guesses = dict(game._guesses)
        seen = [owner is None or owner == player or omniscient for _, owner, _ in game._events]
        v._log = [Event(k, {f: (x if ok or f != "coin" else None) for f, x in d.items()}, hidden=not ok)
                  for (k, _, d), ok in zip(game._events, seen)]
        return v

    @property
    def log(self) -> list[Event]:
        return list(self._log)


class ParityGame(GameBase):
    TITLE = "Parity"
    REPR_NAME = "Parity game"
    Action = ParityAction
    View = ParityView
    CHANCE_KINDS = ParityAction.CHANCE_KINDS

    def __init__(self, players, seed=None, chance="auto", rules=None):
        self._set_up(players, rules, ParityRules, seed, chance)
        self._coins: dict[str, str] = {}
        self._guesses: dict[str, str] = {}
        self._events: list[tuple] = []
        self._phase, self._active, self._turn, self._winners = "deal", 0, 1, None
        self._advance()

    def _check_player_count(self, n):
        if not 2 <= n <= 5:
            raise HeimlichError(f"Parity is for 2 to 5 players, not {n}")

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def scores(self) -> dict[str, int]:
        return {p: int(self._winners is not None and p in self._winners) for p in self.players}

    def chance_outcomes(self):
        acts = self.legal_actions() if self._phase == "deal" else ()
        return [(a, 1 / len(acts)) for a in acts]

    def _to_act(self):
        return None if self._phase == "over" else CHANCE if self._phase == "deal" else self._active

    def _compute_legal(self):
        if self._phase == "deal":
            n = len(self.players)
            rows = [[SIDES[(k >> i) & 1] for i in range(n)] for k in range(2 ** n)]
            return tuple(ParityAction("deal", tuple(zip(self.players, r))) for r in rows)
        if self._phase == "guess":
            return (ParityAction("guess", ("odd",)), ParityAction("guess", ("even",)))
        return ()

    def _do(self, act, actor):
        if act.kind == "deal":
            self._coins = dict(act.args)
            for p, c in act.args:
                self._events.append(("coin", p, {"player": p, "coin": c}))
            self._phase = "guess"
            return
        p = self.players[actor]
        self._guesses[p] = act.args[0]
        self._events.append(("guess", None, {"player": p, "guess": act.args[0]}))
        if len(self._guesses) < len(self.players):
            self._active += 1
            self._turn += 1
            return
        heads = sum(c == "H" for c in self._coins.values())
        truth = "odd" if heads % 2 else "even"
        self._winners = tuple(p for p in self.players if self._guesses[p] == truth)
        self._phase = "over"
        self._events.append(("over", None, {"coins": dict(self._coins), "winners": list(self._winners)}))

    def _advance(self):
        if self.chance == "auto" and self._phase == "deal":
            act = ParityAction("deal", tuple((p, self._rng.choice(SIDES)) for p in self.players))
            self._log(CHANCE, act)
            self._do(act, CHANCE)

    @classmethod
    def _record_class(cls):
        return ParityRecord


@dataclass
class ParityRecord(RecordBase):
    players: tuple
    rules: ParityRules
    seed: int | None
    chance: str
    log: list
    result: dict | None = None
    view: str = "full"

    TITLE = "Parity"
    GAME_TAG = NAME

    @classmethod
    def from_game(cls, game):
        result = None if not game.is_over else {"winners": list(game.winners)}
        return cls(game.players, game.rules, game.seed, game.chance, [(a, str(x)) for a, x in game.history], result)

    def _redacted(self, keep):
        log = [(a, "deal ?" if t.startswith("deal") else t) for a, t in self.log]
        return ParityRecord(self.players, self.rules, None, self.chance, log, self.result,
                            view=f"player:{keep}" if keep else "public")

    def to_dict(self):
        return {"format": "heimlich-lab-record", "game": NAME, "version": self.VERSION, "view": self.view,
                "players": list(self.players), "rules": self.rules.to_dict(), "seed": self.seed,
                "chance": self.chance, "log": [list(e) for e in self.log], "result": self.result}

    @classmethod
    def from_dict(cls, d, source="record", check=True):
        players, view, seed, chance = cls._read_header(d, source)
        log = [tuple(e) for e in d["log"]]
        for i, (actor, text) in enumerate(log):
            try:
                ParityAction.parse(text)
            except HeimlichError as e:
                raise RecordError(f"{source}: log entry {i}: {e}") from None
        rec = cls(players, ParityRules.from_dict(d["rules"]), seed, chance, log, d.get("result"), view)
        if check and rec.is_full:
            rec.replay(source=source)
        return rec

    def _new_game(self):
        return ParityGame(self.players, seed=self.seed, chance=self.chance, rules=self.rules)

    def _entries(self):
        return [(a, ParityAction.parse(t), None) for a, t in self.log]

    def _check_result(self, game, source):
        if self.result is not None and self.result != ParityRecord.from_game(game).result:
            raise RecordError(f"{source}: the result does not match the replayed game")


def transcript(source, viewer=None):
    """The game or record in words, as ``viewer`` saw it."""
    game = source.replay() if isinstance(source, ParityRecord) else source
    view = game.omniscient_view() if viewer == "omniscient" else game.view(viewer)
    lines = [f"Parity: {view.label}"]
    for e in view.log:
        if e.kind == "coin":
            lines.append(f"{e.player} gets a coin: {e.coin or 'hidden'}.")
        elif e.kind == "guess":
            lines.append(f"{e.player} guesses {e.guess}.")
        else:
            lines.append(f"Coins {e.coins}; winners: {', '.join(e.winners) or 'nobody'}.")
    return lines


# ------------------------------------------------------------------------------- in a tournament, evaluated
class ParityEvaluator:
    """Each player's belief that the next player's coin is heads (they saw nothing of it: one half), scored."""

    def __call__(self, record) -> dict:
        coins = dict(ParityAction.parse(record.log[0][1]).args)
        players = record.players
        out = {"belief_log_loss": {}, "belief_brier": {}}
        for i, p in enumerate(players):
            truth = float(coins[players[(i + 1) % len(players)]] == "H")
            out["belief_log_loss"][p] = float(-np.log(0.5))
            out["belief_brier"][p] = (0.5 - truth) ** 2
        return out


def table_rows(game, rules, common):
    return [{**common, "game": NAME, "coin": game._coins[p], "guess": game._guesses[p], "won": p in game.winners,
             "shared_win": p in game.winners and len(game.winners) > 1, "n_turns": game.turn,
             "n_actions": len(game.history)} for p in game.players]


def parse_variant(spec):
    if spec in ("basic", {}) or isinstance(spec, ParityRules):
        return "basic", ParityRules()
    raise HeimlichError(f"Parity has one variant, basic, not {spec!r}")


TOURNAMENT = TournamentSpec(
    columns={"game_id": "str", "root_seed": "int", "game_index": "int", "seed": "int", "game": "str",
             "n_players": "int", "variant": "str", "lineup": "str", "seat": "int", "player": "str", "bot": "str",
             "bot_seed": "int", "coin": "str", "guess": "str", "won": "bool", "shared_win": "bool",
             "n_turns": "int", "n_actions": "int"},
    rows=table_rows, parse_variant=parse_variant, evaluators={"beliefs": f"{__name__}:ParityEvaluator"},
    id_prefix=f"{NAME}/", fair_share=False)

SPEC = GameSpec(name=NAME, title="Parity", min_players=2, max_players=5, default_players=3,
                game=f"{__name__}:ParityGame", rules=f"{__name__}:ParityRules", record=f"{__name__}:ParityRecord",
                bots=__name__, transcript=f"{__name__}:transcript", tournament=f"{__name__}:TOURNAMENT")


@pytest.fixture
def parity():
    register_game(SPEC)
    try:
        yield SPEC
    finally:
        unregister_game(NAME)


def cli(*argv: str) -> tuple[int, str]:
    from heimlich_lab.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


# ---------------------------------------------------------------------------------------------- the tests
def test_the_game_keeps_the_contract(parity):
    g = ParityGame(["Ann", "Bob", "Cy"], seed=4)
    assert isinstance(g, GameProtocol) and isinstance(g.view("Ann"), ViewProtocol)
    assert isinstance(g.record, RecordProtocol)
    g.apply("guess odd", player="Ann")
    with pytest.raises(HeimlichError, match="turn-order"):
        g.apply("guess odd", player="Ann")
    with pytest.raises(HeimlichError, match="chance"):
        g.apply("deal Ann=H Bob=H Cy=H")
    rec = ParityRecord.from_json(g.record.to_json())
    assert rec.replay().history == g.history and rec.public().log[0] == ("chance", "deal ?")
    assert "Bob" in g._repr_html_() and "<table" in g.record._repr_html_()


def test_play_and_replay_from_the_command_line(parity, tmp_path):
    assert NAME in game_names()
    code, out = cli("play", "--game", NAME, "--players", "Ann,Bob,Cy", "--seed", "3", "--as", "Ann",
                    "--out", str(tmp_path / "p.json"))
    assert code == 0 and out.startswith("Parity: Ann's view") and "Bob gets a coin: hidden." in out
    assert json.loads((tmp_path / "p.json").read_text())["game"] == NAME
    again = cli("play", "--game", NAME, "--players", "Ann,Bob,Cy", "--seed", "3", "--as", "Ann")[1]
    assert again.splitlines() == out.splitlines()[:-1]     # the same seed, the same game (no "saved" line)
    code, replayed = cli("replay", str(tmp_path / "p.json"), "--as", "omniscient")
    assert code == 0 and replayed.startswith("Parity: Omniscient") and "Bob gets a coin: hidden" not in replayed
    assert cli("play", "--game", NAME, "--players", "Ann,Bob", "--top-secret")[0] == 2     # another game's option


def test_a_tournament_of_the_game_and_its_evaluator(parity):
    from heimlich_lab.analysis import tournament, win_rates
    df = tournament(player_counts=(2, 4), bots="random", games=3, seed=1, game=NAME, evaluate="beliefs",
                    progress=False)
    assert df["game_id"].nunique() == 6 and set(df["game"]) == {NAME}
    assert df["game_id"].iloc[0].startswith(f"1/{NAME}/2p/basic/random/")
    assert list(df.columns[:5]) == ["game_id", "root_seed", "game_index", "seed", "game"]
    assert np.allclose(df["belief_log_loss"], np.log(2)) and set(df["belief_brier"]) == {0.25}
    assert win_rates(df, by="n_players")["games"].tolist() == [6, 12]
    code, out = cli("tournament", "--game", NAME, "--games", "2", "--seed", "1", "--no-progress",
                    "--evaluate", "beliefs")
    assert code == 0 and "2 games, 6 player rows, root seed 1" in out and "belief_brier" in out


def test_evaluate_scores_the_games_beliefs(parity, tmp_path):
    code, out = cli("evaluate", "--game", NAME, "--games", "3", "--players", "3", "--seed", "2",
                    "--out", str(tmp_path / "e.csv"))
    assert code == 0 and out.startswith("Parity beliefs at the end of the game, 3 games of 3 (random), seed 2")
    assert "belief_log_loss" in out and (tmp_path / "e.csv").read_text().startswith("game_id,")


def test_the_sandbox_takes_a_game_from_its_spec(parity, tmp_path):
    """The sandbox knows no game: a game whose spec names no wire codec is refused in words; one that names a
    codec is sent through it (the kit's games: tests/test_sandbox.py)."""
    from heimlich_lab.sandbox import BotFile
    from heimlich_lab.sandbox.wire import codec, wire_games
    path = tmp_path / "bot.py"
    path.write_text("def choose(view, legal_actions):\n    return legal_actions[0]\n")
    assert NAME not in wire_games() and set(wire_games()) == set(game_names()) - {NAME}
    with pytest.raises(HeimlichError, match=f"bots of '{NAME}' cannot run out of process yet"):
        BotFile(str(path), game=NAME)
    assert BotFile(str(path)).game == game_names()[0]
    for name in wire_games():
        assert callable(codec(name).message) and hasattr(codec(name).Follower, "view")


def test_an_unregistered_game_is_gone_again():
    assert NAME not in game_names()
    with pytest.raises(SystemExit) as e:     # argparse: not one of the --game choices
        cli("play", "--game", NAME, "--players", "Ann,Bob")
    assert e.value.code == 2
