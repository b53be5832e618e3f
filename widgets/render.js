// heimlich-lab board widget: pure markup builders (state -> SVG/HTML strings).
// No DOM access here; board.js inserts these strings and wires the events.
// Everything shown comes from the state (every string is escaped).
import * as L from "./logic.js";
import * as S from "./shell.js";

/** Escape text for HTML/SVG text and attribute values. */
export const esc = S.esc;

const attrs = S.attrs;

function cls(...names) {
  return names.filter(Boolean).join(" ");
}

function fmt(x) {
  return Number.isFinite(x) ? String(Math.round(x * 100) / 100) : "0";
}

/** The transform used for positioned pieces (CSS transform so that changes animate). */
export function translateStyle(x, y) {
  return `transform: translate(${fmt(x)}px, ${fmt(y)}px)`;
}

// ---------------------------------------------------------------------------
// The view model: derived once per update, shared by the section renderers
// ---------------------------------------------------------------------------

/**
 * Everything the renderers need, computed from the (normalised) state and the
 * local UI state {alloc, selected, pending}.
 */
export function viewModel(rawState, ui = L.initialUi()) {
  const state = rawState && rawState.__normalised ? rawState : { ...L.normaliseState(rawState), __normalised: true };
  const ctx = L.uiContext(state);
  const order = ctx.order;
  const curtain = state.curtain;
  const mode = ctx.mode;
  const alloc = mode === "move" ? ui.alloc || {} : {};
  const points = ctx.points;
  const preview = ui.preview ? L.cardPreview(state.decisions, ui.preview) : null;  // a card option hovered
  const landings = mode === "move" ? L.previewLandings(state.move, alloc) : preview ? preview.landings : {};
  const scoring = mode === "move" ? L.scoringAgents(state.move, alloc, order) : [];
  const board = ui.projector ? L.PROJECTOR_BOARD : L.BOARD;     // projector mode: larger track and markers
  const geometry = L.ringGeometry(state.ring, board);
  const layout = L.agentLayout(state.positions, order, landings, geometry);
  const track = L.trackGeometry({ ...board, finish: state.finish, mark: state.dossier_mark });
  const markers = L.markerLayout(state.scores, order, track, board);
  const buildingActs = mode === "curtain" || mode === "none" ? new Map() : L.buildingActions(state.decisions);
  const own = curtain ? new Set() : new Set(state.own_agents);
  const owners = curtain ? null : L.ownersByAgent(state.owners);
  return {
    state, ui: { ...L.initialUi(), ...ui }, ctx, mode, order, alloc, points, landings, scoring,
    board, geometry, layout, track, markers, buildingActs, own, owners, preview,
    styles: Object.fromEntries(state.agents.map((a) => [a.colour, L.agentStyle(a)])),
    allowed: mode === "move" && L.isLegalAllocation(alloc, state.move),
  };
}

// ---------------------------------------------------------------------------
// SVG board
// ---------------------------------------------------------------------------

/** Building layer: 12 buildings with their values; the safe's building, clickable ones, preview targets. */
export function renderBuildings(vm) {
  const B = L.BOARD;
  const landingSet = new Set(Object.values(vm.landings));
  let out = "";
  for (const g of vm.geometry) {
    const act = vm.buildingActs.get(g.value);
    const isSafe = vm.state.safe === g.value;
    const named = g.label !== String(g.value);  // the Church and the Ruins: a name besides the value
    const value = String(g.value).replace("-", "\u2212");
    const c = cls("hb-building", isSafe && "hb-has-safe", act && "hb-clickable", landingSet.has(g.value) && "hb-landing",
      landingSet.has(g.value) && isSafe && "hb-scoring-target", named && `hb-${g.name}`);
    const label = named ? `${value} ${g.label}` : value;
    const title = named ? `${g.label} (${value})` : `Building ${g.value}`;
    out += `<g${attrs({
      class: c, "data-building": g.value, "data-building-action": act, transform: `translate(${fmt(g.x)},${fmt(g.y)})`,
      role: act ? "button" : undefined, tabindex: act ? "0" : undefined,
      "aria-label": act ? `${title}: ${act}` : undefined,
    })}><title>${esc(act ? `${title} \u2014 click: ${act}` : title)}</title>`
      + `<circle class="hb-building-body" r="${B.buildingRadius}"/>`
      + `<text class="hb-building-value${label.length > 3 ? " hb-small" : ""}" y="-30" text-anchor="middle">${esc(label)}</text></g>`;
  }
  return out;
}

/** The safe icon, at the inner edge of its building. */
export function renderSafe(vm) {
  const s = vm.state.safe;
  if (s === null) return "";
  const g = vm.geometry.find((b) => b.value === s);
  const B = L.BOARD;
  const r = B.ringRadius - B.buildingRadius - 30;
  const rad = (g.angle * Math.PI) / 180;
  const x = B.cx + r * Math.cos(rad);
  const y = B.cy + r * Math.sin(rad);
  return `<g class="hb-safe" data-safe="${esc(g.name)}" transform="translate(${fmt(x)},${fmt(y)})">`
    + `<title>The safe is in ${esc(g.label)}</title>`
    + `<rect class="hb-safe-box" x="-22" y="-18" width="44" height="36" rx="5"/>`
    + `<circle class="hb-safe-dial" r="9"/><line class="hb-safe-dial" x1="0" y1="0" x2="6" y2="-6"/>`
    + `<rect class="hb-safe-handle" x="13" y="-7" width="4" height="14"/></g>`;
}

