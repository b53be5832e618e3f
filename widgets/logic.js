// heimlich-lab board widget: pure logic (no DOM). Used by render.js and board.js,
// unit-tested by widgets/tests/*.test.mjs.
//
// The front end knows no rules: Python (heimlich_lab/widget/state.py) sends the ring, the decisions
// (notation, kind, group, label, key, building, a card's effect) and, for a move, where each agent
// would land after 0..points steps. This module lays out, groups and validates against those.

// ---------------------------------------------------------------------------
// Board constants
// ---------------------------------------------------------------------------

import { SPEED_RANGE } from "./shell.js";
export const FINISH = 42;
export const DOSSIER_MARK = 29;
export const DEFAULT_SPEED_MS = 300;
/** The autoplay pace (ms per bot step): the table shell's (shell.js), the same as the kernel's. */
export { SPEED_RANGE };

/** A speed in ms clamped to SPEED_RANGE (NaN for anything that is not a number). */
export function clampSpeed(v) {
  const n = Math.round(Number(v));
  return Number.isFinite(n) ? Math.max(SPEED_RANGE.min, Math.min(SPEED_RANGE.max, n)) : NaN;
}

/** The seven agents: name, letter (drawn on the piece), fill and ink colours. */
export const AGENT_INFO = Object.freeze({
  grey: Object.freeze({ name: "Schulz", letter: "S", fill: "#9a9a9a", ink: "#000000" }),
  yellow: Object.freeze({ name: "Perry", letter: "P", fill: "#f5d328", ink: "#000000" }),
  orange: Object.freeze({ name: "Bucci", letter: "B", fill: "#ef8a17", ink: "#000000" }),
  red: Object.freeze({ name: "Jaques", letter: "J", fill: "#c62828", ink: "#ffffff" }),
  green: Object.freeze({ name: "Mirkov", letter: "M", fill: "#2e8b45", ink: "#ffffff" }),
  blue: Object.freeze({ name: "Doyle", letter: "D", fill: "#1f5fbf", ink: "#ffffff" }),
  violet: Object.freeze({ name: "Larsson", letter: "L", fill: "#7b3fa0", ink: "#ffffff" }),
});
export const COLOUR_ORDER = Object.freeze(["grey", "yellow", "orange", "red", "green", "blue", "violet"]);

/** Geometry of the SVG board (viewBox 0 0 size size). */
export const BOARD = Object.freeze({
  size: 800,
  cx: 400,
  cy: 400,
  ringRadius: 236,
  buildingRadius: 54,
  agentRadius: 13,
  agentSpacing: 28,
  agentRowGap: 26,
  trackInset: 26,
  trackSpaceRadius: 12,
  markerRadius: 9,
});

/**
 * The board in projector mode (issue 24, item 3): the ring a little smaller, larger track spaces and score markers, so that at
 * a 150% zoom (the board about 350 CSS px wide, 0.44 of its 800 units) their numbers and letters are at least
 * 14 px (widgets/board.css sets the projector's font sizes: 32 units).
 */
export const PROJECTOR_BOARD = Object.freeze({ ...BOARD, ringRadius: 224, trackInset: 30, trackSpaceRadius: 24, markerRadius: 21 });

