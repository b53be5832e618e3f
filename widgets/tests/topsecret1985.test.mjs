// The Top Secret table's markup and click logic (topsecret1985/render.js, topsecret1985/table.js): targets over the
// map only where the kernel's decisions name a place, an agent chosen before its cities, the side's buttons carrying
// the decisions' notations, the contents' form, the curtain, the 4 x 4 belief tables.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as R from "../topsecret1985/render.js";
import { contentsNotation } from "../topsecret1985/table.js";

const SETUP = {
  game: "topsecret1985", title: "Top Secret", players: ["Ann", "Bob"], corners: { Ann: "NW", Bob: "SE" },
  colours: { Ann: "#D55E00", Bob: "#009E73" }, letters: ["A", "B", "C", "D"], contents: ["5", "3", "1", "bomb"],
  aspect: 1.4925, target: 10,
  places: {
    "start-NW": { name: "start base NW", kind: "start", x: 0.05, y: 0.1 },
    vancouver: { name: "Vancouver", kind: "city", x: 0.15, y: 0.2 },
    anchorage: { name: "Anchorage", kind: "city", x: 0.1, y: 0.05 },
    "san-francisco": { name: "San Francisco", kind: "city", x: 0.16, y: 0.35 },
    tokyo: { name: "Tokyo", kind: "city", x: 0.8, y: 0.3 },
  },
};

function seat(name, extra = {}) {
  return { name, corner: name === "Ann" ? "NW" : "SE", you: name === "Ann", title: name === "Ann" ? "Ann (you)" : name,
    deciding: name === "Ann", active: name === "Ann", agents: 7, secrets: 0, hand: [0, 0, 1, 2, 3, 4, 5], played: [],
    delivered: [], contents: null, ...extra };
}

function state(decisions, extra = {}) {
  return {
    viewer: "Ann", kind: "player", label: "Ann's view", headline: "Turn 1 · Your decision: move", turn: 1, phase: "move",
    dice: [2, 1], points: 3, bonus: {}, duel: null, agents: {}, carrying: {},
    seats: [seat("Ann", { contents: { A: "5", B: "3", C: "1", D: "bomb" } }), seat("Bob")],
    svg: "<svg xmlns='http://www.w3.org/2000/svg' role='img' aria-label='map'></svg>", log: ["Turn 1: Ann."], log_length: 1,
    decisions, is_human_turn: decisions.length > 0, is_over: false, winners: null, belief: null, curtain: null,
    replay: null, autoplay: null, error: "", ...extra,
  };
}

const STEPS = [
  { notation: "step Ann#1 anchorage", kind: "step", agent: "Ann#1", at: "start-NW", city: "anchorage", label: "Move Ann#1 from start base NW to Anchorage" },
  { notation: "step Ann#1 vancouver", kind: "step", agent: "Ann#1", at: "start-NW", city: "vancouver", label: "Move Ann#1 from start base NW to Vancouver" },
  { notation: "step Ann#2 san-francisco", kind: "step", agent: "Ann#2", at: "vancouver", city: "san-francisco", label: "Move Ann#2 from Vancouver to San Francisco" },
  { notation: "pick Ann#2 Bob:A", kind: "pick", agent: "Ann#2", at: "vancouver", suitcase: "Bob:A", label: "Ann#2 picks up Bob:A" },
  { notation: "end", kind: "end", label: "End the move" },
];

const attrsOf = (html, name) => [...html.matchAll(new RegExp(`${name}="([^"]*)"`, "g"))].map((m) => m[1]);

describe("the map's click targets (render.js mapTargets)", () => {
  test("two agents may move: their buttons sit at their places, and no city is offered before one is chosen", () => {
    const html = R.mapTargets(SETUP, state(STEPS), null);
    assert.deepEqual(attrsOf(html, "data-agent"), ["Ann#1", "Ann#2"]);
    assert.deepEqual(attrsOf(html, "data-action"), []);
    assert.match(html, /aria-label="Ann#1 in start base NW: choose it to move"/);
    assert.match(html, /left:calc\(15\.000% \+ -4px\);top:17\.200%/);    // Ann#2 above Vancouver
  });

  test("choosing an agent offers exactly the cities of its steps, each sending the step's notation", () => {
    const html = R.mapTargets(SETUP, state(STEPS), "Ann#1");
    assert.deepEqual(attrsOf(html, "data-action"), ["step Ann#1 anchorage", "step Ann#1 vancouver"]);
    assert.deepEqual(attrsOf(html, "aria-pressed"), ["true", "false"]);
    assert.equal(R.selectedAgent(state(STEPS), "Ann#7"), null, "an agent that cannot move is not chosen");
    assert.equal(R.selectedAgent(state(STEPS.slice(2)), null), "Ann#2", "the only mover is chosen at once");
  });

  test("a placement offers the cities named by the decisions, and the curtain offers nothing", () => {
    const place = [{ notation: "place A tokyo", kind: "place", city: "tokyo", label: "Put suitcase A in Tokyo" }];
    assert.deepEqual(attrsOf(R.mapTargets(SETUP, state(place), null), "data-action"), ["place A tokyo"]);
    assert.equal(R.mapTargets(SETUP, state(place, { curtain: "Hand the screen to Bob, then click Reveal" }), null), "");
    assert.match(R.renderMap(SETUP, state(place)), /^<div class="ts-map" data-testid="table" style="aspect-ratio:1.4925"><div class="ts-picture"><svg /);
  });
});

