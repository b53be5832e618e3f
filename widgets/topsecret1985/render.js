// The Top Secret table's markup (pure: strings from the synced `setup` and `state`; no DOM). table.js puts it on
// the page through the table shell (../shell.js). The map is the kernel's picture (heimlich_lab/games/topsecret1985/
// svg.py, in state.svg: one home for the drawing); this module lays buttons over the places the viewer's legal
// decisions name (state.decisions, each with its notation) and draws the seats, the duel, the side's buttons and the
// belief panel. It knows no rules: every button sends a decision's notation, and the kernel checks it.
import { attrs, beliefPanelMarkup, curtainMarkup, esc, logItems, playbackMarkup, plural } from "../shell.js";

/** The sections of the table, in the order table.js mounts them. */
export const SECTIONS = Object.freeze(["header", "map", "seats", "decision", "playback", "belief", "log", "curtain"]);

const pct = (f) => `${(f * 100).toFixed(3)}%`;
// an agent's button sits above its city, as the picture draws agents (svg.py: 14 units above, of 670)
const AGENT_LIFT = 0.028;

/** The agents that may step now (state.decisions' steps), each with the place it stands at, in order. */
export function movers(state) {
  const out = [];
  const seen = new Set();
  for (const d of (state && state.decisions) || []) {
    if (d.kind !== "step" || seen.has(d.agent)) continue;
    seen.add(d.agent);
    out.push({ agent: d.agent, at: d.at });
  }
  return out;
}

/** The agent whose path the viewer is clicking: the chosen one if it may still step, the only mover, or none. */
export function selectedAgent(state, chosen) {
  const ms = movers(state);
  if (ms.some((m) => m.agent === chosen)) return chosen;
  return ms.length === 1 ? ms[0].agent : null;
}

function placeName(setup, node) {
  const p = setup.places && setup.places[node];
  return p ? p.name : node;
}

function target(setup, node, lift, offset, attributes, text) {
  const p = setup.places[node];
  if (!p) return "";
  const style = `left:calc(${pct(p.x)} + ${offset}px);top:${pct(p.y - lift)}`;
  return `<button type="button"${attrs({ ...attributes, style })}>${esc(text)}</button>`;
}

/** The click targets over the map: the cities of a placement, the agents that may move, the chosen agent's next
 * cities. Each is a button (keyboard and screen reader alike) named by the decision's words. */
export function mapTargets(setup, state, chosen) {
  if (state.curtain) return "";
  const out = [];
  const ds = state.decisions || [];
  for (const d of ds) {
    if (d.kind === "place") {
      out.push(target(setup, d.city, 0, 0, { class: "ts-target ts-city", "data-action": d.notation, "data-city": d.city, "aria-label": d.label, title: d.label }, ""));
    }
  }
  const sel = selectedAgent(state, chosen);
  const byPlace = {};
  for (const m of movers(state)) {
    const k = byPlace[m.at] = (byPlace[m.at] || 0) + 1;
    const label = `${m.agent} in ${placeName(setup, m.at)}: choose it to move`;
    out.push(target(setup, m.at, AGENT_LIFT, (k - 1) * 16 - 4, {
      class: `ts-target ts-agent${m.agent === sel ? " ts-chosen" : ""}`, "data-agent": m.agent, "data-at": m.at,
      "aria-pressed": m.agent === sel ? "true" : "false", "aria-label": label, title: label,
    }, ""));
  }
  if (sel) {
    for (const d of ds) {
      if (d.kind === "step" && d.agent === sel) {
        out.push(target(setup, d.city, 0, 0, { class: "ts-target ts-city ts-step", "data-action": d.notation, "data-city": d.city, "aria-label": d.label, title: d.label }, ""));
      }
    }
  }
  return out.join("");
}

export function renderHeader(setup, state) {
  return `<h3 class="ts-title" data-testid="title">${esc((setup && setup.title) || "Top Secret")}</h3>`
    + `<p class="ts-headline" data-testid="headline">${esc(state.curtain ? "The screen changes hands" : state.headline || "")}</p>`
    + `<p class="ts-sub"><span data-testid="view-label" class="ts-label">${esc(state.label)}</span></p>`;
}

/** The map: the kernel's picture, with the click targets over it (same box, same proportions). */
export function renderMap(setup, state, chosen = null) {
  return `<div class="ts-map" data-testid="table"${attrs({ style: `aspect-ratio:${setup.aspect}` })}>`
    + `<div class="ts-picture">${state.svg || ""}</div>`
    + `<div class="ts-targets" role="group" aria-label="Places on the map you may click">${mapTargets(setup, state, chosen)}</div></div>`;
}

function swatch(setup, p) {
  return `<span class="ts-swatch" aria-hidden="true"${attrs({ style: `background:${(setup.colours || {})[p] || "#888"}` })}></span>`;
}

