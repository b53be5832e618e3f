"""The board bot-step's speed-ups (issue 26, item 3) keep every number and what the front end receives: one cell of
an update's likelihood ratios is the whole table's cell bit for bit. (The figures: ``heimlich-lab bench --only
limits``, and ``python scripts/belief_limits_side_by_side.py OLD NEW --only board``; no timed test.)"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab.inference.core import HypothesisSpace, Posterior


def _cells_then_table(update) -> tuple[np.ndarray, np.ndarray]:
    """Every cell read one by one first (each slot's column computed alone), then the whole table."""
    rows, cols = len(update.owners) + 1, len(update.slots)
    cells = np.array([[update.log_likelihood_ratio(r, c) for c in range(cols)] for r in range(rows)])
    return cells, update.log_likelihood_ratios()


@pytest.mark.parametrize("seed", range(4))
def test_one_cell_of_the_likelihood_ratios_is_the_tables_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    for owners, slots in ((2, 2), (2, 3), (3, 5), (4, 4), (7, 7), (3, 9)):    # one agent each, the rest free
        space = HypothesisSpace.assignments([f"o{i}" for i in range(owners)], [f"s{j}" for j in range(slots)])
        prior = rng.normal(size=len(space)) * rng.choice([0.5, 30.0])
        prior[rng.random(len(space)) < 0.2] = -np.inf      # impossible hypotheses (nan where nothing compares)
        prior[0] = 0.0
        post = Posterior(space, prior)
        for _ in range(3):
            ll = rng.normal(size=len(space)) * rng.choice([0.1, 5.0, 200.0])
            ll[rng.random(len(space)) < 0.1] = -np.inf
            ll[int(np.argmax(post.log_weights))] = 0.0
            cells, table = _cells_then_table(post.update(ll))
            assert np.array_equal(cells, table, equal_nan=True), (owners, slots)


def test_a_games_explanations_read_the_same_cells_as_the_table():
    from heimlich_lab import Belief, Rules, play
    from heimlich_lab.bots import RandomBot
    players = [f"P{i}" for i in range(7)]
    rec = play(Rules(top_secret=True, dossier=True), {p: RandomBot(seed=i) for i, p in enumerate(players)}, seed=4)
    for observer in (None, "P2"):
        b = Belief.from_record(rec.public() if observer is None else rec.as_player(observer), observer=observer)
        read = 0
        for st in b.history:
            if st.update is not None and st.kind == "observation":
                cells, table = _cells_then_table(st.update)
                assert np.array_equal(cells, table, equal_nan=True)
                read += 1
        assert read > 50


def test_a_board_that_reads_types_at_every_step_ends_with_a_fresh_readings_numbers():
    """The panel reads every player's types at every step (their weights kept per type table, shared by the
    states in which the table is the same): at the end they are those of a belief that read the whole record
    and the types once: within 1e-12, since a fresh reading of a record reads its decisions at once (Top
    Secret's hand decisions included: sums over options in another order), the board one by one."""
    from heimlich_lab import Belief, Rules
    from heimlich_lab.bots import RandomBot
    from heimlich_lab.games.heimlich.widget.game_controller import GameController
    players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    ctl = GameController(players, bots={p: RandomBot(seed=i) for i, p in enumerate(players)},
                         rules=Rules(top_secret=True, dossier=True), seed=6, autoplay=False)
    for _ in range(60):
        assert ctl.step()
        assert ctl.widget.state["belief"]["types"]
    live = ctl.beliefs[None]
    fresh = Belief.from_record(ctl.record.public(), observer=None)
    lt, ft = live.player_types(), fresh.player_types()
    assert lt.keys() == ft.keys() and all(lt[p].keys() == ft[p].keys() for p in lt)
    assert max(abs(lt[p][k] - ft[p][k]) for p in lt for k in lt[p]) < 1e-12
    assert np.allclose(live.marginals_array(), fresh.marginals_array(), rtol=0, atol=1e-12)


@pytest.mark.parametrize("viewer", [None, "Bob", "omniscient"])
def test_the_log_memo_gives_the_board_state_a_full_read_gives(viewer):
    """A live board reads each event of its log once (LogMemo): its state is, at every step, the state built
    without the memo, for a spectator, a player and the omniscient view, and when one memo is handed the views
    of another viewer and of another game (it starts afresh)."""
    from heimlich_lab import Game, Rules
    from heimlich_lab.bots import RandomBot
    from heimlich_lab.games.heimlich.widget.state import LogMemo, board_state
    players = ["Ann", "Bob", "Cy", "Dee"]
    memo, shared = LogMemo(), LogMemo()
    games = [Game(players, Rules(top_secret=True, dossier=True), seed=s) for s in (3, 4)]
    bots = {p: RandomBot(seed=i) for i, p in enumerate(players)}
    steps = 0
    while not all(g.is_over for g in games) and steps < 600:
        for g in games:
            if g.is_over:
                continue
            omniscient = viewer == "omniscient"
            who = None if omniscient else viewer
            kw = dict(omniscient=omniscient, human_players=["Bob"])
            plain = board_state(g, who, **kw)
            assert board_state(g, who, memo=memo if g is games[0] else LogMemo(), **kw) == plain
            other = "Cy" if steps % 3 else who     # the shared memo: games and viewers in turn
            assert board_state(g, other, memo=shared, **kw | dict(omniscient=omniscient and other is None)) == \
                board_state(g, other, **kw | dict(omniscient=omniscient and other is None))
            actor = g.current_player
            g.apply(bots[actor].choose(g.view(actor), g.legal_actions()), player=actor)
        steps += 1
    assert steps > 50


def test_the_table_sends_the_message_ipywidgets_would(monkeypatch):
    """TableWidget.send_state skips ipywidgets' search for binary buffers in its JSON-only traits: the message a
    front end receives is, at every step, the one ipywidgets' own send_state sends (the other traits go through
    ipywidgets' own)."""
    import ipywidgets

    from heimlich_lab import Rules
    from heimlich_lab.bots import RandomBot
    from heimlich_lab.games.heimlich.widget.game_controller import GameController

    players = ["Ann", "Bob", "Cy", "Dee"]
    ctl = GameController(players, bots={p: RandomBot(seed=i) for i, p in enumerate(players)},
                         rules=Rules(top_secret=True, dossier=True), seed=2, autoplay=False)
    w = ctl.widget
    sent: list = []
    monkeypatch.setattr(w.comm, "send", lambda data=None, buffers=None, **kw: sent.append((data, buffers)),
                        raising=False)
    monkeypatch.setattr(w.comm, "kernel", object(), raising=False)
    for _ in range(40):
        assert ctl.step()
        assert sent[-1][0] == {"method": "update", "state": {"state": w.state}, "buffer_paths": []}
        for key in ("state", "setup", "class_data", "speed_ms", "projector"):
            sent.clear()
            w.send_state(key)
            ipywidgets.Widget.send_state(w, key)
            assert len(sent) == 2 and sent[0] == sent[1], key


def test_a_live_panel_reading_each_step_once_is_the_panel_of_a_full_read():
    """LivePanels reads its beliefs' histories once each (PanelMemo: each step's change, the headline's scan):
    at every step of a game, for a spectator and for two players (whose 'since' moves with their turns), the
    panel is the one belief_panel makes without the memo."""
    from heimlich_lab import Game, Rules
    from heimlich_lab.bots import RandomBot
    from heimlich_lab.games.heimlich.widget.panel import (
        LivePanels,
        belief_panel,
        default_belief_factory,
        dossier_suggestion,
        last_decision_of,
    )
    players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    g = Game(players, Rules(top_secret=True, dossier=True), seed=8)
    bots = {p: RandomBot(seed=i) for i, p in enumerate(players)}
    observers = [None, "Bob", "Dee"]
    panels = LivePanels(g, observers, default_belief_factory)
    compared = 0
    while not g.is_over and compared < 3 * 150:
        actor = g.current_player
        g.apply(bots[actor].choose(g.view(actor), g.legal_actions()), player=actor)
        panels.follow()
        for o in observers:
            view = g.view(o)
            got = panels.panel(o, view)
            b = panels.beliefs[o]
            sheet, notes = dossier_suggestion(b, view) if view.dossier_done else (None, [])
            want = belief_panel(b, sheet=sheet, notes=notes + panels.note_lines(o), version=len(g.history),
                                since=last_decision_of(view))
            assert got == want, (o, len(g.history))
            compared += 1
    assert compared > 150
