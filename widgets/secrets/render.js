// The Secrets table's markup (pure: strings from the synced `setup` and `state`; no DOM). table.js puts it on the
// page through the table shell (../shell.js). The words come from the kernel (heimlich_lab/games/secrets/
// widget_state.py): the card reference, the headline, the labels; this module only lays them out.
import { attrs, beliefPanelMarkup, curtainMarkup, esc, logItems, playbackMarkup, plural, sinceMarkup } from "../shell.js";

const TEAM_CLASS = { CIA: "st-cia", KGB: "st-kgb", Hippie: "st-hippie" };

/** The sections of the table, in the order table.js mounts them. */
export const SECTIONS = Object.freeze(["header", "table", "decision", "playback", "since", "belief", "cards", "log", "curtain"]);

/** The card reference by card code, from the setup (value and effect in words). */
export function cardInfo(setup) {
  const out = {};
  for (const c of (setup && setup.cards) || []) out[c.card] = c;
  return out;
}

function cardText(ref, card, up = true) {
  const c = ref[card];
  const text = c ? c.text : card;
  return up ? text : `${c ? c.name : card}, face down: worth 0 points`;
}

export function marker(team, title) {
  return `<span class="st-marker ${team ? TEAM_CLASS[team] : "st-unknown"}"${attrs({ "data-marker": team || "?", title, "aria-label": title })}>${esc(team || "?")}</span>`;
}

/** A card chip: its name; its value and effect on hover (title) and on focus (table.js shows it in the legend). */
export function cardChip(ref, card, up = true, extra = "") {
  const name = ref[card] ? ref[card].name : card;
  const text = cardText(ref, card, up);
  return `<span class="st-card${up ? "" : " st-down"}${extra}" tabindex="0"${attrs({ "data-card": card, title: text, "aria-label": text })}>${esc(name)}</span>`;
}

function seatBox(ref, seat, i, n, end) {
  // seat 0 at the bottom, the others clockwise around the circle: left is the next seat (the deck passes left)
  const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
  const x = 50 + 37 * Math.cos(angle), y = 50 + 39 * Math.sin(angle);
  const cards = seat.cards.map((c) => cardChip(ref, c.card, c.up));
  for (let b = 0; b < seat.bullets; b++) {
    const v = seat.bullet_values[b];
    const t = v === undefined ? "a bullet (face down): worth 0, -1, -2 or -3 points" : `a bullet: ${plural(v, "point")}`;
    cards.push(`<span class="st-card st-bullet"${attrs({ "data-bullet": v === undefined ? "?" : v, title: t, "aria-label": t })}>${v === undefined ? "\u2022" : esc(v)}</span>`);
  }
  const title = seat.title || seat.name;
  const cls = ["st-seat", seat.active && "st-active", seat.deciding && "st-deciding", seat.you && "st-you"].filter(Boolean).join(" ");
  const mk = seat.marker ? `${title}: ${seat.marker} (seen)` : `${title}: marker unknown`;
  return `<div class="${cls}"${attrs({ "data-seat": seat.name, style: `left:${x.toFixed(2)}%;top:${y.toFixed(2)}%`, role: "group", "aria-label": `${title}${seat.deciding ? ", deciding" : ""}` })}>`
    + `<div class="st-seat-head">${marker(seat.marker, mk)}<b>${esc(title)}</b>`
    + (seat.un ? `<span class="st-un" data-testid="un-marker" title="the UN marker: may confiscate an offer" aria-label="UN marker">UN</span>` : "")
    + `</div><div class="st-tableau"${attrs({ "data-testid": `tableau-${seat.name}` })}>${cards.join("")}</div>`
    + `<div class="st-seat-foot">${esc(seat.size)}/${esc(end)} cards \u00B7 ${esc(plural(seat.points, "point"))}</div></div>`;
}

