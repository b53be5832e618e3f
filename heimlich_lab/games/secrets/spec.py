"""Secrets in the registry of games (:class:`~heimlich_lab.engine.registry.GameSpec`): what the shared layers
(the commands, the analysis layer, the bot registry) know about it.

>>> SPEC.name, SPEC.title, (SPEC.min_players, SPEC.max_players), SPEC.record_tag
('secrets', 'Secrets', (4, 8), 'secrets')
"""
from ...engine.registry import GameSpec

_S = "heimlich_lab.games.secrets"

SPEC = GameSpec(
    name="secrets", title="Secrets", min_players=4, max_players=8, default_players=5,
    game=f"{_S}.game:Game",
    rules=f"{_S}.rules:SecretsRules",
    record=f"{_S}.records:SecretsRecord",
    bots=f"{_S}.bots",
    belief=f"{_S}.belief:Belief",
    transcript=f"{_S}.transcript:transcript",
    play_in_notebook=f"{_S}.widget:play_in_notebook",
    replay_in_notebook=f"{_S}.widget:replay_in_notebook",
    tournament=f"{_S}.analysis:TOURNAMENT",
    cli=f"{_S}.cli",
    benchmarks={"secrets": f"{_S}.bench:bench_secrets"},
    display=f"{_S}.display:display",
    wire=f"{_S}.wire",
)