function mod(a, n) {
  return ((a % n) + n) % n;
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

// ---------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------

/**
 * The ring's buildings (setup.ring: [{value, name, label}] clockwise from the Church) on a circle,
 * the first at the top, clockwise. Returns [{index, value, name, label, x, y, angle}]
 * (angle in degrees, 0 = east, y down).
 */
export function ringGeometry(ring, opts = {}) {
  const { cx, cy, ringRadius } = { ...BOARD, ...opts };
  const n = ring.length;
  return ring.map((b, index) => {
    const angle = -90 + (360 / n) * index;
    const rad = (angle * Math.PI) / 180;
    return {
      index,
      value: b.value,
      name: String(b.name),
      label: String(b.label),
      x: round2(cx + ringRadius * Math.cos(rad)),
      y: round2(cy + ringRadius * Math.sin(rad)),
      angle,
    };
  });
}

/** Map building value -> geometry entry. */
export function geometryByValue(geometry) {
  const m = new Map();
  for (const g of geometry) m.set(g.value, g);
  return m;
}

/** A building's label on the ring ("Church", "4", ...); the value itself if the ring does not have it. */
export function buildingLabel(ring, value) {
  const b = ring.find((x) => x.value === value);
  return b ? String(b.label) : String(value);
}

/** Rows of pieces for n pieces in one building. */
function rowSizes(n) {
  if (n <= 0) return [];
  if (n <= 3) return [n];
  if (n === 4) return [2, 2];
  if (n === 5) return [3, 2];
  if (n === 6) return [3, 3];
  if (n === 7) return [2, 3, 2];
  const rows = [];
  for (let left = n; left > 0; left -= 3) rows.push(Math.min(3, left));
  return rows;
}

/**
 * Offsets {dx, dy} from a building's centre for n pieces laid out side by side
 * (rows of at most 3, centred a little below the centre, under the value label).
 */
export function slotOffsets(n, opts = {}) {
  const { agentSpacing, agentRowGap } = { ...BOARD, ...opts };
  const rows = rowSizes(n);
  const out = [];
  const baseY = 8;
  rows.forEach((count, r) => {
    const dy = baseY + (r - (rows.length - 1) / 2) * agentRowGap;
    for (let k = 0; k < count; k++) {
      const dx = (k - (count - 1) / 2) * agentSpacing;
      out.push({ dx: round2(dx), dy: round2(dy) });
    }
  });
  return out;
}

/**
 * Where each agent (and each ghost) is drawn.
 * positions: colour -> building value; order: agent colours in display order;
 * ghosts: colour -> building value of the preview (only moving agents).
 * In each building the real agents come first (in order), then the ghosts.
 * Agents with no valid position are left out.
 * Returns {agents: {colour: {x, y, building}}, ghosts: {colour: {x, y, building}}}.
 */
export function agentLayout(positions, order, ghosts, geometry) {
  const byValue = geometryByValue(geometry);
  const occupants = new Map();
  const push = (value, item) => {
    if (!byValue.has(value)) return;
    if (!occupants.has(value)) occupants.set(value, []);
    occupants.get(value).push(item);
  };
  for (const c of order) push(positions ? positions[c] : undefined, { colour: c, ghost: false });
  for (const c of order) if (ghosts && ghosts[c] !== undefined) push(ghosts[c], { colour: c, ghost: true });
  const agents = {};
  const ghostOut = {};
  for (const [value, list] of occupants) {
    const g = byValue.get(value);
    const offs = slotOffsets(list.length);
    list.forEach((item, k) => {
      const p = { x: round2(g.x + offs[k].dx), y: round2(g.y + offs[k].dy), building: value };
      (item.ghost ? ghostOut : agents)[item.colour] = p;
    });
  }
  return { agents, ghosts: ghostOut };
}

/**
 * The scoring track 0..finish around the edge of the board (a square), clockwise from
 * the top-left corner. Returns [{score, x, y, nx, ny, mark, finish}] where (nx, ny) is
 * the unit normal pointing into the board.
 */
export function trackGeometry(opts = {}) {
  const o = { ...BOARD, finish: FINISH, mark: DOSSIER_MARK, ...opts };
  const lo = o.trackInset;
  const side = o.size - 2 * o.trackInset;
  const n = o.finish + 1;
  const spacing = (4 * side) / n;
  const out = [];
  for (let s = 0; s < n; s++) {
    const d = s * spacing;
    const edge = Math.min(3, Math.floor(d / side));
    const t = d - edge * side;
    let x, y, nx, ny;
    if (edge === 0) [x, y, nx, ny] = [lo + t, lo, 0, 1];
    else if (edge === 1) [x, y, nx, ny] = [lo + side, lo + t, -1, 0];
    else if (edge === 2) [x, y, nx, ny] = [lo + side - t, lo + side, 0, -1];
    else [x, y, nx, ny] = [lo, lo + side - t, 1, 0];
    out.push({ score: s, x: round2(x), y: round2(y), nx, ny, mark: s === o.mark, finish: s === o.finish });
  }
  return out;
}

/** Clamp a score to a track space 0..finish (scores past the finish sit on the finish). */
export function trackSpace(score, finish = FINISH) {
  const s = Number.isFinite(score) ? Math.trunc(score) : 0;
  return Math.max(0, Math.min(finish, s));
}

/**
 * Scoring markers: colour -> {x, y, score, space}. Markers sit just inside the track,
 * several on one space in rows of two going inwards. The markers on 0 stand beside the
 * finish's space (its neighbour on the track), towards space 1, so that they never cover it.
 * `opts`: the board's sizes (BOARD, or PROJECTOR_BOARD in projector mode).
 */
export function markerLayout(scores, order, track = trackGeometry(), opts = {}) {
  const { trackSpaceRadius: rt, markerRadius: rm } = { ...BOARD, ...opts };
  const finish = track.length - 1;
  const groups = new Map();
  for (const c of order) {
    const sc = scores ? scores[c] : undefined;
    if (typeof sc !== "number" || !Number.isFinite(sc)) continue;
    const space = trackSpace(sc, finish);
    if (!groups.has(space)) groups.set(space, []);
    groups.get(space).push(c);
  }
  const inward0 = rt + rm + 7;      // the first row, just inside the track
  const rowGap = 2 * rm + 1;
  const colGap = 2 * rm + 2;
  const out = {};
  for (const [space, list] of groups) {
    const t = track[space];
    let tx = -t.ny;
    let ty = t.nx; // tangent
    let shift = 0;
    if (space === 0 && finish > 1) {
      // beside the finish circle (radius rt + 2), not below it: the stack starts towards space 1
      const d = Math.hypot(track[1].x - t.x, track[1].y - t.y) || 1;
      [tx, ty] = [(track[1].x - t.x) / d, (track[1].y - t.y) / d];
      shift = rt + 2 + rm + 3 + (list.length === 1 ? 0 : colGap / 2);
    }
    list.forEach((c, k) => {
      const row = Math.floor(k / 2);
      const col = list.length === 1 ? 0 : (k % 2) - 0.5;
      const inward = inward0 + row * rowGap;
      const along = shift + col * colGap;
      out[c] = {
        x: round2(t.x + t.nx * inward + tx * along),
        y: round2(t.y + t.ny * inward + ty * along),
        score: scores[c],
        space,
      };
    });
  }
  return out;
}

/** Pips of a die face in unit coordinates (-1..1); null for the "1-3" face or no die. */
export function diePips(face) {
  const P = {
    2: [[-0.5, -0.5], [0.5, 0.5]],
    3: [[-0.5, -0.5], [0, 0], [0.5, 0.5]],
    4: [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]],
    5: [[-0.5, -0.5], [0.5, -0.5], [0, 0], [-0.5, 0.5], [0.5, 0.5]],
    6: [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0], [0.5, 0], [-0.5, 0.5], [0.5, 0.5]],
  };
  return P[String(face)] || null;
}

