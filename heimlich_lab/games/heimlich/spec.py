"""Heimlich & Co. in the registry of games (:class:`~heimlich_lab.engine.registry.GameSpec`): what the shared
layers (the commands, the analysis layer, the bot registry) know about it.

>>> SPEC.name, SPEC.title, (SPEC.min_players, SPEC.max_players)
('heimlich', 'Heimlich & Co.', (2, 7))
"""
from ...engine.registry import GameSpec

_H = "heimlich_lab.games.heimlich"

SPEC = GameSpec(
    name="heimlich", title="Heimlich & Co.", min_players=2, max_players=7, default_players=3,
    game=f"{_H}.rules.game:Game",
    rules=f"{_H}.rules.ruleset:Rules",
    record=f"{_H}.rules.records:GameRecord",
    record_tag=None,       # its records were written before there was a second game: they carry no "game" field
    bots=f"{_H}.bots",
    belief=f"{_H}.inference.belief:Belief",
    transcript=f"{_H}.transcript:transcript",
    play_in_notebook=f"{_H}.widget.board:play_in_notebook",
    replay_in_notebook=f"{_H}.widget.board:replay_in_notebook",
    tournament=f"{_H}.analysis:TOURNAMENT",
    cli=f"{_H}.cli",
    benchmarks={
        "engine": f"{_H}.benchmarks.engine:bench_random_games",
        "belief": f"{_H}.benchmarks.belief:bench_belief",
        "model": f"{_H}.benchmarks.model:bench_model",
        "target": f"{_H}.benchmarks.tournament:bench_target",
        "tournament": f"{_H}.benchmarks.tournament:bench_tournament",
        "board": f"{_H}.benchmarks.board:bench_board",
        "limits": f"{_H}.benchmarks.limits:bench_limits",
        "types": f"{_H}.benchmarks.player_types:bench_player_types",
    },
    display=f"{_H}.display:display",
    wire=f"{_H}.wire",
)
