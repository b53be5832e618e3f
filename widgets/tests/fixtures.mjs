// Sample `setup` and `state` traitlet values for the tests (and widgets/harness.html), in the shapes
// heimlich_lab/games/heimlich/widget/state.py sends (board_setup, board_state, decision_entry, allocation_table).
// The state fixtures carry the setup's fields merged in, as board.js merges them.

export const AGENTS6 = [
  { colour: "grey", name: "Schulz", letter: "S" },
  { colour: "yellow", name: "Perry", letter: "P" },
  { colour: "orange", name: "Bucci", letter: "B" },
  { colour: "red", name: "Jaques", letter: "J" },
  { colour: "green", name: "Mirkov", letter: "M" },
  { colour: "blue", name: "Doyle", letter: "D" },
];

export const AGENTS7 = [...AGENTS6, { colour: "violet", name: "Larsson", letter: "L" }];

/** The ring clockwise from the Church (state.py board_setup). */
export const RING = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3].map((value) => ({
  value,
  name: value === 0 ? "church" : value === -3 ? "ruins" : String(value),
  label: value === 0 ? "Church" : value === -3 ? "Ruins" : String(value),
}));

/** A move table (state.py allocation_table) for `points` from `positions` with the safe on `safe`. */
export function moveTable(positions, points, safe) {
  const values = RING.map((b) => b.value);
  const agents = {};
  for (const [c, from] of Object.entries(positions)) {
    const to = [];
    for (let n = 0; n <= points; n++) to.push(values[(values.indexOf(from) + n) % values.length]);
    agents[c] = { from, to, scores: to.map((b, n) => n > 0 && b === safe) };
  }
  return { points, agents };
}

const POSITIONS = { grey: 0, yellow: 0, orange: 3, red: 5, green: 5, blue: -3 };

/** Decisions as state.py decision_entries sends them. */
const d = (notation, kind, group, title, label, extra = {}) => ({ notation, kind, group, title, label, ...extra });
const CARD = { fwd123: "One agent 1, 2 or 3 forward (fwd123)", tosafe: "One agent to the safe (tosafe)", placesafe: "Place the safe (placesafe)" };

/** Ann's move decision (Top Secret, with beliefs). */
export function moveState(over = {}) {
  return {
    viewer: "Ann",
    view_label: "Ann's view",
    players: ["Ann", "Bob", "Cy"],
    agents: AGENTS6,
    ring: RING,
    positions: POSITIONS,
    scores: { grey: 0, yellow: 0, orange: 12, red: 29, green: 29, blue: 40 },
    safe: 7,
    dossier_mark: 29,
    finish: 42,
    die: "4",
    points: 4,
    current_player: "Ann",
    phase: "move",
    decision_text: "Ann: allocate 4 points",
    is_human_turn: true,
    move: moveTable(POSITIONS, 4, 7),
    decisions: [],
    own_agents: ["red"],
    owners: null,
    hand: ["fwd123", "tosafe"],
    card_names: { fwd123: "One agent 1, 2 or 3 forward", tosafe: "One agent to the safe" },
    hand_sizes: { Ann: 2, Bob: 3, Cy: 1 },
    top_secret: true,
    dossier: true,
    triggers: ["orange"],
    log: ["Ann rolled 4"],
    last_move: {},
    curtain: null,
    autoplay: null,
    replay: null,
    winners: null,
    result_text: "",
    belief: {
      observer: "Ann",
      rows: ["Bob", "Cy", "free"],
      cols: ["grey", "yellow", "orange", "red", "green", "blue"],
      p: [
        [0.1, 0.3, 0.2, 0, 0.2, 0.2],
        [0.5, 0.1, 0.1, 0, 0.2, 0.1],
        [0.4, 0.6, 0.7, 0, 0.6, 0.7],
      ],
      entropy: [2.5, 2.3, 2.1, 1.8],
      explanation: "Bob moved orange towards the safe.",
      notes: ["Cy never moved grey."],
      sheet: { grey: "Cy", orange: "Bob" },
    },
    ...over,
  };
}

/** Points decision after a 1-3 roll (Top Secret: 0 allowed). */
export function pointsState(over = {}) {
  return moveState({
    die: "1-3", points: null, move: null, phase: "points",
    decision_text: "Ann: choose 1, 2 or 3 points (or 0)",
    decisions: [0, 1, 2, 3].map((n) => d(`points ${n}`, "points", "points", "Points", String(n), { key: String(n) })),
    ...over,
  });
}

/** Moving the safe after a scoring. */
export function safeState(over = {}) {
  return moveState({
    phase: "safe", move: null, decision_text: "Ann: move the safe",
    decisions: [[0, "church", "Church"], [1, "1", "1"], [4, "4", "4"], [10, "10", "10"], [-3, "ruins", "Ruins"]]
      .map(([b, name, label]) => d(`safe ${name}`, "safe", "safe", "Move the safe to", label, { building: b })),
    ...over,
  });
}

/** Top Secret card decision. */
export function cardState(over = {}) {
  return moveState({
    phase: "card", move: null, decision_text: "Ann: play a card or pass",
    decisions: [
      d("play fwd123 red+1", "play", "play:fwd123", CARD.fwd123, "red +1", { effect: { moves: { red: [5, 6] } } }),
      d("play fwd123 red+2", "play", "play:fwd123", CARD.fwd123, "red +2", { effect: { moves: { red: [5, 7] } } }),
      d("play fwd123 blue+3", "play", "play:fwd123", CARD.fwd123, "blue +3", { effect: { moves: { blue: [-3, 2] } } }),
      d("play tosafe red", "play", "play:tosafe", CARD.tosafe, "red", { effect: { moves: { red: [5, 7] } } }),
      d("play placesafe 4", "play", "play:placesafe", CARD.placesafe, "4", { building: 4, effect: { moves: {}, safe: [7, 4] } }),
      d("pass", "pass", "other", "Other", "Pass"),
    ],
    card_names: { fwd123: "One agent 1, 2 or 3 forward", tosafe: "One agent to the safe", placesafe: "Place the safe" },
    ...over,
  });
}

/** A spectator watching bots, with autoplay and a replay slider. */
export function spectatorState(over = {}) {
  return moveState({
    viewer: null, view_label: "Spectator (public information only)", is_human_turn: false,
    current_player: "Bob", decision_text: "Bob: allocate 4 points", own_agents: [], hand: null,
    belief: null, autoplay: { available: true, playing: false, speed_ms: 400 }, replay: { index: 12, length: 80 },
    ...over,
  });
}

/** Game over, omniscient: owners known. */
export function overState(over = {}) {
  return moveState({
    phase: "over", is_human_turn: false, current_player: null, move: null, die: null, points: null,
    decision_text: "Game over", scores: { grey: 10, yellow: 4, orange: 44, red: 29, green: 31, blue: 40 },
    owners: { orange: "Bob", red: "Ann", green: "Cy", grey: null, yellow: null, blue: null },
    winners: ["Bob"], result_text: "Bob wins with Bucci (44).",
    view_label: "Omniscient (all secrets shown)",
    ...over,
  });
}

/** A human's roll: the die is rolled by clicking "Roll the die" (the controller samples the face). */
export function rollState(over = {}) {
  return moveState({
    die: null, points: null, move: null, phase: "roll",
    decision_text: "Ann: roll the die",
    decisions: [d("roll", "roll", "roll", "Die", "Roll the die", { key: "r" })],
    ...over,
  });
}
