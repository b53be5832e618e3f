"""The information rule for Secrets, proven by a differential test: change only what a player may not know
(markers they never saw, bullets others drew) and their view must not change."""
from __future__ import annotations

import pytest

from heimlich_lab.secrets import Action, Game, RandomBot, play_game

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def unseen_tokens(g: Game, observer: str) -> list[int]:
    """The dealt markers (by their first slot) the observer never saw, followed through every swap."""
    slots = list(g.slots)
    at = list(range(len(slots)))          # slot -> token (the slot it was dealt to)
    seen = set()
    for e in g.omniscient_view().log:
        if e.kind == "over":
            break
        if e.kind == "swap" or e.kind == "side":
            a, b = slots.index(e.a if e.kind == "swap" else e.slot), slots.index(e.b if e.kind == "swap" else "middle")
            at[a], at[b] = at[b], at[a]
        elif (e.kind == "look" and e.player == observer) or e.kind == "show" or (
                e.kind == "expose" and e.player != observer):
            seen.add(at[slots.index(e.slot if e.kind != "expose" else e.player)])
    return [t for t in range(len(slots)) if t not in seen]


def altered_history(g: Game, observer: str):
    """g's history with the unseen markers' teams rotated and the others' bullets permuted; None if no change."""
    hidden = unseen_tokens(g, observer)
    deal = list(g.history[0][1].args)
    teams = [deal[t][1] for t in hidden]
    rotated = teams[1:] + teams[:1]
    if rotated == teams:
        return None
    for t, team in zip(hidden, rotated):
        deal[t] = (deal[t][0], team)
    hist = [(g.history[0][0], Action("deal", tuple(deal)))] + list(g.history[1:])
    # bullets drawn by others: reverse their values (the Assassin is whoever shoots next)
    others = [i for i, (_, a) in enumerate(hist) if a.kind == "bullet"
              and next(p for p, b in hist[i + 1:] if b.kind == "shoot") != observer]
    values = [hist[i][1] for i in others][::-1]
    for i, a in zip(others, values):
        hist[i] = (hist[i][0], a)
    return hist


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_changing_what_a_player_may_not_know_does_not_change_their_view(n):
    checked = 0
    for seed in range(8):
        g = play_game([RandomBot(seed * 10 + i) for i in range(n)], seed=seed)
        for observer in g.players:
            hist = altered_history(g, observer)
            if hist is None:
                continue
            a = Game(g.players, chance="manual", seed=g.seed)
            b = Game(g.players, chance="manual", seed=g.seed)
            differs = False
            for (who, act), (who_b, act_b) in zip(g.history, hist):
                if a.is_over:
                    break
                assert a.view(observer) == b.view(observer), (seed, observer, act)
                a.apply(act, player=who)
                b.apply(act_b, player=who_b)
                differs |= a.identities != b.identities or a.bullets != b.bullets
            assert differs                     # the change was real (the spectator-omniscient truth differs)
            checked += 1
    assert checked >= 6


def test_changing_what_a_player_saw_changes_their_view():
    g = Game(NAMES[:4], chance="manual", seed=0)
    h = Game(NAMES[:4], chance="manual", seed=0)
    g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
    h.apply("deal Ann=KGB Bob=CIA Cy=Hippie Dee=CIA middle=KGB")
    assert g.view("Ann") != h.view("Ann")
    assert g.view("Cy") == h.view("Cy") and g.spectator_view() == h.spectator_view()


def test_a_view_holds_what_the_player_knew_before_a_swap_moved_it_away():
    g = Game(NAMES[:5], chance="manual", seed=0)
    for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA Eve=Hippie middle=KGB", "reveal psychiatrist",
              "reveal scientist", "offer psychiatrist Cy", "accept", "swap Ann Dee"]:
        g.apply(a)
    v = g.view("Ann")
    seen = [(e.slot, e.team) for e in v.log if e.kind == "look" and e.player == "Ann"]
    assert seen == [("Ann", "CIA"), ("Eve", "Hippie")]
    assert v.known_markers == {"Dee": "CIA", "Eve": "Hippie"}