// ---------------------------------------------------------------------------
// Agents and state helpers
// ---------------------------------------------------------------------------

/** Letter, name, fill and ink of an agent entry {colour, name?, letter?}. */
export function agentStyle(agent) {
  const colour = typeof agent === "string" ? agent : agent && agent.colour;
  const info = AGENT_INFO[colour] || {};
  const name = (agent && agent.name) || info.name || String(colour || "?");
  const letter = (agent && agent.letter) || info.letter || name.charAt(0).toUpperCase() || "?";
  return { colour: String(colour), name, letter, fill: info.fill || "#bbbbbb", ink: info.ink || "#000000" };
}

function asArray(x) {
  return Array.isArray(x) ? x : [];
}

function asObject(x) {
  return x && typeof x === "object" && !Array.isArray(x) ? x : {};
}

/**
 * A defensive copy of the state, merged with the game's fixed setup (the `setup` traitlet:
 * players, agents, ring, track, card names), with every field the renderers read present
 * (arrays default to [], maps to {}). Does not invent information: missing optional parts
 * become null/empty.
 */
export function normaliseState(raw, setup = {}) {
  const s = { ...asObject(setup), ...asObject(raw) };
  const ring = asArray(s.ring).filter((b) => b && Number.isInteger(b.value));
  const move = asObject(s.move);
  let agents = asArray(s.agents).filter((a) => a && typeof a.colour === "string");
  if (!agents.length) {
    const cols = Object.keys(asObject(s.positions));
    cols.sort((a, b) => COLOUR_ORDER.indexOf(a) - COLOUR_ORDER.indexOf(b));
    agents = cols.map((c) => ({ colour: c }));
  }
  agents = agents.map((a) => {
    const st = agentStyle(a);
    return { colour: st.colour, name: st.name, letter: st.letter };
  });
  return {
    ...s,
    viewer: s.viewer == null ? null : String(s.viewer),
    view_label: s.view_label == null ? "" : String(s.view_label),
    players: asArray(s.players).map(String),
    agents,
    positions: asObject(s.positions),
    scores: asObject(s.scores),
    ring,
    safe: ring.some((b) => b.value === s.safe) ? s.safe : null,
    dossier_mark: Number.isInteger(s.dossier_mark) ? s.dossier_mark : DOSSIER_MARK,
    finish: Number.isInteger(s.finish) && s.finish > 0 ? s.finish : FINISH,
    die: s.die == null ? null : String(s.die),
    points: Number.isInteger(s.points) ? s.points : null,
    current_player: s.current_player == null ? null : String(s.current_player),
    phase: s.phase == null ? "" : String(s.phase),
    decision_text: s.decision_text == null ? "" : String(s.decision_text),
    banner: s.banner == null ? "" : String(s.banner),
    identity: s.identity == null ? "" : String(s.identity),
    last_moves: asObject(s.last_moves),
    since_last_turn: asArray(s.since_last_turn).map(String),
    result: s.result && typeof s.result === "object" && Array.isArray(s.result.rows) ? s.result : null,
    is_human_turn: s.is_human_turn === true,
    decisions: asArray(s.decisions).filter((d) => d && typeof d.notation === "string" && typeof d.group === "string"),
    move: Number.isInteger(move.points) && move.agents && typeof move.agents === "object" ? move : null,
    own_agents: asArray(s.own_agents).map(String),
    owners: s.owners && typeof s.owners === "object" ? s.owners : null,
    hand: Array.isArray(s.hand) ? s.hand.map(String) : null,
    card_names: asObject(s.card_names),
    hand_sizes: s.hand_sizes && typeof s.hand_sizes === "object" ? s.hand_sizes : null,
    top_secret: s.top_secret === true,
    dossier: s.dossier === true,
    triggers: asArray(s.triggers).map(String),
    log: asArray(s.log).map(String),
    last_move: asObject(s.last_move),
    curtain: s.curtain == null || s.curtain === false ? null : String(s.curtain),
    autoplay: s.autoplay && typeof s.autoplay === "object" ? s.autoplay : null,
    replay: s.replay && typeof s.replay === "object" && Number.isFinite(s.replay.length) ? s.replay : null,
    winners: Array.isArray(s.winners) ? s.winners.map(String) : null,
    result_text: s.result_text == null ? "" : String(s.result_text),
    error: s.error == null || s.error === false ? "" : String(s.error),
    belief: s.belief && typeof s.belief === "object" ? s.belief : null,
    dossier_sheet: s.dossier_sheet && typeof s.dossier_sheet === "object" && !Array.isArray(s.dossier_sheet) ? s.dossier_sheet : null,
  };
}