/** Nodes for the agents: [{key, x, y, cls, inner, label}]. One per agent with a valid position. */
export function agentNodes(vm) {
  const triggers = new Set(vm.state.triggers);
  const moved = new Set(Object.keys(vm.state.last_move));
  const out = [];
  for (const c of vm.order) {
    const p = vm.layout.agents[c];
    if (!p) continue;
    const st = vm.styles[c];
    const own = vm.own.has(c);
    const owner = vm.owners ? vm.owners[c] : undefined;
    const steps = vm.alloc[c] || 0;
    const label = `${st.name} (${c}) in ${L.buildingLabel(vm.state.ring, p.building)}${own ? ", your agent" : ""}${owner ? `, owner ${owner}` : ""}${steps ? `, +${steps} planned` : ""}`;
    const inner = `<title>${esc(label)}</title>`
      + (own ? `<circle class="hb-own-ring" r="${L.BOARD.agentRadius + 5}"/>` : "")
      + `<circle class="hb-agent-body" r="${L.BOARD.agentRadius}" fill="${esc(st.fill)}"/>`
      + `<text class="hb-agent-letter" text-anchor="middle" dy="0.35em" fill="${esc(st.ink)}">${esc(st.letter)}</text>`;
    out.push({
      key: c, x: p.x, y: p.y, label, inner,
      cls: cls("hb-agent", `hb-c-${c}`, own && "hb-own", triggers.has(c) && "hb-trigger", moved.has(c) && "hb-moved",
        vm.mode === "move" && "hb-clickable", vm.mode === "move" && vm.ui.selected === c && "hb-selected"),
    });
  }
  return out;
}

/** Markup of one agent node. */
export function agentMarkup(n) {
  return `<g${attrs({ class: n.cls, "data-agent": n.key, style: translateStyle(n.x, n.y), role: "img", "aria-label": n.label })}>${n.inner}</g>`;
}

/** Ghosts: preview of where moving agents land (highlighted if they would score). */
export function renderGhosts(vm) {
  const scoring = new Set(vm.scoring);
  let out = "";
  for (const c of vm.order) {
    const p = vm.layout.ghosts[c];
    if (!p) continue;
    const st = vm.styles[c];
    const sc = scoring.has(c);
    out += `<g class="${cls("hb-ghost", sc && "hb-scores")}" data-ghost="${esc(c)}" transform="translate(${fmt(p.x)},${fmt(p.y)})">`
      + `<title>${esc(`${st.name} would ${vm.preview ? "go to" : "land in"} ${L.buildingLabel(vm.state.ring, p.building)}${sc ? " \u2014 scoring!" : ""}`)}</title>`
      + `<circle class="hb-ghost-body" r="${L.BOARD.agentRadius}" stroke="${esc(st.fill)}"/>`
      + `<text class="hb-agent-letter" text-anchor="middle" dy="0.35em">${esc(st.letter)}</text>`
      + (sc ? `<text class="hb-ghost-star" x="10" y="-8">\u2605</text>` : "") + `</g>`;
  }
  return out;
}

/** The scoring track: spaces 0..finish, the dossier mark highlighted. */
export function renderTrack(vm) {
  const r = (vm.board || L.BOARD).trackSpaceRadius;
  let out = "";
  for (const t0 of vm.track) {
    const t = vm.state.dossier ? t0 : { ...t0, mark: false };
    const title = t.mark ? `${t.score}: dossier mark` : t.finish ? `${t.score}: finish` : String(t.score);
    out += `<g class="${cls("hb-track-space", t.mark && "hb-mark", t.finish && "hb-finish")}" data-track="${t.score}" transform="translate(${fmt(t.x)},${fmt(t.y)})">`
      + `<title>${esc(title)}</title><circle r="${t.mark || t.finish ? r + 2 : r}"/>`
      + `<text text-anchor="middle" dy="0.35em">${t.score}</text></g>`;
  }
  return out;
}

/** Nodes for the scoring markers: [{key, x, y, cls, inner, score}]. */
export function markerNodes(vm) {
  const out = [];
  for (const c of vm.order) {
    const m = vm.markers[c];
    if (!m) continue;
    const st = vm.styles[c];
    const inner = `<title>${esc(`${st.name} (${c}): ${m.score} points`)}</title>`
      + `<circle class="hb-marker-body" r="${(vm.board || L.BOARD).markerRadius}" fill="${esc(st.fill)}"/>`
      + `<text class="hb-marker-letter" text-anchor="middle" dy="0.35em" fill="${esc(st.ink)}">${esc(st.letter)}</text>`;
    out.push({ key: c, x: m.x, y: m.y, score: m.score, cls: cls("hb-marker", `hb-c-${c}`), inner });
  }
  return out;
}

/** Markup of one scoring marker. */
export function markerMarkup(n) {
  return `<g${attrs({ class: n.cls, "data-marker": n.key, "data-score": n.score, style: translateStyle(n.x, n.y) })}>${n.inner}</g>`;
}