function centre(ref, state) {
  let out = `<div class="st-deck" data-testid="deck" title="the character deck">Deck ${esc(state.deck_size)}</div>`
    + `<div class="st-middle" data-testid="middle">Middle ${marker(state.middle.marker, `the middle marker: ${state.middle.marker || "unknown"}`)}</div>`;
  if (state.candidates.length) {
    out += `<div class="st-offer" data-testid="candidates">${esc(state.active)} drew: ${state.candidates.map((c) => cardChip(ref, c)).join(" ")}</div>`;
  }
  if (state.offer) {
    out += `<div class="st-offer" data-testid="offer">${esc(state.offer.from)} offers `
      + (state.offer.card ? cardChip(ref, state.offer.card) : `<span class="st-card st-down" title="a card you may not see">?</span>`)
      + ` to ${esc(state.offer.to)}</div>`;
  }
  if (state.is_over) {
    const w = state.winners.length ? state.winners.join(", ") : "nobody (a tie)";
    out += `<div class="st-result" data-testid="result">Game over. Winners: ${esc(w)}</div>`;
  }
  return out;
}

export function renderHeader(setup, state) {
  return `<h3 class="st-title" data-testid="title">${esc((setup && setup.title) || "Secrets")}</h3>`
    + `<p class="st-headline" data-testid="headline">${esc(state.curtain ? "The screen changes hands" : state.headline || "")}</p>`
    + `<p class="st-sub"><span data-testid="view-label" class="st-label">${esc(state.label)}</span>`
    + `${state.un_player ? ` \u00B7 UN: ${esc(state.un_player)}` : ""}</p>`;
}

export function renderTable(setup, state) {
  const ref = cardInfo(setup);
  const n = state.seats.length;
  return `<div class="st-circle" data-testid="table" role="group" aria-label="The table">`
    + `<div class="st-felt"></div><div class="st-centre">${centre(ref, state)}</div>`
    + state.seats.map((s, i) => seatBox(ref, s, i, n, state.end_size)).join("") + `</div>`;
}

/** The keys of the decisions: 1-9 for the first nine buttons. */
export function decisionKeys(decisions) {
  const keys = {};
  (decisions || []).slice(0, 9).forEach((d, i) => { keys[d.notation] = String(i + 1); });
  return keys;
}

function button(d, keys, text) {
  const k = keys[d.notation];
  return `<button type="button" class="st-btn"${attrs({ "data-action": d.notation, "data-target": d.target, "aria-label": d.label, "aria-keyshortcuts": k, title: k ? `${d.label} (key ${k})` : d.label })}>`
    + (k ? `<kbd>${k}</kbd> ` : "") + `${esc(text)}</button>`;
}

/** The viewer's decision: buttons grouped by what they share ("Offer Scientist to: Bob Cy Dee"), with keys. */
export function renderDecision(state) {
  if (state.curtain) return "";
  const ds = state.decisions || [];
  if (!ds.length) {
    if (state.is_over) return "";
    return `<p class="st-decide" data-testid="decision">${esc(state.headline || "")}</p>`;
  }
  const keys = decisionKeys(ds);
  const groups = [];
  for (const d of ds) {
    const g = d.group || "";
    let last = groups[groups.length - 1];
    if (!last || last.name !== g || !g) groups.push((last = { name: g, items: [] }));
    last.items.push(d);
  }
  const body = groups.map((g) => g.name
    ? `<div class="st-group" role="group"${attrs({ "aria-label": g.name })}><span class="st-group-name">${esc(g.name)}:</span> ${g.items.map((d) => button(d, keys, d.target)).join("")}</div>`
    : `<div class="st-group">${g.items.map((d) => button(d, keys, d.label)).join("")}</div>`).join("");
  return `<div class="st-decide" data-testid="decision"><p class="st-decide-head">Your decision:</p>${body}</div>`;
}

export function renderPlayback(state) {
  return playbackMarkup(state, "st") + (state.error ? `<div class="st-error" data-testid="error" role="alert">${esc(state.error)}</div>` : "");
}

