// heimlich-lab board widget: pure logic (no DOM). Used by render.js and board.js,
// unit-tested by widgets/tests/*.test.mjs.
//
// Bundling convention (see build.mjs): only `export function|const|let|class NAME`,
// no `export {...}`, no `export default`, imports on one line from "./x.js".

// ---------------------------------------------------------------------------
// Board constants
// ---------------------------------------------------------------------------

/** Building values clockwise from the Church (ring index 0..11). */
export const BUILDING_VALUES = Object.freeze([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3]);
export const N_BUILDINGS = 12;
export const CHURCH = 0;
export const RUINS = -3;
export const FINISH = 42;
export const DOSSIER_MARK = 29;
export const DEFAULT_SPEED_MS = 300;
/** The autoplay pace (ms per bot step): the speed slider's range, the same as the kernel's
 * (heimlich_lab/widget/board.py SPEED_MIN_MS, SPEED_MAX_MS, SPEED_STEP_MS; a test checks they agree). */
export const SPEED_RANGE = Object.freeze({ min: 0, max: 2000, step: 50 });

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
  agentRadius: 11,
  agentSpacing: 24,
  agentRowGap: 22,
  trackInset: 26,
  trackSpaceRadius: 12,
  markerRadius: 8,
});

function mod(a, n) {
  return ((a % n) + n) % n;
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

// ---------------------------------------------------------------------------
// Buildings: value <-> index, names
// ---------------------------------------------------------------------------

/** Ring index (0..11) of a building value (0 church, 1..10, -3 ruins). Throws on other values. */
export function indexOfValue(value) {
  const v = typeof value === "string" ? Number(value) : value;
  const i = BUILDING_VALUES.indexOf(v);
  if (i < 0) throw new RangeError(`no building has value ${JSON.stringify(value)}; buildings are 0 (church), 1..10 and -3 (ruins)`);
  return i;
}

/** Building value at a ring index (taken modulo 12). */
export function valueOfIndex(index) {
  if (!Number.isInteger(index)) throw new RangeError(`ring index must be an integer, not ${JSON.stringify(index)}`);
  return BUILDING_VALUES[mod(index, N_BUILDINGS)];
}

/** True if `value` is a building value. */
export function isBuilding(value) {
  return typeof value === "number" && BUILDING_VALUES.includes(value);
}

/** Notation name of a building: "church", "ruins" or the number. */
export function buildingName(value) {
  if (value === CHURCH) return "church";
  if (value === RUINS) return "ruins";
  return String(value);
}

/** Display label of a building. */
export function buildingLabel(value) {
  if (value === CHURCH) return "Church";
  if (value === RUINS) return "Ruins";
  return String(value);
}

/** Parse "church" | "ruins" | "0".."10" | "-3" to a building value; null if not a building. */
export function parseBuilding(text) {
  const t = String(text).trim().toLowerCase();
  if (t === "church") return CHURCH;
  if (t === "ruins") return RUINS;
  if (!/^-?\d+$/.test(t)) return null;
  const v = Number(t);
  return isBuilding(v) ? v : null;
}

/** Building value reached from `value` after `steps` steps clockwise. */
export function landingValue(value, steps) {
  return valueOfIndex(indexOfValue(value) + steps);
}

// ---------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------

/**
 * The 12 buildings on a circle, index 0 (Church) at the top, clockwise.
 * Returns [{index, value, name, label, x, y, angle}] (angle in degrees, 0 = east, y down).
 */
export function ringGeometry(opts = {}) {
  const { cx, cy, ringRadius } = { ...BOARD, ...opts };
  return BUILDING_VALUES.map((value, index) => {
    const angle = -90 + (360 / N_BUILDINGS) * index;
    const rad = (angle * Math.PI) / 180;
    return {
      index,
      value,
      name: buildingName(value),
      label: buildingLabel(value),
      x: round2(cx + ringRadius * Math.cos(rad)),
      y: round2(cy + ringRadius * Math.sin(rad)),
      angle,
    };
  });
}

/** Map building value -> geometry entry. */
export function geometryByValue(geometry = ringGeometry()) {
  const m = new Map();
  for (const g of geometry) m.set(g.value, g);
  return m;
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
export function agentLayout(positions, order, ghosts = {}, geometry = ringGeometry()) {
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
 * several on one space in rows of two going inwards.
 */
export function markerLayout(scores, order, track = trackGeometry()) {
  const finish = track.length - 1;
  const groups = new Map();
  for (const c of order) {
    const sc = scores ? scores[c] : undefined;
    if (typeof sc !== "number" || !Number.isFinite(sc)) continue;
    const space = trackSpace(sc, finish);
    if (!groups.has(space)) groups.set(space, []);
    groups.get(space).push(c);
  }
  const out = {};
  for (const [space, list] of groups) {
    const t = track[space];
    const tx = -t.ny;
    const ty = t.nx; // tangent
    list.forEach((c, k) => {
      const row = Math.floor(k / 2);
      const col = list.length === 1 ? 0 : (k % 2) - 0.5;
      const inward = 22 + row * 16;
      const along = col * 17;
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
 * A defensive copy of the state with every field the renderers read present
 * (arrays default to [], maps to {}). Does not invent information: missing
 * optional parts become null/empty.
 */
export function normaliseState(raw) {
  const s = asObject(raw);
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
    safe: isBuilding(s.safe) ? s.safe : null,
    dossier_mark: Number.isInteger(s.dossier_mark) ? s.dossier_mark : DOSSIER_MARK,
    finish: Number.isInteger(s.finish) && s.finish > 0 ? s.finish : FINISH,
    die: s.die == null ? null : String(s.die),
    points: Number.isInteger(s.points) ? s.points : null,
    current_player: s.current_player == null ? null : String(s.current_player),
    phase: s.phase == null ? "" : String(s.phase),
    decision_text: s.decision_text == null ? "" : String(s.decision_text),
    is_human_turn: s.is_human_turn === true,
    legal: asArray(s.legal).filter((a) => typeof a === "string"),
    move_points: Number.isInteger(s.move_points) ? s.move_points : null,
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

/** Legal allocation: whole steps >= 0, at least one step, total exactly `points`. */
export function isLegalAllocation(alloc, points) {
  if (!Number.isInteger(points) || points < 1) return false;
  const vals = Object.values(alloc || {});
  if (!vals.every((v) => Number.isInteger(v) && v >= 0)) return false;
  const total = allocationTotal(alloc);
  return total >= 1 && total === points;
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

/** Parse "move red+2 blue+3" -> {red: 2, blue: 3}; null if not a move. */
export function parseMove(text) {
  const words = String(text).trim().split(/\s+/);
  if (words[0] !== "move" || words.length < 2) return null;
  const out = {};
  for (const w of words.slice(1)) {
    const m = /^([a-z]+)\+(\d+)$/.exec(w);
    if (!m || out[m[1]] !== undefined) return null;
    out[m[1]] = Number(m[2]);
  }
  return out;
}

/** Preview: colour -> landing building value, for agents with steps > 0. */
export function previewLandings(positions, alloc) {
  const out = {};
  for (const [c, n] of Object.entries(alloc || {})) {
    if (!(n > 0) || !isBuilding(positions && positions[c])) continue;
    out[c] = landingValue(positions[c], n);
  }
  return out;
}

/** Agents (in `order`, or allocation order) whose previewed move lands on the safe's building. */
export function scoringAgents(positions, alloc, safe, order = null) {
  if (!isBuilding(safe)) return [];
  const land = previewLandings(positions, alloc);
  const cols = order ? order.filter((c) => c in land) : Object.keys(land);
  return cols.filter((c) => land[c] === safe);
}

/** Does the previewed allocation create a scoring situation (an agent that moves lands on the safe)? */
export function createsScoring(positions, alloc, safe) {
  return scoringAgents(positions, alloc, safe).length > 0;
}

/** The move notations in a legal list, normalised to `order`. */
export function legalMoves(legal, order) {
  const out = new Set();
  for (const a of legal || []) {
    const m = parseMove(a);
    if (m) out.add(allocationNotation(m, order) || a);
  }
  return out;
}

/** Points to allocate now: state.move_points, else the size of the legal moves; null if no move decision. */
export function movePoints(state) {
  if (Number.isInteger(state.move_points) && state.move_points > 0) return state.move_points;
  for (const a of state.legal || []) {
    const m = parseMove(a);
    if (m) return allocationTotal(m);
  }
  return null;
}

/** Confirmable: a legal allocation, and (when the legal list names moves) one of them. */
export function allocationAllowed(alloc, points, order, legal) {
  if (!isLegalAllocation(alloc, points)) return false;
  const note = allocationNotation(alloc, order);
  if (!note) return false;
  // every allocated agent must be one of the agents in play
  if (Object.keys(alloc).some((c) => alloc[c] > 0 && !order.includes(c))) return false;
  const moves = legalMoves(legal, order);
  return moves.size === 0 || moves.has(note);
}

// ---------------------------------------------------------------------------
// Legal actions: parsing, labels, grouping
// ---------------------------------------------------------------------------

/** Parse one action notation into {kind, ...}; unknown forms give {kind: "other"}. */
export function parseAction(text) {
  const notation = String(text).trim();
  const words = notation.split(/\s+/);
  const k = words[0];
  const rest = words.slice(1);
  if (k === "roll" && rest.length === 0) return { kind: "roll", notation };
  if (k === "points" && rest.length === 1 && /^\d+$/.test(rest[0])) return { kind: "points", notation, n: Number(rest[0]) };
  if (k === "move") {
    const steps = parseMove(notation);
    if (steps) return { kind: "move", notation, steps };
  }
  if (k === "safe" && rest.length === 1) {
    const b = parseBuilding(rest[0]);
    if (b !== null) return { kind: "safe", notation, building: b };
  }
  if (k === "announce" && rest.length === 1 && (rest[0] === "yes" || rest[0] === "no")) {
    return { kind: "announce", notation, yes: rest[0] === "yes" };
  }
  if (k === "play" && rest.length >= 1) return { kind: "play", notation, card: rest[0], targets: rest.slice(1) };
  if ((k === "pass" || k === "done") && rest.length === 0) return { kind: k, notation };
  if (k === "dossier" && rest.length === 1 && rest[0].split("=").length === 2) {
    const [agent, name] = rest[0].split("=");
    return { kind: "dossier", notation, agent, name };
  }
  return { kind: "other", notation };
}

function targetLabel(t) {
  const m = /^([a-z]+)([+-]\d+)$/.exec(t);
  if (m) return `${m[1]} ${m[2].replace("-", "\u2212")}`;
  const b = parseBuilding(t);
  if (b !== null && /^(church|ruins|-?\d+)$/.test(t)) return buildingLabel(b);
  return t;
}

/** Short button label for an action. */
export function actionLabel(text) {
  const a = parseAction(text);
  switch (a.kind) {
    case "roll": return "Roll the die";
    case "points": return String(a.n);
    case "safe": return buildingLabel(a.building);
    case "announce": return a.yes ? "Yes" : "No";
    case "play": return a.targets.length ? a.targets.map(targetLabel).join(a.card === "swap" ? " \u2194 " : a.card === "join" ? " \u2192 " : ", ") : "Play";
    case "pass": return "Pass";
    case "done": return "Done";
    case "dossier": return a.name;
    case "move": return a.notation.slice(5);
    default: return a.notation;
  }
}

/**
 * Group legal actions for the UI. Move actions are left out (the allocation editor
 * handles them). Groups, in this order: points, safe, announce, one per card (in
 * order of first appearance), one per dossier agent (in agent order), then other
 * (pass, done, unknown). A "roll" (a human rolls the die by clicking) comes first. Each group: {key, kind, title, actions: [{notation, label}]}.
 */
export function groupLegalActions(legal, opts = {}) {
  const cardNames = opts.cardNames || {};
  const order = opts.order || [];
  const names = {};
  for (const a of opts.agents || []) names[a.colour] = agentStyle(a).name;
  const groups = new Map();
  const add = (key, kind, title, item) => {
    if (!groups.has(key)) groups.set(key, { key, kind, title, actions: [] });
    const g = groups.get(key);
    if (!g.actions.some((x) => x.notation === item.notation)) g.actions.push(item);
  };
  for (const text of legal || []) {
    const a = parseAction(text);
    const item = { notation: a.notation, label: actionLabel(a.notation) };
    if (a.kind === "move") continue;
    if (a.kind === "roll") add("roll", "roll", "Die", item);
    else if (a.kind === "points") add("points", "points", "Points", item);
    else if (a.kind === "safe") add("safe", "safe", "Move the safe to", item);
    else if (a.kind === "announce") add("announce", "announce", "Announce?", item);
    else if (a.kind === "play") {
      const nm = cardNames[a.card];
      add(`play:${a.card}`, "play", nm ? `${nm} (${a.card})` : a.card, item);
    } else if (a.kind === "dossier") {
      const nm = names[a.agent] || (AGENT_INFO[a.agent] && AGENT_INFO[a.agent].name);
      add(`dossier:${a.agent}`, "dossier", `Dossier: ${nm ? `${nm} (${a.agent})` : a.agent}`, item);
    } else add("other", "other", "Other", item);
  }
  const rank = (g) => {
    if (g.kind === "roll") return [-1, 0];
    if (g.kind === "points") return [0, 0];
    if (g.kind === "safe") return [1, 0];
    if (g.kind === "announce") return [2, 0];
    if (g.kind === "play") return [3, 0];
    if (g.kind === "dossier") {
      const i = order.indexOf(g.key.slice(8));
      return [4, i < 0 ? 99 : i];
    }
    return [5, 0];
  };
  const list = [...groups.values()];
  const idx = new Map(list.map((g, i) => [g, i]));
  list.sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    return ra[0] - rb[0] || ra[1] - rb[1] || idx.get(a) - idx.get(b);
  });
  for (const g of list) {
    if (g.kind === "points") g.actions.sort((a, b) => Number(a.label) - Number(b.label));
    if (g.kind === "safe") g.actions.sort((a, b) => indexOfValue(parseAction(a.notation).building) - indexOfValue(parseAction(b.notation).building));
    if (g.kind === "announce") g.actions.sort((a, b) => (a.label === "Yes" ? 0 : 1) - (b.label === "Yes" ? 0 : 1));
  }
  return list;
}

/**
 * Buildings clickable on the board: value -> notation. "safe B" if any safe action
 * is legal, else "play placesafe B".
 */
export function buildingActions(legal) {
  const safe = new Map();
  const place = new Map();
  for (const text of legal || []) {
    const a = parseAction(text);
    if (a.kind === "safe") safe.set(a.building, a.notation);
    else if (a.kind === "play" && a.card === "placesafe" && a.targets.length === 1) {
      const b = parseBuilding(a.targets[0]);
      if (b !== null) place.set(b, a.notation);
    }
  }
  return safe.size ? safe : place;
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

/** Text colour readable on heatFill(p). */
export function heatInk(p) {
  return Number.isFinite(p) && p > 0.55 ? "#ffffff" : "#111111";
}

/** Probability printed in a cell: two decimals; "\u2013" if not a number. */
export function formatProb(p) {
  return Number.isFinite(p) ? p.toFixed(2) : "\u2013";
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
  return { alloc: {}, selected: null, pending: false };
}

/**
 * A key naming the current decision; when it changes the local allocation is reset.
 */
export function decisionKey(state) {
  return JSON.stringify([
    state.viewer, state.current_player, state.phase, state.die, state.points, state.move_points,
    state.positions, state.safe, (state.log || []).length, state.replay && state.replay.index,
    state.curtain, (state.legal || []).length,
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
  const kinds = new Set((state.legal || []).map((a) => parseAction(a).kind));
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
    legal: state.legal || [],
    replay: state.replay || null,
  };
}

/**
 * Keyboard: a key (KeyboardEvent.key) -> command, or null if the key does nothing now.
 * - roll mode: r, Enter or space -> "roll"
 * - points mode: digits 0-9 -> "points N" (if legal)
 * - move mode: ArrowRight/ArrowDown next agent, ArrowLeft/ArrowUp previous, an agent's
 *   letter selects it, + or = adds a step, - removes one, digits set the selected
 *   agent's steps, Enter confirms, Escape resets, Backspace removes a step
 * - announce mode: y / n
 * - any mode with a replay: "[" and "]" step the replay back / forward
 */
export function keyCommand(key, ctx) {
  if (typeof key !== "string") return null;
  const legal = new Set(ctx.legal || []);
  if (ctx.replay && (key === "[" || key === "]")) return { type: "replay-step", delta: key === "[" ? -1 : 1 };
  if (ctx.mode === "roll") {
    if ((key === "r" || key === "R" || key === "Enter" || key === " ") && legal.has("roll")) return { type: "send", action: "roll" };
    return null;
  }
  if (ctx.mode === "points") {
    if (/^\d$/.test(key) && legal.has(`points ${key}`)) return { type: "send", action: `points ${key}` };
    return null;
  }
  if (ctx.mode === "announce") {
    const k = key.toLowerCase();
    if (k === "y" && legal.has("announce yes")) return { type: "send", action: "announce yes" };
    if (k === "n" && legal.has("announce no")) return { type: "send", action: "announce no" };
    return null;
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
  const legal = ctx.legal || [];
  const busy = ui.pending;
  switch (cmd.type) {
    case "send": {
      if (busy || ctx.mode === "curtain" || ctx.mode === "none") return { ui, message: null };
      if (!legal.includes(cmd.action)) return { ui, message: null };
      return { ui: { ...ui, alloc: {}, pending: true }, message: { type: "action", action: cmd.action } };
    }
    case "confirm": {
      if (busy || ctx.mode !== "move" || !allocationAllowed(ui.alloc, ctx.points, order, legal)) return { ui, message: null };
      const action = allocationNotation(ui.alloc, order);
      return { ui: { ...ui, alloc: {}, pending: true }, message: { type: "action", action } };
    }
    case "reset":
      return { ui: { ...ui, alloc: {} }, message: null };
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