/** Centre of the ring: the die face and whose turn it is. */
export function renderCenter(vm) {
  const s = vm.state;
  const { cx, cy } = L.BOARD;
  let out = "";
  const face = s.die;
  out += `<g class="${cls("hb-die", face === null && "hb-die-none")}" data-die="${esc(face === null ? "" : face)}" transform="translate(${cx},${cy - 40})">`
    + `<title>${esc(face === null ? "No die rolled" : `Die: ${face}`)}</title>`
    + `<rect x="-30" y="-30" width="60" height="60" rx="10"/>`;
  const pips = L.diePips(face);
  if (pips) for (const [px, py] of pips) out += `<circle class="hb-pip" cx="${px * 30 * 0.75}" cy="${py * 30 * 0.75}" r="5.5"/>`;
  else if (face !== null) out += `<text class="hb-die-text" text-anchor="middle" dy="0.35em">${esc(face)}</text>`;
  out += `</g>`;
  const [line1, line2] = L.bannerLines(s.banner || (s.winners ? "Game over" : ""));
  if (line1) out += `<text class="hb-center-turn" x="${cx}" y="${cy + 24}" text-anchor="middle">${esc(line1)}</text>`;
  if (line2) out += `<text class="hb-center-sub" x="${cx}" y="${cy + 48}" text-anchor="middle">${esc(line2)}</text>`;
  return out;
}

/** Each player's last move as arrows from building to building (bent towards the centre), in the agent's colour,
 * with the agent's letter on the arrow's middle: colour is never the only sign (colour-blind safety). */
export function renderArrows(vm) {
  const byValue = L.geometryByValue(vm.geometry);
  let out = "";
  for (const [player, moves] of Object.entries(vm.state.last_moves || {})) {
    for (const [c, ft] of Object.entries(moves || {})) {
      const a = byValue.get(ft && ft[0]);
      const b = byValue.get(ft && ft[1]);
      const st = vm.styles[c];
      if (!a || !b || !st || a === b) continue;
      const path = L.arrowPath(a, b);
      const mid = L.arrowMiddle(a, b);
      out += `<g class="hb-arrow" data-arrow="${esc(`${player}:${c}`)}"><title>${esc(`${player} last moved ${st.name}: ${a.label} \u2192 ${b.label}`)}</title>`
        + `<path d="${path}" stroke="${esc(st.fill)}" marker-end="url(#hb-arrowhead)"/>`
        + `<circle class="hb-arrow-badge" cx="${mid.x}" cy="${mid.y}" r="9" fill="${esc(st.fill)}" stroke="#fff" stroke-width="1.5"/>`
        + `<text class="hb-arrow-letter" x="${mid.x}" y="${mid.y}" text-anchor="middle" dy="0.35em" fill="${esc(st.ink)}">${esc(st.letter)}</text></g>`;
    }
  }
  return out;
}

/** Layers of the board SVG, in drawing order (board.js patches them one by one). */
export const SVG_LAYERS = Object.freeze(["track", "buildings", "arrows", "safe", "center", "ghosts", "agents", "markers"]);

/** The markup of each SVG layer. */
export function svgLayers(vm) {
  return {
    track: renderTrack(vm),
    buildings: renderBuildings(vm),
    arrows: renderArrows(vm),
    safe: renderSafe(vm),
    center: renderCenter(vm),
    ghosts: renderGhosts(vm),
    agents: agentNodes(vm).map(agentMarkup).join(""),
    markers: markerNodes(vm).map(markerMarkup).join(""),
  };
}

/** The whole board SVG. */
export function renderBoardSvg(vm) {
  const S = L.BOARD.size;
  const layers = svgLayers(vm);
  return `<svg class="hb-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${S} ${S}" role="group" aria-label="Board">`
    + `<defs><marker id="hb-arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs><rect class="hb-svg-bg" x="0" y="0" width="${S}" height="${S}" rx="18"/>`
    + SVG_LAYERS.map((k) => `<g data-layer="${k}">${layers[k]}</g>`).join("")
    + `</svg>`;
}

// ---------------------------------------------------------------------------
// HTML sections
// ---------------------------------------------------------------------------

// Words a narrow board leaves out (board.css shows them to screen readers only): "nobody" of a free agent's
// "nobody (free)", an agent's name beside its lettered swatch in the end table.
const FREE = `<span class="hb-wide-only">nobody </span>(free)`;

function swatch(st, extra = "") {
  return `<span class="hb-swatch hb-c-${esc(st.colour)}" style="background:${esc(st.fill)};color:${esc(st.ink)}"${extra}>${esc(st.letter)}</span>`;
}

/** Header: whose view, whose turn, winners. */
export function renderHeader(vm) {
  const s = vm.state;
  let out = `<span class="hb-view" data-testid="view-label">${esc(s.view_label || (s.viewer ? `${s.viewer}: view` : ""))}</span>`;
  if (s.banner) out += `<span class="hb-banner" data-testid="banner" aria-live="${S.liveMode(s)}">${esc(s.banner)}</span>`;
  if (s.players.length) {
    out += `<span class="hb-players">` + s.players.map((p) => {
      const size = s.top_secret && s.hand_sizes && Number.isFinite(s.hand_sizes[p]) ? ` <span class="hb-hand-size" data-hand-size="${esc(p)}" title="cards in hand">${esc(s.hand_sizes[p])} card${s.hand_sizes[p] === 1 ? "" : "s"}</span>` : "";
      return `<span class="${cls("hb-player", p === s.current_player && "hb-current", s.winners && s.winners.includes(p) && "hb-winner")}" data-player="${esc(p)}">${esc(p)}${size}</span>`;
    }).join("") + `</span>`;
  }
  return out;
}

