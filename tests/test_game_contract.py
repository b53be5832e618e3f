"""The game contract, declared once (issue 22): every registered game keeps it, its shared parts live once (the
``apply()`` skeleton, the record's JSON, saving, loading and replay, the play loop with its ``max_actions``
guard), the shared layers name no game, every game shows itself in a notebook, and the old import paths that
the notebooks, the README and the docs use still work."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from heimlich_lab.engine import registry
from heimlich_lab.engine.actions import ActionBase
from heimlich_lab.engine.contract import ActionProtocol, GameProtocol, RecordProtocol, ViewProtocol
from heimlich_lab.engine.game import GameBase
from heimlich_lab.engine.play import SEAT_NAMES, play_game, seat_names
from heimlich_lab.engine.records import RecordBase
from heimlich_lab.engine.views import ViewBase
from heimlich_lab.errors import HeimlichError

ROOT = Path(__file__).resolve().parents[1]
SPECS = registry.games()


def _game(spec, **kw):
    return spec.load("game")(list(seat_names(spec.min_players)), seed=1, **kw)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_game_keeps_the_contract(spec):
    g = _game(spec)
    assert isinstance(g, GameProtocol) and isinstance(g, GameBase)
    assert isinstance(g.legal_actions()[0], ActionProtocol) and isinstance(g.legal_actions()[0], ActionBase)
    v = g.view(g.players[0])
    assert isinstance(v, ViewProtocol) and isinstance(v, ViewBase) and v.label == f"{g.players[0]}'s view"
    rec = g.record
    assert isinstance(rec, RecordProtocol) and isinstance(rec, RecordBase)
    assert isinstance(rec, spec.load("record")) and isinstance(g.rules, spec.load("rules"))
    a = g.legal_actions()[0]
    assert type(a).parse(str(a)) == a                                      # notation round-trips
    assert type(rec).from_json(rec.to_json()).replay().history == g.history
    assert registry.spec_of_record(json.loads(rec.to_json())) is spec
    with pytest.raises(HeimlichError):
        spec.load("game")(list(seat_names(spec.max_players)) + ["Zed"], seed=1)
    if spec.min_players > 1:
        with pytest.raises(HeimlichError):
            spec.load("game")(list(seat_names(spec.min_players - 1)), seed=1)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_the_shared_parts_live_once(spec):
    game, record, action = spec.load("game"), spec.load("record"), type(_game(spec).legal_actions()[0])
    for name in ("apply", "view", "spectator_view", "omniscient_view", "copy", "legal_actions", "_log"):
        assert getattr(game, name) is getattr(GameBase, name), f"{spec.name}: Game.{name} is not the engine's"
    for name in ("current_player", "is_over", "winners", "record", "turn", "active_player"):
        assert getattr(game, name) is getattr(GameBase, name), f"{spec.name}: Game.{name} is not the engine's"
    for name in ("save", "to_json", "public", "as_player", "replay", "games", "_replay"):
        assert getattr(record, name) is getattr(RecordBase, name), f"{spec.name}: Record.{name} is not the engine's"
    for name in ("load", "from_json", "_read_header"):      # class methods
        assert getattr(record, name).__func__ is getattr(RecordBase, name).__func__, f"{spec.name}: Record.{name}"
    assert action.parse.__func__ is ActionBase.parse.__func__ and action.__repr__ is ActionBase.__repr__
    assert game.View.label is ViewBase.label


def test_the_play_loop_is_one_with_its_guard_for_every_game():
    from heimlich_lab import Rules
    from heimlich_lab import play_game as play_heimlich
    from heimlich_lab import secrets
    from heimlich_lab.bots import RandomBot
    with pytest.raises(HeimlichError, match="did not end within 3 actions"):
        play_heimlich(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=1, max_actions=3)
    with pytest.raises(HeimlichError, match="did not end within 3 actions"):
        secrets.play_game([RandomBot(i) for i in range(4)], seed=1, max_actions=3)
    g = play_game(secrets.Game, [RandomBot(i) for i in range(4)], seed=1)
    assert g.players == SEAT_NAMES[:4] and g.is_over
    assert g.history == secrets.play_game([RandomBot(i) for i in range(4)], seed=1).history
    with pytest.raises(HeimlichError, match="at most 8 players"):
        play_game(secrets.Game, [RandomBot(i) for i in range(9)])


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_game_shows_itself_in_a_notebook(spec):
    g = _game(spec)
    for obj in (g, g.view(g.players[0]), g.omniscient_view(), g.record, g.record.public()):
        html = obj._repr_html_()
        assert html.startswith("<div") and spec.title.split()[0] in html, type(obj)
    assert "<svg" in g._repr_html_() or "<table" in g._repr_html_()


def test_the_registry_refuses_what_is_not_a_game():
    with pytest.raises(HeimlichError, match="unknown game 'chess'; games are heimlich, secrets, topsecret1985"):
        registry.game_spec("chess")
    with pytest.raises(HeimlichError, match="registered already"):
        registry.register_game(registry.GameSpec(**{**registry.game_spec("secrets").__dict__, "title": "Other"}))
    with pytest.raises(HeimlichError, match="one lower-case word"):
        registry.GameSpec(name="Top Secret", title="x", min_players=2, max_players=3, game="a", rules="b",
                          record="c", bots="d")
    with pytest.raises(HeimlichError, match="not a range"):
        registry.GameSpec(name="x", title="x", min_players=3, max_players=2, game="a", rules="b", record="c",
                          bots="d")
    with pytest.raises(HeimlichError, match="unknown game"):
        registry.spec_of_record({"game": "chess"})


#: The shared layers the issue counts string literals naming a game in (at most 2 together), and the sandbox
#: (bots out of process), which takes each game's wire codec from the registry.
COUNTED = ("analysis", "commands", "benchmarks", "widget", "sandbox")
GAME_LITERAL = re.compile(r"[\"'](heimlich|secrets|topsecret1985)[\"']")


def test_the_shared_layers_name_no_game():
    found = [f"{p.relative_to(ROOT)}:{n}: {m.group(0)}" for area in COUNTED
             for p in sorted((ROOT / "heimlich_lab" / area).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in GAME_LITERAL.finditer(line)]
    assert len(found) <= 2, found
    assert GAME_LITERAL.search('x = "secrets"') and not GAME_LITERAL.search("the secrets of the game")


#: Where the kit's users import it from: notebooks, the README, the docs and the examples.
USER_FILES = [*sorted((ROOT / "instructor" / "notebooks").glob("*.ipynb")), *sorted((ROOT / "notebooks").glob("*.ipynb")),
              ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*.py"))]
IMPORT = re.compile(r"^\s*(from heimlich_lab[\w.]* import (?:\([^)]*\)|[\w, ]+)|import heimlich_lab[\w.]*)", re.M)


def _user_imports() -> list[str]:
    found = set()
    for path in USER_FILES:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "code")
        found.update(" ".join(m.group(1).split()) for m in IMPORT.finditer(text))
    return sorted(found)


def test_every_import_the_notebooks_readme_and_docs_use_still_works():
    imports = _user_imports()
    assert "from heimlich_lab import secrets" in imports and len(imports) > 30
    for statement in imports:
        exec(statement, {})      # noqa: S102  an import statement read from the kit's own files


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_game_is_called_with_the_same_keywords(spec):
    """Item 1 of issue 22: ``Game(players, seed=, chance=, rules=)``, ``play(bots=, seed=, rules=)`` and
    ``play_game(bots=, seed=, rules=, max_actions=)`` in every game; a game's older positional order still works."""
    from importlib import import_module
    from heimlich_lab.bots import make_bot
    Game, Rules = spec.load("game"), spec.load("rules")
    players = list(seat_names(spec.min_players))
    g = Game(players, seed=4, chance="manual", rules=Rules())
    assert (g.players, g.seed, g.chance, g.rules) == (tuple(players), 4, "manual", Rules())
    play_module = import_module(f"heimlich_lab.games.{spec.name}.play")
    bots = {p: make_bot("random", seed=i, game=spec.name) for i, p in enumerate(players)}
    rec = play_module.play(bots=bots, seed=5, rules=Rules())
    assert rec.seed == 5 and rec.result is not None and type(rec) is spec.load("record")
    again = play_module.play_game(bots={p: make_bot("random", seed=i, game=spec.name) for i, p in enumerate(players)},
                                  seed=5, rules=Rules(), max_actions=10_000)
    assert again.record == rec
    with pytest.raises(HeimlichError):
        play_module.play_game(bots=bots, seed=5, rules=Rules(), max_actions=1)