/** Agent colours in display order. */
export function agentOrder(state) {
  return asArray(state && state.agents).map((a) => (typeof a === "string" ? a : a.colour));
}

/**
 * Owners as colour -> player. Accepts {colour: player} or {player: [colours]}
 * (the engine's shape). Null stays null.
 */
export function ownersByAgent(owners) {
  if (!owners || typeof owners !== "object") return null;
  const out = {};
  for (const [k, v] of Object.entries(owners)) {
    if (Array.isArray(v)) for (const c of v) out[String(c)] = k;
    else if (v !== undefined) out[k] = v === null ? "free" : String(v);
  }
  return out;
}

/** Animation duration: state.autoplay.speed_ms, else the model's speed_ms, else 300; clamped to SPEED_RANGE. */
export function animationMs(state, modelSpeed) {
  const cands = [state && state.autoplay && state.autoplay.speed_ms, modelSpeed];
  for (const c of cands) {
    if (typeof c === "number" && Number.isFinite(c)) return clampSpeed(c);
  }
  return DEFAULT_SPEED_MS;
}

// ---------------------------------------------------------------------------
// Allocation (move phase)
// ---------------------------------------------------------------------------

/** Total steps in an allocation {colour: steps}. */
export function allocationTotal(alloc) {
  let t = 0;
  for (const v of Object.values(alloc || {})) t += Number.isFinite(v) ? v : 0;
  return t;
}

/** Add one step for `colour` if points remain; returns a new allocation (or the same object if not allowed). */
export function addStep(alloc, colour, points) {
  if (!Number.isInteger(points) || allocationTotal(alloc) >= points) return alloc;
  return { ...alloc, [colour]: (alloc[colour] || 0) + 1 };
}

/** Remove one step from `colour` if it has any; returns a new allocation (or the same object). */
export function removeStep(alloc, colour) {
  const n = alloc[colour] || 0;
  if (n <= 0) return alloc;
  const next = { ...alloc };
  if (n === 1) delete next[colour];
  else next[colour] = n - 1;
  return next;
}