/** The allocation editor (move decisions). */
export function renderAllocation(vm) {
  const total = L.allocationTotal(vm.alloc);
  const left = vm.points - total;
  const pending = vm.ui.pending;
  let rows = "";
  for (const c of vm.order) {
    const st = vm.styles[c];
    const n = vm.alloc[c] || 0;
    const from = vm.state.positions[c];
    const to = vm.landings[c];
    const scores = vm.scoring.includes(c);
    const label = (v) => L.buildingLabel(vm.state.ring, v);
    const where = vm.layout.agents[c]
      ? (to !== undefined ? `${label(from)} \u2192 ${label(to)}${scores ? " \u2605 scores" : ""}` : label(from))
      : "";
    rows += `<tr class="${cls("hb-alloc-row", vm.ui.selected === c && "hb-selected", scores && "hb-scores")}" data-row="${esc(c)}">`
      + `<td>${swatch(st)}</td><td class="hb-alloc-name">${esc(st.name)}</td>`
      + `<td><button type="button" class="hb-step" data-step="-1" data-target="${esc(c)}"${n <= 0 || pending ? " disabled" : ""} aria-label="${esc(`one step less for ${st.name}`)}">\u2212</button></td>`
      + `<td class="hb-steps">${n}</td>`
      + `<td><button type="button" class="hb-step" data-step="+1" data-target="${esc(c)}"${left <= 0 || pending ? " disabled" : ""} aria-label="${esc(`one step more for ${st.name}`)}">+</button></td>`
      + `<td class="hb-where">${esc(where)}</td></tr>`;
  }
  const notation = L.allocationNotation(vm.alloc, vm.order);
  const status = `Allocated ${total} of ${vm.points} point${vm.points === 1 ? "" : "s"}`
    + (vm.scoring.length ? ` \u2014 \u2605 creates a scoring (safe in ${L.buildingLabel(vm.state.ring, vm.state.safe)})` : "");
  return `<div class="hb-alloc" data-testid="allocation">`
    + `<div class="${cls("hb-alloc-status", vm.scoring.length && "hb-scores")}" aria-live="polite">${esc(status)}</div>`
    + `<table class="hb-alloc-table"><tbody>${rows}</tbody></table>`
    + `<div class="hb-buttons"><button type="button" class="hb-confirm" data-testid="confirm" data-command="confirm"${vm.allowed && !pending ? "" : " disabled"}>`
    + `Confirm${notation ? `: ${esc(notation)}` : ""}</button>`
    + `<button type="button" data-testid="reset" data-command="reset"${total ? "" : " disabled"}>Reset</button></div></div>`;
}

/** Buttons for the decisions, grouped (moves excluded: see renderAllocation); a card's button tells its effect. */
export function renderActionGroups(vm) {
  const groups = L.groupDecisions(vm.state.decisions);
  if (!groups.length) return "";
  const names = Object.fromEntries(vm.order.map((c) => [c, vm.styles[c].name]));
  const pending = vm.ui.pending;
  const cards = L.cardGroups(vm.state.decisions).map((g) => g.key);
  return `<div class="hb-actions">` + groups.map((g) => {
    let legend = esc(g.title);
    if (g.kind === "dossier") {
      const colour = g.key.slice(8);
      if (vm.styles[colour]) legend = `${swatch(vm.styles[colour])} ${legend}`;
    }
    // a card's key (1, 2, ...): played at once with one option, else its first option gets the focus
    const cardKey = cards.indexOf(g.key) + 1;
    if (cardKey > 0 && cardKey <= 9) legend += ` <kbd data-card-key="${cardKey}" title="key ${cardKey}">${cardKey}</kbd>`;
    return `<fieldset class="hb-group hb-group-${esc(g.kind)}" data-group="${esc(g.key)}"><legend>${legend}</legend>`
      + g.actions.map((a) => {
        const effect = L.effectText(a.effect, names, vm.state.ring);
        // a card's target: the moved agents' swatches with their letters, as on the board; a key when it has one
        const moved = a.effect && a.effect.moves ? Object.keys(a.effect.moves).filter((c) => vm.styles[c]) : [];
        const marks = moved.map((c) => swatch(vm.styles[c], ' aria-hidden="true"')).join("");
        const key = a.key && g.kind !== "points" && g.kind !== "announce" && g.kind !== "roll" ? a.key : null;
        const title = (effect ? `${a.notation}: ${effect}` : a.notation) + (key ? ` (key ${key.toUpperCase()})` : "");
        return `<button type="button" class="hb-action" data-action="${esc(a.notation)}" title="${esc(title)}"${key ? ` aria-keyshortcuts="${esc(key.toUpperCase())}"` : ""}${pending ? " disabled" : ""}>${marks}${marks ? " " : ""}${esc(a.label)}${key ? ` <kbd>${esc(key.toUpperCase())}</kbd>` : ""}</button>`;
      }).join(" ")
      + `</fieldset>`;
  }).join("") + `</div>`;
}

