"""The belief panel's story, shared by every game's table (issue 24, item 4): how informative an update was, and
one update said in plain words. Each game says what a claim is ("Bob controls red", "Cy is Hippie"); the shell
(``widgets/shell.js``, ``beliefHeadlineMarkup``) shows the headline.

>>> evidence_text("Bob moved red", "Bob controls red", "Bob does not control red", 0.2, 0.69, np.log(9.1))
'Bob moved red: 9\u00d7 more likely if Bob controls red (0.20 \u2192 0.69)'
"""
from __future__ import annotations

import numpy as np

from ..engine.words import for_any_name, possessive

#: Below this information (bits) an update is not news.
MIN_BITS = 0.01


def information_bits(before, after) -> np.ndarray:
    """The information of each cell's change: the binary KL divergence KL(after || before), in bits.

    >>> [round(float(x), 2) for x in information_bits(np.array([0.2, 0.5, 0.0]), np.array([0.69, 0.5, 0.0]))]
    [0.81, 0.0, 0.0]
    """
    b = np.clip(np.asarray(before, float), 1e-12, 1 - 1e-12)
    a = np.clip(np.asarray(after, float), 1e-12, 1 - 1e-12)
    return (a * np.log2(a / b) + (1 - a) * np.log2((1 - a) / (1 - b))).clip(min=0.0)


def times(ratio: float) -> str:
    """A likelihood ratio as the headline says it: ``9\u00d7``, ``1.5\u00d7``.

    >>> times(9.4), times(1.46), times(109.2)
    ('9\u00d7', '1.5\u00d7', '109\u00d7')
    """
    return (f"{ratio:.0f}" if ratio >= 3 else f"{ratio:.1f}") + "\u00d7"


def evidence_text(description: str, claim: str, contrast: str, before: float, after: float,
                  log_ratio: float) -> str:
    """What was seen, how much more likely it is if ``claim`` holds (or if ``contrast`` does, said the right way
    round), and the claim's probability before and after.

    >>> evidence_text("Bob passed", "Bob is KGB", "Bob is not KGB", 0.4, 0.1, np.log(1 / 6))
    'Bob passed: 6\u00d7 more likely if Bob is not KGB (0.40 \u2192 0.10)'
    >>> evidence_text("Cy showed", "Cy is CIA", "Cy is not CIA", 0.2, 1.0, np.inf)
    'Cy showed: only possible if Cy is CIA (0.20 \u2192 1.00)'
    """
    change = f"({before:.2f} \u2192 {after:.2f})"
    if np.isnan(log_ratio):
        said = f"the chance that {claim} changed {change}"
    elif log_ratio == np.inf:
        said = f"only possible if {claim} {change}"
    elif log_ratio == -np.inf:
        said = f"impossible if {claim} {change}"
    elif log_ratio >= 0:
        said = f"{times(float(np.exp(log_ratio)))} more likely if {claim} {change}"
    else:
        said = f"{times(float(np.exp(-log_ratio)))} more likely if {contrast} {change}"
    return for_any_name(f"{description}: {said}")


def most_informative(updates, rows_of=None, min_bits: float = MIN_BITS):
    """The update (of ``updates``) whose largest cell change carries the most information, with that cell's row
    and column and the bits; ``None`` at or below ``min_bits`` (:data:`MIN_BITS`: a caller that read earlier
    updates passes the best bits so far). ``rows_of(update)``: the rows to look at (default all), or ``None`` to
    skip the update.

    >>> from heimlich_lab.inference.core import HypothesisSpace, Posterior
    >>> post = Posterior(HypothesisSpace.assignments(["Ann", "Bob"], ["red", "blue"]))
    >>> a, b = post.update_actor("Bob", np.log([0.9, 0.3])), post.update_actor("Bob", np.log([0.5, 0.5]))
    >>> most_informative([a, b])[0] is a, most_informative([b])
    (True, None)
    """
    best, best_bits = None, min_bits
    for u in updates:
        rows = rows_of(u) if rows_of is not None else range(len(u.marginals_before))
        if rows is None:
            continue
        # every cell's information, once per update (a panel asks again at every step): kept in the update's cache
        # (each row's most informative cell, its bits) kept in the update's cache: cheap on the panel's next steps
        cache = getattr(u, "_cache", None)
        top = cache.get("information_top") if isinstance(cache, dict) else None
        if top is None:
            table = information_bits(u.marginals_before, u.marginals_after)
            cells = table.argmax(axis=1)
            top = np.vstack([cells, table[np.arange(len(table)), cells]])
            if isinstance(cache, dict):
                cache["information_top"] = top
        for r in rows:
            j, bits = int(top[0, r]), float(top[1, r])
            if bits > best_bits:
                best, best_bits = (u, int(r), j, bits), bits
    return best


#: The headline's lead-in for a spectator, who has no turn of their own (a player's is the shell's,
#: "Since your last turn:").
SPECTATOR_LEAD_IN = "Lately:"


def lead_in(observer) -> dict:
    """The headline's lead-in: the shell's for a player (nothing to add), :data:`SPECTATOR_LEAD_IN` for a spectator.

    >>> lead_in("Ann"), lead_in(None)
    ({}, {'label': 'Lately:'})
    """
    return {} if observer is not None else {"label": SPECTATOR_LEAD_IN}


def quiet_headline(observer, yet: bool, spectator: str = " yet") -> dict:
    """The headline when no update changed the belief much: ``yet`` (nothing so far), else since the observer's last
    turn (``spectator``: a spectator's words for "since when"), with the lead-in.

    >>> quiet_headline("Ann", False)["text"]
    "Nothing has changed the belief much since Ann's last turn."
    >>> quiet_headline("You", False)["text"]
    'Nothing has changed the belief much since your last turn.'
    >>> quiet_headline(None, False, " since the last round")
    {'text': 'Nothing has changed the belief much since the last round.', 'label': 'Lately:'}
    >>> quiet_headline("Ann", True)["text"]
    'Nothing has changed the belief much yet.'
    """
    whose = "your" if observer == "You" else possessive(observer) if observer is not None else ""  # mid-sentence
    who = " yet" if yet else f" since {whose} last turn" if observer is not None else spectator
    return {"text": for_any_name(f"Nothing has changed the belief much{who}.")} | lead_in(observer)


def panel_frame(observer, title: str, headline: dict | None, explanation: str, glossary, version: int) -> dict:
    """The belief panel's frame, the same in every game (the table shell draws it: ``beliefPanelMarkup`` in
    ``widgets/shell.js``): whose belief, its title, the headline (the story), the model's own sentence of the latest
    update (said right for any name), the glossary of the words the details use, and the panel's version (a page
    waits for it to change). Each game's panel adds its table to it.

    >>> f = panel_frame("You", "Your belief", None, "You passes: P(Bob is KGB) 0.40 -> 0.57",
    ...                 [{"term": "t", "gloss": "g"}], 3)
    >>> f["explanation"], f["glossary"], f["version"]
    ('You pass: P(Bob is KGB) 0.40 -> 0.57', [{'term': 't', 'gloss': 'g'}], 3)
    """
    return {"observer": observer, "title": title, "headline": headline, "glossary": [dict(g) for g in glossary],
            "explanation": for_any_name(explanation or ""), "version": int(version)}