describe("the side's decision (render.js renderDecision)", () => {
  test("pick-ups, the end and a hint are buttons and words; the dice are shown", () => {
    const html = R.renderDecision(SETUP, state(STEPS), null);
    assert.deepEqual(attrsOf(html, "data-action"), ["pick Ann#2 Bob:A", "end"]);
    assert.match(html, /Dice 2 \+ 1 · 3 steps left/);
    assert.match(html, /Click one of your ringed agents on the map \(2 agents may move\)/);
    assert.match(R.renderDecision(SETUP, state(STEPS), "Ann#2"), /Ann#2 in Vancouver: click a ringed city/);
  });

  test("a duel: the viewer's cards are buttons, the other side's card is never drawn", () => {
    const cards = [0, 1, 5].map((c) => ({ notation: `card ${c}`, kind: "card", card: c, label: `Duel card ${c}` }));
    const duel = { attacker: "Bob#1", defender: "Ann#1", city: "tokyo", city_name: "Tokyo", waiting: [], chosen: true, my_card: null };
    const html = R.renderDecision(SETUP, state(cards, { duel, phase: "defend" }));
    assert.deepEqual(attrsOf(html, "data-action"), ["card 0", "card 1", "card 5"]);
    assert.match(html, /Duel in Tokyo: Bob#1 attacks Ann#1; the aggressor&#39;s card lies face down\./);
    const mine = R.renderDecision(SETUP, state([], { duel: { ...duel, my_card: 4 } }));
    assert.match(mine, /your card: 4 \(face down\)/);
  });

  test("the contents' form sends the decision it names, or words the kernel refuses with its reason", () => {
    const ds = [{ notation: "contents A=5 B=3 C=1 D=bomb", kind: "contents", contents: { A: "5", B: "3", C: "1", D: "bomb" }, label: "Hide" },
      { notation: "contents A=bomb B=3 C=1 D=5", kind: "contents", contents: { A: "bomb", B: "3", C: "1", D: "5" }, label: "Hide" }];
    const html = R.renderDecision(SETUP, state(ds, { phase: "contents" }));
    assert.equal((html.match(/<select/g) || []).length, 4);
    assert.match(html, /data-contents="hide"/);
    assert.equal(contentsNotation(ds, { A: "bomb", B: "3", C: "1", D: "5" }), "contents A=bomb B=3 C=1 D=5");
    assert.equal(contentsNotation(ds, { A: "5", B: "5", C: "1", D: "bomb" }), "contents A=5 B=5 C=1 D=bomb");
  });

  test("behind the curtain: no decision, no seat's contents in the sections' markup", () => {
    const s = state([], { curtain: "Hand the screen to Bob, then click Reveal", seats: [seat("Ann"), seat("Bob")] });
    const html = R.renderSections(SETUP, s);
    assert.equal(html.decision, "");
    assert.match(html.curtain, /Reveal/);
    assert.doesNotMatch(Object.values(html).join(""), /Suitcases: /);
    assert.match(R.renderSeats(SETUP, state([])), /data-testid="contents-Ann">Suitcases: A=5 B=3 C=1 D=bomb/);
    const carrying = state([], { seats: [seat("Ann", { carrying: [{ agent: "Ann#2", suitcase: "Bob:C" }] }), seat("Bob")] });
    assert.match(R.renderSeats(SETUP, carrying), /<div data-carrying="Ann">Carrying: Ann#2 \u2192 Bob:C<\/div>/);
  });
});

describe("the belief panel (render.js renderBelief)", () => {
  test("per opponent a 4 x 4 table, rows A-D, columns 5, 3, 1, bomb, the likeliest content in bold", () => {
    const row = { 5: 0.25, 3: 0.25, 1: 0.1, bomb: 0.4 };
    const belief = { observer: "Ann", title: "Ann's belief: what is in each suitcase?", version: 3, glossary: [],
      headline: { text: "Bob puts suitcase Bob:A in tokyo: 0.10 bits about Bob's suitcases.", label: "Last evidence:" },
      explanation: "", opponents: ["Bob"], contents: { Bob: { A: row, B: row, C: row, D: row } } };
    const html = R.renderBelief(SETUP, state([], { belief }));
    assert.equal((html.match(/data-belief-row="Bob:/g) || []).length, 4);
    assert.deepEqual(attrsOf(html, "data-content").slice(0, 4), ["5", "3", "1", "bomb"]);
    assert.match(html, /<td class="ts-best" data-content="bomb" data-p="0.4" title="P\(Bob&#39;s A holds the bomb\) = 40%">/);
    assert.match(html, /Last evidence:/);
    assert.match(R.renderBelief(SETUP, state([], { belief, curtain: "x" })), /data-belief="hidden"/);
  });
});