/** The end of the game as a table: agents farthest first, owner, marker, dossier points, final marker. */
export function renderResult(vm) {
  const r = vm.state.result;
  const rows = Array.isArray(r.rows) ? r.rows : [];
  const winners = Array.isArray(r.winners) ? r.winners.map(String) : [];
  const head = winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(" and ")}` : "No player wins: a free agent went farthest";
  let out = `<div class="hb-result" data-testid="result"><strong>${esc(head)}</strong>`
    + `<table class="hb-result-table"><thead><tr><th scope="col">Agent</th><th scope="col">Controlled by</th><th scope="col">Marker</th>`
    + (r.dossier ? `<th scope="col">Dossier</th><th scope="col">Final</th>` : "") + `</tr></thead><tbody>`;
  for (const row of rows) {
    const st = vm.styles[row.agent] || L.agentStyle(row.agent);
    const won = row.owner && winners.includes(row.owner);
    out += `<tr class="${cls(row.farthest && "hb-farthest", won && "hb-winner-row")}" data-result="${esc(row.agent)}">`
      + `<td title="${esc(st.name)}">${swatch(st)}<span class="hb-wide-only"> ${esc(st.name)}</span>${row.farthest ? " \u2605" : ""}</td>`
      + `<td>${row.owner ? esc(row.owner) : FREE}</td><td>${esc(row.marker)}</td>`
      + (r.dossier ? `<td>${row.dossier ? `+${esc(row.dossier)}` : "0"}</td><td><strong>${esc(row.final)}</strong></td>` : "") + `</tr>`;
  }
  out += `</tbody></table>`;
  if (r.note) out += `<p class="hb-note">${esc(r.note)}</p>`;
  return out + `<p class="hb-caption">\u2605 farthest marker</p></div>`;
}

/**
 * The newest Top Secret card play of the turn (the kernel's `card_play`): who played which card and what it did,
 * in words with the agents' lettered swatches. board.js animates it once per play (`data-card-play` is the play's
 * log index), and the kernel's autoplay lingers on it, so that a bot's card is not missed.
 */
export function renderCardPlay(vm) {
  const c = vm.state.card_play;
  if (!c || typeof c !== "object" || !c.card) return "";
  const who = c.player === vm.state.viewer && vm.state.viewer ? "You play" : `${c.player} plays`;
  return `<div class="hb-card-play" data-testid="card-play" data-card-play="${esc(c.log)}">`
    + `<span class="hb-card-play-head">${esc(who)} a Top Secret card: <strong>${esc(c.title)}</strong></span>`
    + (c.effect ? `<span class="hb-card-play-text">${agentWords(c.effect, vm)}</span>` : "") + `</div>`;
}

/** The curtain panel (hot seat): text and the reveal button. */
export function renderCurtain(vm) {
  return S.curtainMarkup(vm.state.curtain, "hb");
}

/** Decision text and the controls for it. */
export function renderControls(vm) {
  const s = vm.state;
  let out = `<div class="hb-decision" data-testid="decision" aria-live="${S.liveMode(s)}">${esc(s.decision_text)}</div>`;
  if (s.result) out += renderResult(vm);
  else if (s.winners || s.result_text) {
    out += `<div class="hb-result" data-testid="result">`
      + (s.winners ? `<strong>${esc(s.winners.length ? `Winner${s.winners.length > 1 ? "s" : ""}: ${s.winners.join(", ")}` : "No player wins")}</strong> ` : "")
      + `${esc(s.result_text)}</div>`;
  }
  out += renderCardPlay(vm);
  if (s.error && vm.mode !== "curtain") out += `<div class="hb-error" data-testid="error" role="alert">${esc(s.error)}</div>`;
  if (vm.mode === "curtain") return out + renderCurtain(vm);
  if (vm.mode === "none") return out;
  if (vm.mode === "move") out += renderAllocation(vm);
  out += renderActionGroups(vm);
  return out;
}

/**
 * The viewer's private things: the hand (Top Secret) and their own dossier sheet entries.
 * Not rendered under the curtain, nor without a hand / sheet.
 */
export function renderHand(vm) {
  const s = vm.state;
  const hasSheet = s.dossier_sheet && Object.keys(s.dossier_sheet).length > 0;
  if (!s.top_secret && !hasSheet) return "";
  if (s.curtain) return `<div class="hb-hidden-note">${s.top_secret ? "Hand" : "Dossier"} hidden behind the curtain.</div>`;
  let sheet = "";
  if (hasSheet) {
    sheet = `<p class="hb-dossier-sheet" data-testid="dossier-sheet">Your dossier: ` + Object.entries(s.dossier_sheet).map(([c, who]) => {
      const st = vm.styles[c] || L.agentStyle(c);
      return `<span class="hb-sheet-entry" data-dossier-entry="${esc(c)}">${swatch(st)}\u2192${esc(who)}</span>`;
    }).join(" ") + `</p>`;
  }
  if (!s.top_secret || !s.hand) return sheet;
  const items = s.hand.map((code) => `<li class="hb-card" data-card="${esc(code)}"><span class="hb-card-code">${esc(code)}</span> ${esc(s.card_names[code] || "")}</li>`).join("");
  // the human's own preference (the kernel's ask_cards): the table answers the card questions with one answer
  const ask = s.ask_cards && typeof s.ask_cards === "object" && s.ask_cards.player
    ? `<label class="hb-ask-cards"><input type="checkbox" data-ask-cards="${esc(s.ask_cards.player)}"${s.ask_cards.only_playable ? " checked" : ""}> `
      + `Ask me about playing a card only when I hold one that can act now</label>` : "";
  return `<section class="hb-hand" data-testid="hand"><h4>${esc(s.viewer ? "Your hand" : "Hand")} (${s.hand.length})</h4>`
    + (items ? `<ul>${items}</ul>` : `<p class="hb-empty">No cards.</p>`) + ask + `</section>` + sheet;
}

/** Legend: each agent with colour, letter, name, score; "yours" and owners when known. */
export function renderLegend(vm) {
  const s = vm.state;
  const you = s.identity && !s.curtain
    ? `<p class="hb-you" data-testid="identity">${[...vm.own].map((c) => swatch(vm.styles[c] || L.agentStyle(c))).join("")} ${esc(s.identity)}</p>` : "";
  return you + `<ul class="hb-legend">` + vm.order.map((c) => {
    const st = vm.styles[c];
    const score = s.scores[c];
    const own = vm.own.has(c) ? ` <span class="hb-yours">yours</span>` : "";
    const owner = vm.owners && vm.owners[c] !== undefined ? ` <span class="hb-owner" data-owner="${esc(c)}">${esc(vm.owners[c])}</span>` : "";
    return `<li class="hb-legend-item">${swatch(st)} ${esc(st.name)} <span class="hb-colour-name">${esc(c)}</span>`
      + `${Number.isFinite(score) ? ` <span class="hb-score">${esc(score)}</span>` : ""}${own}${owner}</li>`;
  }).join("") + `</ul>`;
}

/** The public log, newest last. */
export function renderLog(vm) {
  return `<h4>Log</h4><ol class="hb-log" data-testid="log">${renderLogItems(vm.state.log, vm)}</ol>`;
}

/** Log lines as <li> items (board.js appends new lines without redrawing old ones); agents carry their letters. */
export function renderLogItems(lines, vm) {
  return S.logItems(lines, lineWords(vm));
}

/**
 * A sentence of the kernel's (a log line, "since your last turn", the belief headline) as markup in which every
 * agent named by its colour carries its lettered swatch after the colour word ("red" -> "red [J]"): colour is never
 * the only sign of an agent (issue 24, item 6). The kernel's words stay as they are (the transcript's, which the
 * notebooks print); only the board adds the letters. Whole lower-case words only ("Fred" and "Red" are not agents).
 */
export function agentWords(text, vm) {
  const colours = vm && Array.isArray(vm.order) ? vm.order.filter((c) => /^[a-z]+$/.test(c)) : [];
  const s = String(text ?? "");
  if (!colours.length) return esc(s);
  const parts = s.split(new RegExp(`(?<![A-Za-z])(${colours.join("|")})(?![A-Za-z])`));
  return parts.map((part, i) => (i % 2
    ? `${esc(part)} ${swatch(vm.styles[part] || L.agentStyle(part), ' aria-hidden="true" data-agent-letter="' + esc(part) + '"')}`
    : esc(part))).join("");
}

/** `agentWords` for one board (what the shell's log, since and headline markup take as `words`). */
export function lineWords(vm) {
  return (line) => agentWords(line, vm);
}

/** Autoplay (bots) and replay controls: the table shell's (shell.js), with the board's class prefix. */
export function renderPlayback(vm) {
  return S.playbackMarkup(vm.state, "hb");
}

/** A structural signature of the playback section: same signature -> board.js only patches values. */
export function playbackSignature(vm) {
  return S.playbackSignature(vm.state);
}

/** Belief panel: caption, heatmap with names and legend, the viewer's own agent, largest updates, types, entropy plot. */
export function renderBelief(vm) {
  const s = vm.state;
  const b = s.belief;
  if (s.curtain || !b) return S.beliefPanelMarkup("hb", { curtain: !!s.curtain, belief: b });
  const rows = Array.isArray(b.rows) ? b.rows.map(String) : [];
  const cols = Array.isArray(b.cols) ? b.cols.map(String) : [];
  const p = Array.isArray(b.p) ? b.p : [];
  const observer = b.observer == null ? null : String(b.observer);
  const own = new Set(Array.isArray(b.own) ? b.own.map(String) : []);
  let table = `<table class="hb-heat"><thead><tr><th scope="col"><span class="hb-sr">player</span></th>`;
  for (const c of cols) {
    const st = vm.styles[c] || L.agentStyle(c);
    table += `<th scope="col" title="${esc(`${st.name} (${c})`)}">${swatch(st)}<span class="hb-col-name">${esc(st.name)}</span></th>`;
  }
  table += `</tr></thead><tbody>`;
  let sumsToTwo = false;
  rows.forEach((r, i) => {
    if (observer !== null && r === observer && own.size) return;   // the viewer knows their own row
    const label = r === "free" ? "nobody (free)" : r;
    let sum = 0;
    table += `<tr><th scope="row" title="${esc(label)}">${r === "free" ? FREE : esc(label)}</th>`;
    cols.forEach((c, j) => {
      const v = Array.isArray(p[i]) ? Number(p[i][j]) : NaN;
      if (Number.isFinite(v)) sum += v;
      const st = vm.styles[c] || L.agentStyle(c);
      table += `<td data-cell="${esc(`${r}:${c}`)}" style="background:${L.heatFill(v)};color:${L.heatInk(v)}" title="${esc(`P(${st.name}'s controller is ${label}) = ${Number.isFinite(v) ? v.toFixed(4) : "?"}`)}">${esc(L.formatProb(v))}</td>`;
    });
    if (r !== "free" && sum > 1.5) sumsToTwo = true;
    table += `</tr>`;
  });
  table += `</tbody></table>`;
  const legend = `<div class="hb-heat-legend" data-testid="heat-legend" aria-hidden="true"><span>0</span><span class="hb-heat-scale"></span><span>1</span> <span class="hb-muted">probability</span></div>`;
  const caption = `<p class="hb-caption" data-testid="belief-caption">${esc(b.caption || "cell = probability that this player controls this agent")}</p>`;
  const mine = own.size && observer !== null
    ? `<p class="hb-own-line" data-testid="own-line">${[...own].map((c) => swatch(vm.styles[c] || L.agentStyle(c))).join("")} ${esc(b.own_text || `${observer}'s own agent (no row: known for sure)`)}</p>` : "";
  const two = sumsToTwo ? `<p class="hb-note" data-testid="sums-to-two">A row sums to 2 when that player may hold a second agent (the Top Secret card that takes a free agent).</p>` : "";
  const ent = Array.isArray(b.entropy) ? b.entropy.map(Number).filter(Number.isFinite) : [];
  const plot = ent.length ? renderEntropy(ent) : "";
  const ups = Array.isArray(b.updates) && b.updates.length
    ? `<h5>Largest updates so far</h5><ol class="hb-updates" data-testid="updates">${b.updates.map((u) => `<li data-log-entry="${esc(u.log)}"><button type="button" class="hb-link" data-log-turn="${esc(u.turn)}" title="show turn ${esc(u.turn)} in the log">turn ${esc(u.turn)}</button>: ${agentWords(u.text, vm)} <span class="hb-muted">(probability moved ${esc(Number(u.change).toFixed(2))})</span></li>`).join("")}</ol>` : "";
  const types = b.types && typeof b.types === "object" && Object.keys(b.types).length
    ? `<h5>Player types</h5><ul class="hb-types" data-testid="types">${Object.entries(b.types).map(([who, t]) => `<li>${esc(who)} plays like: ${esc(Object.entries(t || {}).map(([k, v]) => `${k} ${Number(v).toFixed(2)}`).join(", "))}</li>`).join("")}</ul>` : "";
  const notes = Array.isArray(b.notes) && b.notes.length ? `<h5>Dossier notes</h5><ul class="hb-notes" data-testid="notes">${b.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : "";
  let sheet = "";
  if (b.sheet && typeof b.sheet === "object") {
    sheet = `<p class="hb-sheet" data-testid="sheet">Suggested sheet: ` + Object.entries(b.sheet).map(([c, who]) => {
      const st = vm.styles[c] || L.agentStyle(c);
      return `<span class="hb-sheet-entry" data-sheet="${esc(c)}">${swatch(st)}\u2192${esc(who)}</span>`;
    }).join(" ") + `</p>`;
  }
  // the frame (title, headline, the details with the model's own sentence and the glossary) is the shell's
  return S.beliefPanelMarkup("hb", {
    belief: b, title: b.title || "Who controls which agent?", body: `${caption}${table}${legend}${mine}${two}`,
    words: lineWords(vm),
    summary: `Details: updates, entropy${types ? ", types" : ""}${notes ? ", dossier notes" : ""}`,
    details: `${ups}${types}${plot}${notes}${sheet}`,
  });
}

