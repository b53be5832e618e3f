"""The same seeds give the same games, records and beliefs as before the game-contract refactor (issue 22).

``tests/data/same_seeds.json`` was written by this file (``python tests/test_same_seeds.py --write``) with the
tree before the refactor (commit a71ef2b). It holds, for fixed seeds of both games: hashes of the full, public
and per-player records' JSON and of transcripts, every observer's belief table rounded to 10 decimals, the
rows of small tournaments (with the belief evaluator) and what ``heimlich-lab play``, ``replay`` and
``evaluate`` print. Only public entry points are used, those that exist before and after.

Rewritten (``--write``) when issue 26 item 4 changed the default population (a hider who covers, a fifth kind of
table): only the entries read through it changed (``heimlich``'s ``belief_default`` and ``belief_set_dossier``,
``tournaments``' ``heimlich-beliefs``); every other entry is as written at a71ef2b.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

FIXTURE = Path(__file__).resolve().parent / "data" / "same_seeds.json"


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _rounded(table) -> list:
    return np.round(np.asarray(table, dtype=float), 10).tolist()


def _record_facts(rec) -> dict:
    return {"full": _hash(rec.to_json()), "public": _hash(rec.public().to_json()), "entries": len(rec.log),
            "players": {p: _hash(rec.as_player(p).to_json()) for p in rec.players}, "winners": rec.winners}


def heimlich_games() -> dict:
    from heimlich_lab import Belief, Rules, play
    from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
    from heimlich_lab.inference.belief import BeliefSet
    from heimlich_lab.inference.model import BoltzmannModel
    from heimlich_lab.transcript import transcript
    cases = {
        "basic-3-random": (Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, 11),
        "both-4-mixed": (Rules(top_secret=True, dossier=True),
                         {"Ann": BoltzmannBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": BluffBot(seed=3),
                          "Dee": RandomBot(4)}, 12),
        "ts-5-2018": (Rules(top_secret=True, draws="may", second_agent="drawn", lone_announcer="one_card",
                            safe_mover="creator"), {p: RandomBot(i) for i, p in enumerate(["A", "B", "C", "D", "E"])},
                      13),
    }
    out = {}
    for name, (rules, bots, seed) in cases.items():
        rec = play(rules, bots, seed=seed)
        facts = _record_facts(rec)
        facts["transcripts"] = {str(v): _hash("\n".join(transcript(rec, viewer=v)))
                                for v in (None, "omniscient", rec.players[0])}
        if name != "ts-5-2018":
            facts["belief_default"] = {p: _rounded(Belief.from_record(rec, observer=p).marginals_array())
                                       for p in rec.players}
            facts["belief_boltzmann"] = {p: _rounded(Belief.from_record(rec, observer=p, model=BoltzmannModel())
                                                     .marginals_array()) for p in rec.players}
            bs = BeliefSet.from_record(rec, until="dossier")
            facts["belief_set_dossier"] = {p: _rounded(bs[p].marginals_array()) for p in rec.players}
        out[name] = facts
    return out


def _secrets_table(belief) -> dict:
    ident = belief.identities()
    return {s: {t: round(float(p), 10) for t, p in teams.items()} for s, teams in ident.items()}


def secrets_games() -> dict:
    from heimlich_lab import secrets
    cases = {
        "5-random": ([secrets.RandomBot(i) for i in range(5)], 7, None),
        "6-mixed": ([secrets.TeamBot(1), secrets.BluffBot(2), secrets.RandomBot(3), secrets.TeamBot(4),
                     secrets.BluffBot(5), secrets.TeamBot(6)], 8, None),
        "8-team-da": ([secrets.TeamBot(i) for i in range(8)], 9, secrets.SecretsRules(double_agent_value=-1)),
    }
    out = {}
    for name, (bots, seed, rules) in cases.items():
        rec = secrets.play(bots, seed=seed, rules=rules)
        facts = _record_facts(rec)
        facts["final_identities"] = rec.final_identities
        facts["belief_exact"] = {p: _secrets_table(secrets.Belief.from_record(rec, observer=p, model=None))
                                 for p in rec.players}        # only what was seen (model=None)
        facts["belief_model"] = {p: _secrets_table(secrets.Belief.from_record(rec, observer=p,
                                                                                model=secrets.SecretsModel()))
                                 for p in rec.players}
        out[name] = facts
    return out


def tournaments() -> dict:
    from heimlich_lab.analysis import tournament
    h = tournament(player_counts=(3, 4), variants=("basic", "top_secret"), bots=("random", "rotate:random,greedy"),
                   games=2, seed=3, progress=False)
    hb = tournament(player_counts=3, variants="dossier", bots="rotate:boltzmann,random", games=1, seed=4,
                    progress=False, evaluate="beliefs")
    s = tournament(player_counts=(4, 6), variants=("basic", "double_agent=-1"), bots=("rotate:team,bluff,random",),
                   games=2, seed=3, progress=False, game="secrets", evaluate="beliefs")
    return {name: {"columns": list(df.columns), "csv": _hash(df.to_csv(index=False, float_format="%.10f"))}
            for name, df in (("heimlich", h), ("heimlich-beliefs", hb), ("secrets", s))}


def _cli(argv: list[str]) -> str:
    from heimlich_lab.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    text = re.sub(r"\d+\.\d s\b", "<time>", buf.getvalue())     # evaluate prints how long it took
    return f"{code}\n{text}"


def command_line(tmp: Path) -> dict:
    runs = {
        "play-heimlich": ["play", "--players", "Ann,Bob,Cy", "--bots", "random,greedy,bluff", "--seed", "5",
                          "--top-secret", "--out", str(tmp / "h.json")],
        "replay-heimlich": ["replay", str(tmp / "h.json"), "--as", "Bob"],
        "play-secrets": ["play", "--game", "secrets", "--players", "Ann,Bob,Cy,Dee,Eve", "--bots", "team,bluff,random,team,bluff",
                         "--seed", "5", "--out", str(tmp / "s.json")],
        "play-secrets-6": ["play", "--game", "secrets", "--players", "Ann,Bob,Cy,Dee,Eve,Fay", "--seed", "6",
                           "--as", "omniscient"],
        "replay-secrets": ["replay", str(tmp / "s.json"), "--as", "Cy"],
        "evaluate-heimlich": ["evaluate", "--games", "2", "--players", "3", "--bots", "random", "--seed", "1",
                              "--model", "boltzmann"],
        "evaluate-secrets": ["evaluate", "--game", "secrets", "--games", "2", "--players", "5", "--seed", "1"],
    }
    out = {}
    for name, argv in runs.items():
        text = _cli(argv).replace(str(tmp), "<tmp>")
        out[name] = {"hash": _hash(text), "lines": len(text.splitlines())}
    return out


def collect(tmp: Path) -> dict:
    return {"heimlich": heimlich_games(), "secrets": secrets_games(), "tournaments": tournaments(),
            "command_line": command_line(tmp)}


@pytest.fixture(scope="module")
def now(tmp_path_factory):
    return collect(tmp_path_factory.mktemp("same-seeds"))


@pytest.fixture(scope="module")
def before():
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("part", ["heimlich", "secrets", "tournaments", "command_line"])
def test_the_same_seeds_give_what_they_gave_before_the_refactor(part, now, before):
    got = json.loads(json.dumps(now[part]))     # tuples as lists, keys as strings, as in the file
    assert got.keys() == before[part].keys()
    for case in before[part]:
        assert got[case] == before[part][case], f"{part}/{case} differs from tests/data/same_seeds.json"


if __name__ == "__main__":   # python tests/test_same_seeds.py --write  (with the tree whose results are wanted)
    import tempfile
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_same_seeds.py --write")
    with tempfile.TemporaryDirectory() as d:
        FIXTURE.write_text(json.dumps(collect(Path(d)), indent=1, sort_keys=True) + "\n")