def test_heimlichs_first_order_and_the_shared_keywords_give_the_same_game():
    from heimlich_lab import Rules, play
    from heimlich_lab.bots import RandomBot
    old = play(Rules(top_secret=True), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, 9)
    assert play(bots={"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=9, rules=Rules(top_secret=True)) == old
    with pytest.raises(HeimlichError, match="give the bots once"):
        play(Rules(), {"Ann": RandomBot(1)}, bots={"Ann": RandomBot(1)})


def test_a_game_that_leaves_out_a_hook_is_told_which_one():
    """The shared bases' hooks (what each game supplies) name themselves when a new game forgets one."""
    from heimlich_lab.engine.game import GameBase
    from heimlich_lab.engine.records import RecordBase

    class HalfGame(GameBase):
        pass

    g = object.__new__(HalfGame)
    for hook in ("_to_act", "_compute_legal", "_advance"):
        with pytest.raises(NotImplementedError, match=f"HalfGame must supply {hook}\\(\\)"):
            getattr(g, hook)()
    with pytest.raises(NotImplementedError, match="HalfGame must supply _record_class"):
        HalfGame._record_class()

    class HalfRecord(RecordBase):
        pass

    with pytest.raises(NotImplementedError, match="HalfRecord must supply from_dict"):
        HalfRecord.from_dict({})