/** The uncertainty (entropy, bits) over the decisions: a small plot with axes and their labels. */
export function renderEntropy(values) {
  const W = 240, H = 92, left = 34, bottom = 22, top = 6, right = 8;
  const max = Math.max(...values, 0.01);
  const n = values.length;
  const x = (i) => left + (n === 1 ? 0 : (i * (W - left - right)) / (n - 1));
  const y = (v) => top + (1 - v / max) * (H - top - bottom);
  const pts = (n === 1 ? [[x(0), y(values[0])], [W - right, y(values[0])]] : values.map((v, i) => [x(i), y(v)]))
    .map(([a, b]) => `${Math.round(a * 10) / 10},${Math.round(b * 10) / 10}`).join(" ");
  const fmt = (v) => (Math.round(v * 10) / 10).toString();
  return `<figure class="hb-entropy"><svg class="hb-spark" data-testid="entropy" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="uncertainty (entropy) in bits after each decision">`
    + `<line class="hb-axis" x1="${left}" y1="${top}" x2="${left}" y2="${H - bottom}"/><line class="hb-axis" x1="${left}" y1="${H - bottom}" x2="${W - right}" y2="${H - bottom}"/>`
    + `<text class="hb-tick" x="${left - 4}" y="${top + 8}" text-anchor="end">${fmt(max)}</text><text class="hb-tick" x="${left - 4}" y="${H - bottom}" text-anchor="end">0</text>`
    + `<text class="hb-tick" x="${left}" y="${H - 6}">0</text><text class="hb-tick" x="${W - right}" y="${H - 6}" text-anchor="end">${n - 1}</text>`
    + `<text class="hb-tick" x="${(left + W) / 2}" y="${H - 6}" text-anchor="middle">decisions</text>`
    + `<text class="hb-tick" x="10" y="${(H - bottom) / 2}" text-anchor="middle" transform="rotate(-90 10 ${(H - bottom) / 2})">bits</text>`
    + `<polyline points="${pts}"/></svg><figcaption>uncertainty (entropy): ${esc(values[n - 1].toFixed(2))} bits</figcaption></figure>`;
}