/** Set `colour`'s steps to n, clamped to 0..(points left for it). */
export function setSteps(alloc, colour, n, points) {
  const others = allocationTotal(alloc) - (alloc[colour] || 0);
  const max = Math.max(0, (Number.isInteger(points) ? points : 0) - others);
  const v = Math.max(0, Math.min(max, Math.trunc(Number(n) || 0)));
  const next = { ...alloc };
  if (v === 0) delete next[colour];
  else next[colour] = v;
  return next;
}

/**
 * Confirmable: whole steps >= 0 for agents of the move table, at least one step, exactly
 * `move.points` in all (Python says every such split is legal: see state.py allocation_table).
 */
export function isLegalAllocation(alloc, move) {
  if (!move || !Number.isInteger(move.points) || move.points < 1) return false;
  const entries = Object.entries(alloc || {});
  if (!entries.every(([c, v]) => Number.isInteger(v) && v >= 0 && (v === 0 || c in move.agents))) return false;
  const total = allocationTotal(alloc);
  return total >= 1 && total === move.points;
}

/** Notation of an allocation: "move red+2 blue+3" (agents in `order`, only with steps); null if none. */
export function allocationNotation(alloc, order) {
  const parts = [];
  for (const c of order) {
    const n = alloc && alloc[c];
    if (Number.isInteger(n) && n > 0) parts.push(`${c}+${n}`);
  }
  return parts.length ? `move ${parts.join(" ")}` : null;
}

/** Preview: colour -> landing building, for agents with steps > 0 (from the move table's `to`). */
export function previewLandings(move, alloc) {
  const out = {};
  if (!move) return out;
  for (const [c, n] of Object.entries(alloc || {})) {
    const to = move.agents[c] && move.agents[c].to;
    if (n > 0 && Array.isArray(to) && n < to.length) out[c] = to[n];
  }
  return out;
}

/** Agents (in `order`) whose previewed move creates a scoring (the move table's `scores`). */
export function scoringAgents(move, alloc, order) {
  if (!move) return [];
  return order.filter((c) => {
    const n = alloc && alloc[c];
    const sc = move.agents[c] && move.agents[c].scores;
    return n > 0 && Array.isArray(sc) && sc[n] === true;
  });
}

/** Points to allocate now: the move table's points; null if no move decision. */
export function movePoints(state) {
  const m = state.move;
  return m && Number.isInteger(m.points) && m.points > 0 ? m.points : null;
}

// ---------------------------------------------------------------------------
// Decisions: grouping and building clicks (Python sends each one ready to show)
// ---------------------------------------------------------------------------

/**
 * The decisions in their groups, in Python's order: [{key, kind, title, actions}] where kind is
 * the part of the group key before ":" (points, safe, announce, play, dossier, roll, other).
 */
export function groupDecisions(decisions) {
  const groups = new Map();
  for (const d of decisions || []) {
    if (!groups.has(d.group)) groups.set(d.group, { key: d.group, kind: String(d.group).split(":")[0], title: d.title, actions: [] });
    groups.get(d.group).actions.push(d);
  }
  return [...groups.values()];
}

/** The card groups of the decisions (a Top Secret round), in the order shown: the card keys 1, 2, ... */
export function cardGroups(decisions) {
  return groupDecisions(decisions).filter((g) => g.kind === "play");
}

/**
 * Buildings clickable on the board: value -> notation. The safe's moves if any are offered,
 * else the other decisions that name a building (the placesafe card).
 */
export function buildingActions(decisions) {
  const named = (decisions || []).filter((d) => d.building !== undefined && d.building !== null);
  const safe = named.filter((d) => d.kind === "safe");
  return new Map((safe.length ? safe : named).map((d) => [d.building, d.notation]));
}

/** What a card would do, in words: "Jaques 5 \u2192 6, safe 7 \u2192 4, Doyle +3" (names from `labels`). */
export function effectText(effect, names = {}, ring = []) {
  if (!effect) return "";
  const nm = (c) => names[c] || c;
  const b = (v) => buildingLabel(ring, v);
  const parts = Object.entries(effect.moves || {}).map(([c, [f, t]]) => `${nm(c)} ${b(f)} \u2192 ${b(t)}`);
  if (effect.safe) parts.push(`safe ${b(effect.safe[0])} \u2192 ${b(effect.safe[1])}`);
  for (const [c, g] of Object.entries(effect.gains || {})) parts.push(`${nm(c)} +${g}`);
  return parts.join(", ");
}

// ---------------------------------------------------------------------------
// Belief panel helpers
// ---------------------------------------------------------------------------

