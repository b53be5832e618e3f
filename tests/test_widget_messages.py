"""Messages from the browser (issue 23, item 10): huge numbers and booleans in the speed and replay controls are
neither an OverflowError nor a silent 1, in every game's table."""
from __future__ import annotations

import json

import pytest

from heimlich_lab.widget.front_end import SPEED_MAX_MS, SPEED_MIN_MS

from test_table_controller import GAMES, live, replay


def as_sent(text: str) -> dict:
    """A message as the kernel receives it: JSON from the browser (1e400 reads as inf)."""
    return json.loads(text)


@pytest.mark.parametrize("game", GAMES)
def test_the_speed_control_takes_only_numbers_and_clamps_huge_ones(game):
    ctl = live(game)
    before = ctl.widget.speed_ms
    for text in ['{"type": "control", "command": "speed", "value": true}',
                 '{"type": "control", "command": "speed", "value": false}',
                 '{"type": "control", "command": "speed", "value": "fast"}',
                 '{"type": "control", "command": "speed", "value": [1]}',
                 '{"type": "control", "command": "speed", "value": NaN}',
                 '{"type": "control", "command": "speed"}']:
        ctl.handle_message(as_sent(text))
        assert ctl.widget.speed_ms == before, text
    ctl.handle_message(as_sent('{"type": "control", "command": "speed", "value": 1e400}'))
    assert ctl.widget.speed_ms == SPEED_MAX_MS
    ctl.handle_message(as_sent('{"type": "control", "command": "speed", "value": -1e400}'))
    assert ctl.widget.speed_ms == SPEED_MIN_MS
    ctl.handle_message(as_sent('{"type": "control", "command": "speed", "value": 250.7}'))
    assert ctl.widget.speed_ms == 250


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_slider_takes_only_numbers_and_clamps_huge_ones(game):
    rep = replay(game, viewer="Bob")
    rep.handle_message(as_sent('{"type": "replay", "index": 2}'))
    assert rep.index == 2
    for text in ['{"type": "replay", "index": true}', '{"type": "replay", "index": "3"}',
                 '{"type": "replay", "index": NaN}', '{"type": "replay", "index": {"a": 1}}']:
        rep.handle_message(as_sent(text))
        assert rep.index == 2, text
    rep.handle_message(as_sent('{"type": "replay", "index": 1e400}'))
    assert rep.index == len(rep) - 1
    rep.handle_message(as_sent('{"type": "replay", "index": -1e400}'))
    assert rep.index == 0