/** The players: agents, secrets home, duel cards left, suitcases delivered; the viewer's own contents. */
export function renderSeats(setup, state) {
  const seats = (state.seats || []).map((s) => {
    const cls = ["ts-seat", s.deciding && "ts-deciding", s.you && "ts-you"].filter(Boolean).join(" ");
    const delivered = s.delivered.length
      ? s.delivered.map((d) => `<span class="ts-delivered"${attrs({ "data-delivered": d.suitcase })}>${esc(d.suitcase)}=${esc(d.content)}</span>`).join(" ")
      : "none";
    const contents = s.contents
      ? `<div class="ts-contents"${attrs({ "data-testid": `contents-${s.name}` })}>Suitcases: ${setup.letters.map((L) => `${esc(L)}=${esc(s.contents[L])}`).join(" ")}</div>` : "";
    return `<div${attrs({ class: cls, "data-seat": s.name, role: "group", "aria-label": s.title })}>`
      + `<div class="ts-seat-head">${swatch(setup, s.name)}<b>${esc(s.title)}</b> <span class="ts-corner">${esc(s.corner)}</span></div>`
      + `<div>${esc(plural(s.secrets, "secret"))} of ${esc(setup.target)} \u00B7 ${esc(plural(s.agents, "agent"))}</div>`
      + `<div${attrs({ "data-hand": s.name })}>Duel cards: ${esc(s.hand.join(" ") || "none")}</div>`
      + `<div>Delivered: ${delivered}</div>`
      + ((s.carrying || []).length ? `<div${attrs({ "data-carrying": s.name })}>Carrying: ${s.carrying.map((c) => `${esc(c.agent)} \u2192 ${esc(c.suitcase)}`).join(", ")}</div>` : "")
      + `${contents}</div>`;
  }).join("");
  return `<div class="ts-seats" data-testid="seats">${seats}</div>`;
}

function dice(state) {
  if (!state.dice) return "";
  const bonus = Object.entries(state.bonus || {}).map(([a, n]) => `${a} ${n}`).join(", ");
  return `<p class="ts-dice" data-testid="dice">Dice ${esc(state.dice[0])} + ${esc(state.dice[1])} \u00B7 ${esc(plural(state.points, "step"))} left`
    + (bonus ? ` \u00B7 bonus: ${esc(bonus)}` : "") + `</p>`;
}

function duel(state) {
  const d = state.duel;
  if (!d) return "";
  const mine = d.my_card !== null && d.my_card !== undefined ? `your card: ${d.my_card} (face down)` : d.chosen ? "the aggressor's card lies face down" : "the aggressor chooses a card";
  return `<p class="ts-duel" data-testid="duel">Duel in ${esc(d.city_name)}: ${esc(d.attacker)} attacks ${esc(d.defender)}; ${esc(mine)}`
    + (d.waiting.length ? `; then ${esc(d.waiting.join(", "))}` : "") + `.</p>`;
}

function button(d, text) {
  return `<button type="button" class="ts-btn"${attrs({ "data-action": d.notation, "aria-label": d.label, title: d.label })}>${esc(text)}</button>`;
}

const GROUPS = [
  ["pick", "Pick up", (d) => `${d.agent}: ${d.suitcase}`],
  ["drop", "Drop", (d) => `${d.agent}: ${d.suitcase}`],
  ["card", "Duel card", (d) => String(d.card)],
  ["take", "", (d) => d.label],
  ["leave", "", (d) => d.label],
  ["eliminate", "The bomb costs", (d) => d.agent],
  ["end", "", (d) => d.label],
];

/** The contents' form: a content for each suitcase; table.js sends the decision these name. */
function contentsForm(setup, state) {
  const first = (state.decisions || []).find((d) => d.kind === "contents");
  const pick = first ? first.contents : {};
  const selects = setup.letters.map((L) => `<label class="ts-pick">${esc(L)} <select${attrs({ "data-letter": L, "aria-label": `content of suitcase ${L}` })}>`
    + setup.contents.map((c) => `<option${attrs({ value: c, selected: pick[L] === c ? "selected" : null })}>${esc(c)}</option>`).join("") + `</select></label>`).join(" ");
  return `<div class="ts-group" role="group" aria-label="Hide your content cards">${selects} `
    + `<button type="button" class="ts-btn" data-contents="hide">Hide these contents</button></div>`;
}