/** Background of a heatmap cell for probability p (single hue, light = 0, dark = 1). */
export function heatFill(p) {
  const q = Number.isFinite(p) ? Math.max(0, Math.min(1, p)) : 0;
  const light = Math.round(97 - 62 * q);
  return `hsl(210, 70%, ${light}%)`;
}

/** Text colour readable on heatFill(p): the one with the higher contrast, at least 4.5:1 (WCAG AA) everywhere. */
export function heatInk(p) {
  return Number.isFinite(p) && p > 0.8 ? "#ffffff" : "#111111";
}

/**
 * Probability printed in a cell: two decimals, but no false certainty (">0.99", "<0.01"); 0 and 1 only when
 * exact (heimlich_lab.svg.probability_label says the same); "\u2013" if not a number.
 */
export function formatProb(p) {
  if (!Number.isFinite(p)) return "\u2013";
  if (p <= 1e-9) return "0";
  if (p >= 1 - 1e-9) return "1";
  if (p < 0.01) return "<0.01";
  if (p > 0.99) return ">0.99";
  return p.toFixed(2);
}

/** The turn banner in two lines: whose turn (and the roll), then who decides what ("Bob: play a card?"). */
export function bannerLines(banner) {
  const text = String(banner || "");
  const m = text.match(/^(.*?\))(?:[.:] )(.*)$/) || text.match(/^(.*?)(?:\. |: )(.*)$/);
  return m ? [m[1], m[2]] : [text, ""];
}

/**
 * A card option's preview (`notation` of a decision with an `effect`): the agents' landings (colour ->
 * building) for the ghosts, and the safe's move if any; null for a decision without an effect.
 */
export function cardPreview(decisions, notation) {
  const d = (decisions || []).find((x) => x.notation === notation);
  if (!d || !d.effect) return null;
  const landings = {};
  for (const [c, ft] of Object.entries(d.effect.moves || {})) if (Array.isArray(ft)) landings[c] = ft[1];
  return { notation, landings, safe: Array.isArray(d.effect.safe) ? d.effect.safe[1] : null };
}

/** SVG path of an arrow from building `a` to building `b` ({x, y}), bent towards the board's centre. */
export function arrowPath(a, b, opts = {}) {
  const { s, q, e } = arrowCurve(a, b, opts);
  return `M${round2(s.x)},${round2(s.y)} Q${round2(q.x)},${round2(q.y)} ${round2(e.x)},${round2(e.y)}`;
}

/** An arrow's quadratic curve: start s, control q (bent towards the centre), end e. */
function arrowCurve(a, b, opts = {}) {
  const { cx, cy } = { ...BOARD, ...opts };
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const q = { x: mx + (cx - mx) * 0.45, y: my + (cy - my) * 0.45 };
  // start and end at the buildings' inner edges, not their centres
  const pull = (p, k) => ({ x: p.x + (q.x - p.x) * k, y: p.y + (q.y - p.y) * k });
  return { s: pull(a, 0.3), q, e: pull(b, 0.3) };
}

/** The middle of an arrow (the quadratic curve of arrowPath at t = 1/2), where the agent's letter goes. */
export function arrowMiddle(a, b, opts = {}) {
  const { s, q, e } = arrowCurve(a, b, opts);
  return { x: round2(0.25 * s.x + 0.5 * q.x + 0.25 * e.x), y: round2(0.25 * s.y + 0.5 * q.y + 0.25 * e.y) };
}

/** Polyline points "x,y x,y" for a sparkline of `values` in a width x height box (y from 0 to max). */
export function sparklinePoints(values, width = 160, height = 40, pad = 3) {
  const vals = (values || []).filter((v) => Number.isFinite(v));
  if (!vals.length) return "";
  const max = Math.max(...vals, 0);
  const min = Math.min(0, ...vals);
  const span = max - min || 1;
  const n = vals.length;
  const xs = n === 1 ? [pad, width - pad] : vals.map((_, i) => pad + (i * (width - 2 * pad)) / (n - 1));
  const ys = vals.map((v) => height - pad - ((v - min) / span) * (height - 2 * pad));
  const pts = n === 1 ? [[xs[0], ys[0]], [xs[1], ys[0]]] : xs.map((x, i) => [x, ys[i]]);
  return pts.map(([x, y]) => `${round2(x)},${round2(y)}`).join(" ");
}

// ---------------------------------------------------------------------------
// UI state, keyboard, clicks
// ---------------------------------------------------------------------------