/** What happened since the viewer's last decision (the bots' turns, in words). */
export function renderSince(vm) {
  const lines = Array.isArray(vm.state.since_last_turn) ? vm.state.since_last_turn : [];
  if (!lines.length || vm.state.curtain) return "";
  return S.sinceMarkup(lines, "hb", lineWords(vm));
}

/** Key help: the play keys only on a board where one plays; a replay-only board lists its own. */
export function renderHelp(vm) {
  const replayOnly = vm && vm.state.replay && !vm.state.autoplay;
  if (replayOnly) return `<p class="hb-help">Keys (click the board or Tab to it first): <kbd>[</kbd> one step back \u00B7 <kbd>]</kbd> one step forward; the slider and the buttons do the same.</p>`;
  return `<p class="hb-help">Keys (click the board or Tab to it first; Tab moves between buttons): <kbd>R</kbd> roll \u00B7 <kbd>0</kbd>\u2013<kbd>3</kbd> choose points \u00B7 `
    + `<kbd>\u2190</kbd>/<kbd>\u2192</kbd> or an agent's letter select an agent \u00B7 <kbd>+</kbd>/<kbd>\u2212</kbd> add/remove a step \u00B7 `
    + `digits set its steps \u00B7 <kbd>Enter</kbd> confirm \u00B7 <kbd>Esc</kbd> reset \u00B7 <kbd>Y</kbd>/<kbd>N</kbd> announce \u00B7 `
    + `<kbd>1</kbd>\u2013<kbd>9</kbd> a Top Secret card \u00B7 <kbd>X</kbd> pass \u00B7 <kbd>D</kbd> done \u00B7 `
    + `<kbd>[</kbd>/<kbd>]</kbd> replay step \u00B7 <kbd>N</kbd> next bot decision \u00B7 <kbd>P</kbd> play or pause the bots `
    + `(while nobody here decides) \u00B7 <kbd>R</kbd> reveal at the curtain</p>`;
}