/** The viewer's decision: what to click on the map, and the side's buttons. */
export function renderDecision(setup, state, chosen = null) {
  if (state.curtain) return "";
  const ds = state.decisions || [];
  const head = dice(state) + duel(state);
  if (!ds.length) return `<div class="ts-decide" data-testid="decision">${head}${state.is_over ? "" : `<p>${esc(state.headline || "")}</p>`}</div>`;
  const parts = [];
  if (ds.some((d) => d.kind === "contents")) parts.push(contentsForm(setup, state));
  if (ds.some((d) => d.kind === "place")) parts.push(`<p class="ts-hint">Click a ringed city on the map.</p>`);
  const ms = movers(state);
  if (ms.length) {
    const sel = selectedAgent(state, chosen);
    parts.push(`<p class="ts-hint" data-testid="move-hint">${sel
      ? `${esc(sel)} in ${esc(placeName(setup, ms.find((m) => m.agent === sel).at))}: click a ringed city to step there${ms.length > 1 ? ", or another agent" : ""}.`
      : `Click one of your ringed agents on the map (${esc(plural(ms.length, "agent"))} may move), then the cities of its path.`}</p>`);
  }
  for (const [kind, name, text] of GROUPS) {
    const items = ds.filter((d) => d.kind === kind);
    if (!items.length) continue;
    parts.push(`<div class="ts-group" role="group"${attrs({ "aria-label": name || null })}>${name ? `<span class="ts-group-name">${esc(name)}:</span> ` : ""}${items.map((d) => button(d, text(d))).join(" ")}</div>`);
  }
  return `<div class="ts-decide" data-testid="decision">${head}<p class="ts-decide-head">Your decision:</p>${parts.join("")}</div>`;
}

export function renderPlayback(state) {
  return playbackMarkup(state, "ts") + (state.error ? `<div class="ts-error" data-testid="error" role="alert">${esc(state.error)}</div>` : "");
}

/** Per opponent, a 4 x 4 table: rows the suitcases A-D, columns 5, 3, 1 and the bomb, each cell P(content). */
export function beliefTable(setup, name, rows) {
  const cols = setup.contents;
  const body = setup.letters.map((L) => {
    const d = rows[L];
    const best = cols.reduce((a, c) => (d[c] > d[a] ? c : a), cols[0]);
    return `<tr${attrs({ "data-belief-row": `${name}:${L}` })}><th scope="row">${esc(L)}</th>`
      + cols.map((c) => `<td${attrs({ class: c === best ? "ts-best" : null, "data-content": c, "data-p": d[c], title: `P(${name}'s ${L} holds ${c === "bomb" ? "the bomb" : c}) = ${Math.round(d[c] * 100)}%` })}>`
        + `<span class="ts-bar${c === "bomb" ? " ts-bomb" : ""}" style="width:${Math.round(d[c] * 100)}%"></span><span class="ts-p">${Math.round(d[c] * 100)}%</span></td>`).join("")
      + `</tr>`;
  }).join("");
  return `<table${attrs({ class: "ts-belief-table", "data-belief-player": name })}><caption>${esc(name)}</caption>`
    + `<thead><tr><th scope="col"><span class="tb-sr">suitcase</span></th>${cols.map((c) => `<th scope="col">${esc(c)}</th>`).join("")}</tr></thead><tbody>${body}</tbody></table>`;
}

export function renderBelief(setup, state) {
  const b = state.belief;
  if (state.curtain || !b) return beliefPanelMarkup("ts", { curtain: !!state.curtain, belief: b });
  const tables = b.opponents.map((p) => beliefTable(setup, p, b.contents[p])).join("");
  return beliefPanelMarkup("ts", {
    belief: b, title: b.title || "Belief",
    body: `<div class="ts-belief-tables">${tables}</div>`,
    summary: "Details: how to read it, words used",
  });
}

export function renderLog(state) {
  return `<details class="ts-fold" data-fold="log"><summary>What happened (${esc(state.log_length)})</summary>`
    + `<ol class="ts-log" data-testid="log"${attrs({ start: Math.max(1, state.log_length - state.log.length + 1), "aria-label": "What happened", tabindex: "0" })}>${logItems(state.log)}</ol></details>`;
}

export function renderCurtain(state) {
  return curtainMarkup(state.curtain, "ts");
}

/** Markup of every section (table.js redraws a section only when its markup changed). */
export function renderSections(setup, state, chosen = null) {
  return {
    header: renderHeader(setup, state),
    map: renderMap(setup, state, chosen),
    seats: renderSeats(setup, state),
    decision: renderDecision(setup, state, chosen),
    playback: renderPlayback(state),
    belief: renderBelief(setup, state),
    log: renderLog(state),
    curtain: renderCurtain(state),
  };
}

/** The layout: header; the map and the seats on the left, on the right the decision, controls, belief and log. */
export function renderSkeleton() {
  const sec = (k) => `<div class="ts-section ts-${k}-section" data-section="${k}"></div>`;
  return `<div class="tb-tools" data-shell="tools"></div>` + sec("header")
    + `<div class="ts-main"><div class="ts-left">${sec("map")}${sec("seats")}</div><div class="ts-side">${sec("decision")}${sec("playback")}${sec("belief")}${sec("log")}</div></div>`
    + sec("curtain") + `<div class="tb-sr" data-testid="live" aria-live="polite" aria-atomic="true"></div>`;
}