/** Fresh local UI state: the allocation being built, the selected agent, pending send. */
export function initialUi() {
  return { alloc: {}, selected: null, pending: false, preview: null };
}

/**
 * A key naming the current decision; when it changes the local allocation is reset.
 */
export function decisionKey(state) {
  return JSON.stringify([
    state.viewer, state.current_player, state.phase, state.die, state.points, movePoints(state),
    state.positions, state.safe, (state.log || []).length, state.replay && state.replay.index,
    state.curtain, (state.decisions || []).length,
  ]);
}

/**
 * What the controls offer now: "curtain" (curtain up), "none" (not the viewer's
 * decision), "move" (allocation editor), "roll" (the Roll button), "points", "announce" or "actions".
 */
export function uiMode(state) {
  if (state.curtain) return "curtain";
  if (!state.is_human_turn) return "none";
  if (movePoints(state)) return "move";
  const kinds = new Set((state.decisions || []).map((d) => d.kind));
  if (kinds.has("roll")) return "roll";
  if (kinds.has("points")) return "points";
  if (kinds.has("announce")) return "announce";
  return "actions";
}

/** Everything the command reducer needs about the state. */
export function uiContext(state) {
  return {
    mode: uiMode(state),
    order: agentOrder(state),
    agents: state.agents || [],
    points: movePoints(state),
    move: state.move || null,
    decisions: state.decisions || [],
    replay: state.replay || null,
  };
}

/**
 * Keyboard: a key (KeyboardEvent.key) -> command, or null if the key does nothing now.
 * - roll, points and announce modes: a decision's own key (Python's `key`: r, a digit, y / n);
 *   in roll mode Enter and space roll too
 * - move mode: ArrowRight/ArrowDown next agent, ArrowLeft/ArrowUp previous, an agent's
 *   letter selects it, + or = adds a step, - removes one, digits set the selected
 *   agent's steps, Enter confirms, Escape resets, Backspace removes a step
 * - any mode with a replay: "[" and "]" step the replay back / forward
 */
export function keyCommand(key, ctx) {
  if (typeof key !== "string") return null;
  if (ctx.replay && (key === "[" || key === "]")) return { type: "replay-step", delta: key === "[" ? -1 : 1 };
  if (ctx.mode === "roll" || ctx.mode === "points" || ctx.mode === "announce") {
    const k = ctx.mode === "roll" && (key === "Enter" || key === " ") ? "r" : key.toLowerCase();
    const d = (ctx.decisions || []).find((x) => x.key === k);
    return d ? { type: "send", action: d.notation } : null;
  }
  if (ctx.mode === "actions" && key.length === 1) {
    // a decision that names its own key (Pass X, Done D, Draw Y / Don't draw N)
    const d = (ctx.decisions || []).find((x) => x.key && x.key === key.toLowerCase());
    if (d) return { type: "send", action: d.notation };
    // the cards in hand: 1, 2, ... in the order shown; a card with one way to play it is played, else its
    // first option gets the focus (Tab and Enter choose among its targets)
    const card = /^[1-9]$/.test(key) ? cardGroups(ctx.decisions)[Number(key) - 1] : null;
    if (card) return card.actions.length === 1 ? { type: "send", action: card.actions[0].notation } : { type: "focus", action: card.actions[0].notation };
  }
  if (ctx.mode !== "move") return null;
  if (key === "ArrowRight" || key === "ArrowDown") return { type: "select", delta: 1 };
  if (key === "ArrowLeft" || key === "ArrowUp") return { type: "select", delta: -1 };
  if (key === "+" || key === "=" || key === "Add") return { type: "add" };
  if (key === "-" || key === "_" || key === "Subtract" || key === "Backspace") return { type: "remove" };
  if (key === "Enter") return { type: "confirm" };
  if (key === "Escape") return { type: "reset" };
  if (/^\d$/.test(key)) return { type: "set", n: Number(key) };
  if (/^[a-z]$/i.test(key)) {
    for (const a of ctx.agents || []) {
      if (agentStyle(a).letter.toLowerCase() === key.toLowerCase()) return { type: "select", colour: a.colour };
    }
  }
  return null;
}

/**
 * A click on an element with data-* attributes -> command, or null.
 * data: {action, command, step, target, agent, buildingAction, control, curtain, replayStep}
 */
