"""Top Secret in the registry of games (:class:`~heimlich_lab.engine.registry.GameSpec`): what the shared layers
(the commands, the analysis layer, the bot registry) know about it.

>>> SPEC.name, SPEC.title, (SPEC.min_players, SPEC.max_players), SPEC.record_tag
('topsecret1985', 'Top Secret', (2, 4), 'topsecret1985')
"""
from ...engine.registry import GameSpec

_T = "heimlich_lab.games.topsecret1985"

SPEC = GameSpec(
    name="topsecret1985", title="Top Secret", min_players=2, max_players=4, default_players=4,
    game=f"{_T}.game:Game",
    rules=f"{_T}.rules:TopSecretRules",
    record=f"{_T}.records:TopSecretRecord",
    bots=f"{_T}.bots",
    belief=f"{_T}.belief:Belief",
    cli=f"{_T}.cli",
    transcript=f"{_T}.transcript:transcript",
    play_in_notebook=f"{_T}.widget:play_in_notebook",
    replay_in_notebook=f"{_T}.widget:replay_in_notebook",
    tournament=f"{_T}.analysis:TOURNAMENT",
    benchmarks={"topsecret1985": f"{_T}.bench:bench_topsecret"},
    wire=f"{_T}.wire",
)