export function renderBelief(setup, state) {
  const b = state.belief;
  if (state.curtain || !b) return beliefPanelMarkup("st", { curtain: !!state.curtain, belief: b });
  const pct = (p) => `${Math.round(p * 100)}%`;
  const rows = setup.slots.map((slot) => {
    const d = b.identities[slot];
    const best = setup.teams.reduce((a, t) => (d[t] > d[a] ? t : a), setup.teams[0]);
    const name = (b.rows && b.rows[slot]) || slot;
    return `<tr${attrs({ "data-belief-slot": slot })}><th scope="row">${esc(name)}</th>`
      + setup.teams.map((t) => `<td${attrs({ class: t === best ? "st-best" : null, "data-team": t, title: `P(${name} is ${t}) = ${pct(d[t])}` })}>`
        + `<span class="st-bar ${TEAM_CLASS[t]}" style="width:${Math.round(d[t] * 100)}%"></span><span class="st-p">${pct(d[t])}</span></td>`).join("")
      + `</tr>`;
  }).join("");
  // the frame (title, headline, the details with the model's own sentence and the glossary) is the shell's
  return beliefPanelMarkup("st", {
    belief: b, title: `${b.title || "Belief"}${state.is_over ? " (before the reveal)" : ""}`,
    body: `<table><thead><tr><th scope="col"><span class="tb-sr">seat</span></th>${setup.teams.map((t) => `<th scope="col">${esc(t)}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`,
    summary: "Details: the latest update, words used",
  });
}

/** The card legend: every card's value and effect in words (the reference a new player needs). */
export function renderCards(setup) {
  const cards = (setup && setup.cards) || [];
  return `<details class="st-fold" data-fold="cards"><summary>Cards: what each one does</summary>`
    + `<p class="st-card-info" data-testid="card-info" aria-live="polite">Point at a card, or Tab to it, to read what it does.</p>`
    + `<ul class="st-legend" data-testid="card-legend">${cards.map((c) => `<li${attrs({ "data-legend": c.card })}><b>${esc(c.name)}</b> (${esc(plural(c.value, "point"))}): ${esc(c.effect)}</li>`).join("")}</ul>`
    + `<p class="st-keys" data-testid="keys">Keys (Tab to the table first): <kbd>1</kbd>\u2013<kbd>9</kbd> the numbered decision \u00B7 <kbd>N</kbd> next \u00B7 <kbd>P</kbd> play or pause \u00B7 <kbd>R</kbd> reveal \u00B7 <kbd>[</kbd>/<kbd>]</kbd> replay step</p>`
    + `</details>`;
}

/** "Since your last turn" (folded open), under the controls; nothing behind the curtain or before a decision. */
export function renderSince(state) {
  const body = state.curtain ? "" : sinceMarkup(state.since_last_turn, "st");
  return body ? `<details class="st-fold" data-fold="since" open><summary>Since your last turn</summary>${body}</details>` : "";
}

export function renderLog(state) {
  return `<ol class="st-log" data-testid="log"${attrs({ start: Math.max(1, state.log_length - state.log.length + 1), "aria-label": "What happened", tabindex: "0" })}>${logItems(state.log)}</ol>`;
}

export function renderCurtain(state) {
  return curtainMarkup(state.curtain, "st");
}

/** Markup of every section (table.js redraws a section only when its markup changed). */
export function renderSections(setup, state) {
  return {
    header: renderHeader(setup, state),
    table: renderTable(setup, state),
    decision: renderDecision(state),
    playback: renderPlayback(state),
    since: renderSince(state),
    belief: renderBelief(setup, state),
    cards: renderCards(setup),
    curtain: renderCurtain(state),
  };
}

/** The layout: header; the table on the left, on the right the decision, controls, belief, cards and log. */
export function renderSkeleton() {
  const sec = (k) => `<div class="st-section st-${k}-section" data-section="${k}"></div>`;
  return `<div class="tb-tools" data-shell="tools"></div>` + sec("header")
    + `<div class="st-main">${sec("table")}<div class="st-side">${sec("decision")}${sec("playback")}${sec("since")}${sec("belief")}${sec("cards")}${sec("log")}</div></div>`
    + sec("curtain") + `<div class="tb-sr" data-testid="live" aria-live="polite" aria-atomic="true"></div>`;
}