export function clickCommand(data, ctx) {
  if (!data) return null;
  if (data.curtain === "reveal") return { type: "curtain" };
  if (data.control === "step" || data.control === "play" || data.control === "pause") return { type: "control", command: data.control };
  if (data.replayStep !== undefined && data.replayStep !== null) {
    const d = data.replayStep;
    if (d === "first" || d === "last") return { type: "replay-jump", to: d };
    return { type: "replay-step", delta: Number(d) || 0 };
  }
  if (data.action) return { type: "send", action: data.action };
  if (data.command === "confirm") return { type: "confirm" };
  if (data.command === "reset") return { type: "reset" };
  if (data.step && data.target) return { type: data.step.startsWith("-") ? "remove" : "add", colour: data.target };
  if (data.buildingAction) return { type: "send", action: data.buildingAction };
  if (data.agent && ctx && ctx.mode === "move") return { type: "add", colour: data.agent };
  return null;
}

/** Last replay position: positions are 0..length-1 (length = number of positions). */
export function replayLast(replay) {
  return Math.max(0, Math.trunc(Number(replay.length) || 0) - 1);
}

function clampIndex(i, replay) {
  const max = replayLast(replay);
  return Math.max(0, Math.min(max, Math.trunc(i)));
}

/**
 * Apply a command to the local UI state. Returns {ui, message} where message is what
 * to model.send (or null). Never sends an action that is not allowed now.
 */
export function applyCommand(ui, cmd, ctx) {
  if (!cmd) return { ui, message: null };
  const order = ctx.order || [];
  const busy = ui.pending;
  switch (cmd.type) {
    case "send": {
      if (busy || ctx.mode === "curtain" || ctx.mode === "none") return { ui, message: null };
      if (!(ctx.decisions || []).some((d) => d.notation === cmd.action)) return { ui, message: null };
      return { ui: { ...ui, alloc: {}, pending: true }, message: { type: "action", action: cmd.action } };
    }
    case "confirm": {
      if (busy || ctx.mode !== "move" || !isLegalAllocation(ui.alloc, ctx.move)) return { ui, message: null };
      const action = allocationNotation(ui.alloc, order);
      return { ui: { ...ui, alloc: {}, pending: true }, message: { type: "action", action } };
    }
    case "reset":
      return { ui: { ...ui, alloc: {} }, message: null };
    case "preview":   // a card option hovered or focused (null: none)
      return { ui: { ...ui, preview: cmd.action || null }, message: null };
    case "add":
    case "remove":
    case "set": {
      if (ctx.mode !== "move" || !order.length) return { ui, message: null };
      const colour = cmd.colour || ui.selected || order[0];
      if (!order.includes(colour)) return { ui, message: null };
      let alloc = ui.alloc;
      if (cmd.type === "add") alloc = addStep(alloc, colour, ctx.points);
      else if (cmd.type === "remove") alloc = removeStep(alloc, colour);
      else alloc = setSteps(alloc, colour, cmd.n, ctx.points);
      return { ui: { ...ui, alloc, selected: colour }, message: null };
    }
    case "select": {
      if (!order.length) return { ui, message: null };
      if (cmd.colour) return { ui: order.includes(cmd.colour) ? { ...ui, selected: cmd.colour } : ui, message: null };
      const i = order.indexOf(ui.selected);
      const next = i < 0 ? (cmd.delta > 0 ? 0 : order.length - 1) : mod(i + cmd.delta, order.length);
      return { ui: { ...ui, selected: order[next] }, message: null };
    }
    case "control":
      return { ui, message: cmd.value === undefined ? { type: "control", command: cmd.command } : { type: "control", command: cmd.command, value: cmd.value } };
    case "speed": {
      const v = clampSpeed(cmd.value);
      return Number.isFinite(v) ? { ui, message: { type: "control", command: "speed", value: v } } : { ui, message: null };
    }
    case "curtain":
      return { ui: { ...ui, alloc: {} }, message: { type: "curtain", command: "reveal" } };
    case "replay":
    case "replay-step":
    case "replay-jump": {
      const r = ctx.replay;
      if (!r) return { ui, message: null };
      let index;
      if (cmd.type === "replay") index = Number(cmd.index);
      else if (cmd.type === "replay-step") index = Number(r.index) + cmd.delta;
      else index = cmd.to === "first" ? 0 : replayLast(r);
      if (!Number.isFinite(index)) return { ui, message: null };
      index = clampIndex(index, r);
      if (index === r.index && cmd.type !== "replay") return { ui, message: null };
      return { ui, message: { type: "replay", index } };
    }
    default:
      return { ui, message: null };
  }
}