/** The Class data box: the table shell's (shell.js classDataMarkup), with the board's class prefix. */
export function renderClassData(cd) {
  return S.classDataMarkup(cd, "hb");
}

/** HTML sections (board.js updates each one only when its markup changes). */
export const SECTIONS = Object.freeze(["header", "controls", "hand", "legend", "playback", "since", "log", "belief", "help"]);

/** Markup of every HTML section. */
export function renderSections(vm) {
  return {
    header: renderHeader(vm),
    controls: renderControls(vm),
    hand: renderHand(vm),
    legend: renderLegend(vm),
    playback: renderPlayback(vm),
    since: renderSince(vm),
    log: renderLog(vm),
    belief: renderBelief(vm),
    help: renderHelp(vm),
  };
}

/**
 * The layout: the board on the left (it scales with the width), on the right the decision above the
 * belief heatmap; what happened, the hand, the log and the keys fold away below them.
 */
export function renderSkeleton() {
  const S = L.BOARD.size;
  const sec = (k, tag = "div") => `<${tag} class="hb-section hb-${k}-section" data-section="${k}"></${tag}>`;
  const fold = (k, title, open) => `<details class="hb-fold" data-fold="${k}"${open ? " open" : ""}><summary>${title}</summary>${sec(k)}</details>`;
  return `<div class="tb-tools" data-shell="tools"></div>` + sec("header")
    + `<div class="hb-main"><div class="hb-board-col">`
    + `<svg class="hb-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${S} ${S}" role="group" aria-label="Board">`
    + `<defs><marker id="hb-arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>`
    + `<rect class="hb-svg-bg" x="0" y="0" width="${S}" height="${S}" rx="18"/>`
    + SVG_LAYERS.map((k) => `<g data-layer="${k}"></g>`).join("") + `</svg>`
    + sec("legend") + `</div><div class="hb-side-col">`
    + sec("controls") + sec("playback") + sec("belief")
    + `<div class="hb-folds">` + sec("hand") + fold("since", "Since your last turn", true) + fold("log", "Log", false)
    + fold("help", "Keys", false) + `</div>`
    + `</div></div>`;
}

/** The whole widget's inner markup (for tests and static export). */
export function renderWidget(state, ui) {
  const vm = viewModel(state, ui);
  const sections = renderSections(vm);
  const layers = svgLayers(vm);
  let html = renderSkeleton();
  for (const k of SECTIONS) html = html.replace(`data-section="${k}"></`, () => `data-section="${k}">${sections[k]}</`);
  for (const k of SVG_LAYERS) html = html.replace(`<g data-layer="${k}"></g>`, () => `<g data-layer="${k}">${layers[k]}</g>`);
  return html;
}
