import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as L from "../logic.js";
import * as R from "../render.js";
import { moveState, pointsState, safeState, cardState, spectatorState, AGENTS6, AGENTS7, RING, moveTable } from "./fixtures.mjs";

const ORDER6 = AGENTS6.map((a) => a.colour);

describe("buildings and geometry", () => {
  test("the ring is the setup's: buildings in its order, labels by value", () => {
    const g = L.ringGeometry(RING);
    assert.deepEqual(g.map((b) => b.value), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3]);
    assert.deepEqual([g[0].name, g[11].label], ["church", "Ruins"]);
    assert.equal(L.buildingLabel(RING, 0), "Church");
    assert.equal(L.buildingLabel(RING, 7), "7");
    assert.equal(L.ringGeometry(RING.slice(0, 4)).length, 4, "as many buildings as the setup names");
  });

  test("ring: 12 distinct positions on a circle, church on top, clockwise", () => {
    const g = L.ringGeometry(RING);
    assert.equal(g.length, 12);
    assert.deepEqual(g.map((b) => b.value), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3]);
    const keys = new Set(g.map((b) => `${b.x},${b.y}`));
    assert.equal(keys.size, 12, "positions are distinct");
    const { cx, cy, ringRadius, buildingRadius } = L.BOARD;
    for (const b of g) assert.ok(Math.abs(Math.hypot(b.x - cx, b.y - cy) - ringRadius) < 0.02, `building ${b.value} on the circle`);
    assert.ok(g[0].y < cy && Math.abs(g[0].x - cx) < 0.01, "church at the top");
    assert.ok(g[3].x > cx && Math.abs(g[3].y - cy) < 0.01, "building 3 to the right (clockwise)");
    // neighbouring buildings do not overlap
    for (let i = 0; i < 12; i++) {
      const a = g[i];
      const b = g[(i + 1) % 12];
      assert.ok(Math.hypot(a.x - b.x, a.y - b.y) > 2 * buildingRadius, "no overlap");
    }
  });

  test("pieces in one building lie side by side: distinct, non-overlapping, inside the building", () => {
    for (let n = 1; n <= 7; n++) {
      const offs = L.slotOffsets(n);
      assert.equal(offs.length, n);
      for (let i = 0; i < n; i++) {
        const o = offs[i];
        assert.ok(Math.hypot(o.dx, o.dy) + L.BOARD.agentRadius <= L.BOARD.buildingRadius, `slot ${i}/${n} inside`);
        for (let j = i + 1; j < n; j++) {
          assert.ok(Math.hypot(o.dx - offs[j].dx, o.dy - offs[j].dy) >= 2 * L.BOARD.agentRadius, `slots ${i},${j} of ${n} apart`);
        }
      }
    }
  });

  test("agent layout: every agent placed at its building; ghosts after the agents already there", () => {
    const pos = { grey: 0, yellow: 0, red: 5 };
    const order = ["grey", "yellow", "red"];
    const geometry = L.ringGeometry(RING);
    const byV = L.geometryByValue(geometry);
    const { agents, ghosts } = L.agentLayout(pos, order, { grey: 5 }, geometry);
    assert.deepEqual(Object.keys(agents).sort(), ["grey", "red", "yellow"]);
    assert.equal(agents.red.building, 5);
    assert.equal(ghosts.grey.building, 5);
    assert.notDeepEqual([agents.red.x, agents.red.y], [ghosts.grey.x, ghosts.grey.y]);
    assert.ok(Math.hypot(agents.grey.x - byV.get(0).x, agents.grey.y - byV.get(0).y) < L.BOARD.buildingRadius);
    assert.notDeepEqual([agents.grey.x, agents.grey.y], [agents.yellow.x, agents.yellow.y]);
    // invalid position: left out rather than drawn somewhere wrong
    assert.equal(L.agentLayout({ grey: 11 }, ["grey"], {}, geometry).agents.grey, undefined);
  });

  test("scoring track: 0..42, distinct spaces on the board edge, mark at 29", () => {
    const t = L.trackGeometry();
    assert.equal(t.length, 43);
    assert.deepEqual(t.map((s) => s.score), [...Array(43).keys()]);
    assert.equal(new Set(t.map((s) => `${s.x},${s.y}`)).size, 43);
    assert.deepEqual(t.filter((s) => s.mark).map((s) => s.score), [29]);
    assert.deepEqual(t.filter((s) => s.finish).map((s) => s.score), [42]);
    const lo = L.BOARD.trackInset;
    const hi = L.BOARD.size - lo;
    for (const s of t) assert.ok(s.x === lo || s.x === hi || s.y === lo || s.y === hi, `space ${s.score} on the edge`);
    assert.equal(L.trackGeometry({ finish: 30, mark: 20 }).filter((s) => s.mark)[0].score, 20);
  });

  test("score markers: scores past 42 sit on 42; markers on one space do not overlap", () => {
    assert.equal(L.trackSpace(45), 42);
    assert.equal(L.trackSpace(-2), 0);
    const order = AGENTS7.map((a) => a.colour);
    const scores = Object.fromEntries(order.map((c) => [c, 0]));
    scores.violet = 47;
    const m = L.markerLayout(scores, order);
    assert.equal(m.violet.space, 42);
    assert.equal(m.violet.score, 47);
    const same = order.filter((c) => c !== "violet").map((c) => m[c]);
    for (let i = 0; i < same.length; i++) {
      for (let j = i + 1; j < same.length; j++) {
        assert.ok(Math.hypot(same[i].x - same[j].x, same[i].y - same[j].y) >= 2 * L.BOARD.markerRadius, "markers apart");
      }
    }
  });

  test("die pips: 2..6 have that many pips; 1-3 and no die have none", () => {
    for (let f = 2; f <= 6; f++) assert.equal(L.diePips(String(f)).length, f);
    assert.equal(L.diePips("1-3"), null);
    assert.equal(L.diePips(null), null);
  });
});

describe("allocation", () => {
  test("adding steps stops at the points available", () => {
    let a = {};
    a = L.addStep(a, "red", 2);
    a = L.addStep(a, "blue", 2);
    assert.deepEqual(a, { red: 1, blue: 1 });
    const full = L.addStep(a, "red", 2);
    assert.equal(full, a, "no change when all points are allocated");
    assert.equal(L.allocationTotal(full), 2);
  });

  test("removing steps never goes below 0", () => {
    let a = { red: 1 };
    a = L.removeStep(a, "red");
    assert.deepEqual(a, {});
    const same = L.removeStep(a, "red");
    assert.equal(same, a);
    assert.deepEqual(L.removeStep({ red: 3, blue: 1 }, "red"), { red: 2, blue: 1 });
  });

  test("editing is immutable", () => {
    const a = { red: 1 };
    L.addStep(a, "red", 4);
    L.removeStep(a, "red");
    L.setSteps(a, "red", 3, 4);
    assert.deepEqual(a, { red: 1 });
  });

  test("setSteps clamps to the points left for that agent", () => {
    assert.deepEqual(L.setSteps({ blue: 3 }, "red", 6, 4), { blue: 3, red: 1 });
    assert.deepEqual(L.setSteps({ red: 2 }, "red", 0, 4), {});
    assert.deepEqual(L.setSteps({}, "red", -2, 4), {});
  });

  test("legal only at the exact total, with at least one step, for agents of the move table", () => {
    const move = moveTable({ red: 5, blue: -3, grey: 0 }, 4, 7);
    assert.equal(L.isLegalAllocation({ red: 2, blue: 1 }, move), false);
    assert.equal(L.isLegalAllocation({ red: 2, blue: 2 }, move), true);
    assert.equal(L.isLegalAllocation({ red: 2, blue: 2, grey: 0 }, move), true);
    assert.equal(L.isLegalAllocation({ red: 5 }, move), false);
    assert.equal(L.isLegalAllocation({}, moveTable({ red: 5 }, 0, 7)), false);
    assert.equal(L.isLegalAllocation({ red: -1, blue: 5 }, move), false);
    assert.equal(L.isLegalAllocation({ red: 1.5, blue: 2.5 }, move), false);
    assert.equal(L.isLegalAllocation({ violet: 4 }, move), false, "agent not in play");
    assert.equal(L.isLegalAllocation({ red: 4 }, null), false);
  });

  test("notation lists agents in the given agent order, only those with steps", () => {
    assert.equal(L.allocationNotation({ blue: 3, red: 2, grey: 0 }, ORDER6), "move red+2 blue+3");
    assert.equal(L.allocationNotation({ blue: 3, red: 2 }, ["blue", "red"]), "move blue+3 red+2");
    assert.equal(L.allocationNotation({ yellow: 1 }, ORDER6), "move yellow+1");
    assert.equal(L.allocationNotation({}, ORDER6), null);
    assert.equal(L.allocationNotation({ red: 0 }, ORDER6), null);
  });

  test("preview: the move table's landing per moved agent only", () => {
    const move = moveTable({ grey: 0, red: 5, blue: 10 }, 2, 7);
    assert.deepEqual(L.previewLandings(move, { red: 2, blue: 2 }), { red: 7, blue: 0 });
    assert.deepEqual(L.previewLandings(move, { grey: 0 }), {});
    assert.deepEqual(L.previewLandings(null, { red: 1 }), {});
  });

  test("scoring preview: the move table's scores at the agent's steps; not moving does not score", () => {
    const move = { points: 3, agents: { grey: { from: 7, to: [7, 8, 9, 10], scores: [false, false, false, false] },
      red: { from: 5, to: [5, 6, 7, 8], scores: [false, false, true, false] }, blue: { from: 6, to: [6, 7, 8, 9], scores: [false, true, false, false] } } };
    const order = ["grey", "red", "blue"];
    assert.deepEqual(L.scoringAgents(move, { red: 2 }, order), ["red"]);
    assert.deepEqual(L.scoringAgents(move, { red: 2, blue: 1 }, order), ["red", "blue"]);
    assert.deepEqual(L.scoringAgents(move, { red: 3 }, order), [], "red passes 7 to 8");
    assert.deepEqual(L.scoringAgents(move, { grey: 0, blue: 2 }, order), [], "grey sits on the safe but does not move");
    assert.deepEqual(L.scoringAgents(move, {}, order), []);
  });

  test("movePoints: the move table's points, else null", () => {
    assert.equal(L.movePoints({ move: moveTable({ red: 0 }, 4, 7) }), 4);
    assert.equal(L.movePoints({ move: null }), null);
    assert.equal(L.movePoints({}), null);
  });
});

describe("decisions (Python sends them ready: notation, kind, group, title, label)", () => {
  test("grouped in Python's order, one group per key; the kind is the key before ':'", () => {
    const groups = L.groupDecisions(L.normaliseState(cardState()).decisions);
    assert.deepEqual(groups.map((g) => [g.key, g.kind]), [["play:fwd123", "play"], ["play:tosafe", "play"], ["play:placesafe", "play"], ["other", "other"]]);
    assert.equal(groups[0].title, "One agent 1, 2 or 3 forward (fwd123)");
    assert.deepEqual(groups[0].actions.map((a) => a.label), ["red +1", "red +2", "blue +3"]);
    assert.deepEqual(L.groupDecisions([]), []);
  });

  test("a card's effect in words: moves, the safe, gains", () => {
    const names = { red: "Jaques", blue: "Doyle" };
    assert.equal(L.effectText({ moves: { red: [5, 6] } }, names, RING), "Jaques 5 \u2192 6");
    assert.equal(L.effectText({ moves: { blue: [-3, 0] } }, names, RING), "Doyle Ruins \u2192 Church");
    assert.equal(L.effectText({ moves: {}, safe: [7, 4] }, names, RING), "safe 7 \u2192 4");
    assert.equal(L.effectText({ moves: {}, gains: { red: 3 } }, names, RING), "Jaques +3");
    assert.equal(L.effectText(undefined), "");
  });

  test("clickable buildings: safe moves, else the decisions naming a building (placesafe)", () => {
    const m = L.buildingActions(L.normaliseState(safeState()).decisions);
    assert.deepEqual([...m.entries()], [[0, "safe church"], [1, "safe 1"], [4, "safe 4"], [10, "safe 10"], [-3, "safe ruins"]]);
    const p = L.buildingActions(L.normaliseState(cardState()).decisions);
    assert.deepEqual([...p.entries()], [[4, "play placesafe 4"]]);
    assert.equal(L.buildingActions(L.normaliseState(pointsState()).decisions).size, 0);
  });
});

describe("state helpers", () => {
  test("normaliseState fills defaults without inventing information", () => {
    const s = L.normaliseState({ positions: { red: 5, grey: 0 } });
    assert.deepEqual(s.agents.map((a) => a.colour), ["grey", "red"]);
    assert.equal(s.agents[1].letter, "J");
    assert.deepEqual(s.decisions, []);
    assert.equal(s.move, null);
    assert.deepEqual(s.ring, []);
    assert.equal(s.hand, null);
    assert.equal(s.owners, null);
    assert.equal(s.belief, null);
    assert.equal(s.curtain, null);
    assert.equal(s.safe, null);
    assert.equal(s.finish, 42);
    assert.equal(s.dossier_mark, 29);
    assert.equal(L.normaliseState(null).agents.length, 0);
  });

  test("the setup (sent once) is merged under the state", () => {
    const s = L.normaliseState({ safe: 4, players: ["Ann"] }, { ring: RING, players: ["Ann", "Bob"], agents: AGENTS6, finish: 30 });
    assert.deepEqual(s.players, ["Ann"], "the state wins");
    assert.equal(s.safe, 4);
    assert.equal(s.ring.length, 12);
    assert.equal(s.finish, 30);
    assert.equal(s.agents.length, 6);
    assert.equal(L.normaliseState({ safe: 4 }).safe, null, "no ring: no building to put the safe in");
  });

  test("owners: colour -> player, also from the engine's player -> [colours]", () => {
    assert.equal(L.ownersByAgent(null), null);
    assert.deepEqual(L.ownersByAgent({ red: "Ann", grey: null }), { red: "Ann", grey: "free" });
    assert.deepEqual(L.ownersByAgent({ Ann: ["red", "blue"], Bob: ["grey"] }), { red: "Ann", blue: "Ann", grey: "Bob" });
  });

  test("animation duration: autoplay speed, else model speed_ms, else 300", () => {
    assert.equal(L.animationMs({ autoplay: { speed_ms: 400 } }, 100), 400);
    assert.equal(L.animationMs({ autoplay: null }, 120), 120);
    assert.equal(L.animationMs({}, undefined), 300);
    assert.equal(L.animationMs({}, 99999), L.SPEED_RANGE.max);
    assert.equal(L.animationMs({}, -5), L.SPEED_RANGE.min);
  });

  test("ui modes", () => {
    assert.equal(L.uiMode(L.normaliseState(moveState())), "move");
    assert.equal(L.uiMode(L.normaliseState(pointsState())), "points");
    assert.equal(L.uiMode(L.normaliseState(safeState())), "actions");
    assert.equal(L.uiMode(L.normaliseState(spectatorState())), "none");
    assert.equal(L.uiMode(L.normaliseState(moveState({ curtain: "Hand over" }))), "curtain");
    assert.equal(L.uiMode(L.normaliseState(moveState({ move: null, decisions: [{ notation: "announce yes", kind: "announce", group: "announce", title: "Announce?", label: "Yes", key: "y" }, { notation: "announce no", kind: "announce", group: "announce", title: "Announce?", label: "No", key: "n" }] }))), "announce");
  });

  test("decision key changes with the decision, not with unrelated fields", () => {
    const a = L.normaliseState(moveState());
    assert.equal(L.decisionKey(a), L.decisionKey(L.normaliseState(moveState({ belief: null }))));
    assert.notEqual(L.decisionKey(a), L.decisionKey(L.normaliseState(moveState({ log: ["x", "y"] }))));
    assert.notEqual(L.decisionKey(a), L.decisionKey(L.normaliseState(moveState({ current_player: "Bob" }))));
  });

  test("heatmap shading: darker with probability, readable ink, printed number", () => {
    const light = (p) => Number(/(\d+)%\)$/.exec(L.heatFill(p))[1]);
    assert.ok(light(0) > light(0.5) && light(0.5) > light(1));
    assert.equal(light(2), light(1), "clamped");
    assert.equal(L.heatInk(0.9), "#ffffff");
    assert.equal(L.heatInk(0.1), "#111111");
    assert.equal(L.heatInk(0.7), "#111111");   // white on the mid blues is below 4.5:1
    assert.equal(L.formatProb(0.4567), "0.46");
    assert.equal(L.formatProb(NaN), "\u2013");
  });

  test("sparkline: one point per value, inside the box, higher entropy drawn higher", () => {
    const pts = L.sparklinePoints([2, 1, 0], 100, 40, 2).split(" ").map((s) => s.split(",").map(Number));
    assert.equal(pts.length, 3);
    assert.deepEqual(pts.map((p) => p[0]), [2, 50, 98]);
    assert.ok(pts[0][1] < pts[1][1] && pts[1][1] < pts[2][1]);
    for (const [x, y] of pts) assert.ok(x >= 0 && x <= 100 && y >= 0 && y <= 40);
    assert.equal(L.sparklinePoints([], 100, 40), "");
    assert.equal(L.sparklinePoints([1.5], 100, 40).split(" ").length, 2, "a single value is a flat line");
  });
});

describe("keyboard and clicks", () => {
  const ctxOf = (s) => L.uiContext(L.normaliseState(s));

  test("digits choose points (only legal ones)", () => {
    const ctx = ctxOf(pointsState({ decisions: pointsState().decisions.slice(1) }));
    assert.deepEqual(L.keyCommand("2", ctx), { type: "send", action: "points 2" });
    assert.equal(L.keyCommand("0", ctx), null);
    assert.equal(L.keyCommand("5", ctx), null);
    assert.equal(L.keyCommand("j", ctx), null);
  });

  test("move keys: arrows and letters select, +/- edit, digits set, Enter confirms, Escape resets", () => {
    const ctx = ctxOf(moveState());
    assert.deepEqual(L.keyCommand("ArrowRight", ctx), { type: "select", delta: 1 });
    assert.deepEqual(L.keyCommand("ArrowUp", ctx), { type: "select", delta: -1 });
    assert.deepEqual(L.keyCommand("j", ctx), { type: "select", colour: "red" });
    assert.deepEqual(L.keyCommand("D", ctx), { type: "select", colour: "blue" });
    assert.equal(L.keyCommand("l", ctx), null, "Larsson is not in play");
    assert.deepEqual(L.keyCommand("+", ctx), { type: "add" });
    assert.deepEqual(L.keyCommand("=", ctx), { type: "add" });
    assert.deepEqual(L.keyCommand("-", ctx), { type: "remove" });
    assert.deepEqual(L.keyCommand("3", ctx), { type: "set", n: 3 });
    assert.deepEqual(L.keyCommand("Enter", ctx), { type: "confirm" });
    assert.deepEqual(L.keyCommand("Escape", ctx), { type: "reset" });
  });

  test("announce keys and no keys when it is not the viewer's decision", () => {
    const ctx = ctxOf(moveState({ move: null, decisions: [{ notation: "announce yes", kind: "announce", group: "announce", title: "Announce?", label: "Yes", key: "y" }, { notation: "announce no", kind: "announce", group: "announce", title: "Announce?", label: "No", key: "n" }] }));
    assert.deepEqual(L.keyCommand("y", ctx), { type: "send", action: "announce yes" });
    assert.deepEqual(L.keyCommand("N", ctx), { type: "send", action: "announce no" });
    const spec = ctxOf(spectatorState({ replay: null }));
    for (const k of ["2", "+", "Enter", "j", "y"]) assert.equal(L.keyCommand(k, spec), null, k);
  });

  test("a keyboard-only allocation sends the notation", () => {
    const ctx = ctxOf(moveState());
    let ui = L.initialUi();
    const sent = [];
    for (const key of ["j", "+", "+", "ArrowRight", "+", "+", "+", "Enter"]) {
      const r = L.applyCommand(ui, L.keyCommand(key, ctx), ctx);
      ui = r.ui;
      if (r.message) sent.push(r.message);
    }
    assert.deepEqual(sent, [{ type: "action", action: "move red+2 green+2" }]);
  });

  test("confirm sends nothing until the allocation is complete; Escape resets", () => {
    const ctx = ctxOf(moveState());
    let ui = L.applyCommand(L.initialUi(), { type: "add", colour: "red" }, ctx).ui;
    assert.equal(L.applyCommand(ui, { type: "confirm" }, ctx).message, null);
    ui = L.applyCommand(ui, { type: "reset" }, ctx).ui;
    assert.deepEqual(ui.alloc, {});
    ui = L.applyCommand(ui, { type: "set", n: 9, colour: "blue" }, ctx).ui;
    assert.deepEqual(ui.alloc, { blue: 4 });
    const r = L.applyCommand(ui, { type: "confirm" }, ctx);
    assert.deepEqual(r.message, { type: "action", action: "move blue+4" });
    assert.equal(r.ui.pending, true);
    assert.equal(L.applyCommand(r.ui, { type: "confirm" }, ctx).message, null, "no double send while pending");
  });

  test("selection wraps around the agents", () => {
    const ctx = ctxOf(moveState());
    let ui = L.applyCommand(L.initialUi(), { type: "select", delta: -1 }, ctx).ui;
    assert.equal(ui.selected, "blue");
    ui = L.applyCommand(ui, { type: "select", delta: 1 }, ctx).ui;
    assert.equal(ui.selected, "grey");
  });

  test("clicks: action buttons, +/- buttons, agents (move only), buildings, confirm", () => {
    const move = ctxOf(moveState());
    const safe = ctxOf(safeState());
    assert.deepEqual(L.clickCommand({ action: "safe 4" }, safe), { type: "send", action: "safe 4" });
    assert.deepEqual(L.clickCommand({ step: "+1", target: "red" }, move), { type: "add", colour: "red" });
    assert.deepEqual(L.clickCommand({ step: "-1", target: "red" }, move), { type: "remove", colour: "red" });
    assert.deepEqual(L.clickCommand({ agent: "red" }, move), { type: "add", colour: "red" });
    assert.equal(L.clickCommand({ agent: "red" }, safe), null);
    assert.deepEqual(L.clickCommand({ buildingAction: "safe ruins" }, safe), { type: "send", action: "safe ruins" });
    assert.deepEqual(L.clickCommand({ command: "confirm" }, move), { type: "confirm" });
    assert.deepEqual(L.clickCommand({ curtain: "reveal" }, move), { type: "curtain" });
    assert.deepEqual(L.clickCommand({ control: "pause" }, move), { type: "control", command: "pause" });
    assert.equal(L.clickCommand({}, move), null);
  });

  test("messages: action only if legal now; control, speed, curtain, replay", () => {
    const safe = ctxOf(safeState());
    const ui = L.initialUi();
    assert.deepEqual(L.applyCommand(ui, { type: "send", action: "safe 4" }, safe).message, { type: "action", action: "safe 4" });
    assert.equal(L.applyCommand(ui, { type: "send", action: "safe 5" }, safe).message, null, "not legal");
    const spec = ctxOf(spectatorState());
    assert.equal(L.applyCommand(ui, { type: "send", action: "safe 4" }, spec).message, null, "not the viewer's turn");
    assert.deepEqual(L.applyCommand(ui, { type: "control", command: "step" }, spec).message, { type: "control", command: "step" });
    assert.deepEqual(L.applyCommand(ui, { type: "speed", value: "250" }, spec).message, { type: "control", command: "speed", value: 250 });
    assert.deepEqual(L.applyCommand(ui, { type: "speed", value: 9000 }, spec).message, { type: "control", command: "speed", value: 2000 });
    assert.deepEqual(L.applyCommand(ui, { type: "speed", value: -1 }, spec).message, { type: "control", command: "speed", value: 0 });
    assert.equal(L.applyCommand(ui, { type: "speed", value: "fast" }, spec).message, null);
    assert.deepEqual(L.applyCommand(ui, { type: "curtain" }, spec).message, { type: "curtain", command: "reveal" });
    assert.deepEqual(L.applyCommand(ui, { type: "replay", index: 30 }, spec).message, { type: "replay", index: 30 });
    assert.deepEqual(L.applyCommand(ui, { type: "replay", index: 500 }, spec).message, { type: "replay", index: 79 }, "clamped to length - 1");
    assert.deepEqual(L.applyCommand(ui, { type: "replay-jump", to: "last" }, spec).message, { type: "replay", index: 79 });
    const atEnd = ctxOf(spectatorState({ replay: { index: 79, length: 80 } }));
    assert.equal(L.applyCommand(ui, { type: "replay-step", delta: 1 }, atEnd).message, null, "nothing past the end");
    assert.deepEqual(L.applyCommand(ui, { type: "replay-step", delta: -1 }, spec).message, { type: "replay", index: 11 });
    assert.deepEqual(L.applyCommand(ui, { type: "replay-jump", to: "first" }, spec).message, { type: "replay", index: 0 });
    assert.deepEqual(L.keyCommand("]", spec), { type: "replay-step", delta: 1 });
    const noReplay = ctxOf(moveState());
    assert.equal(L.applyCommand(ui, { type: "replay", index: 3 }, noReplay).message, null);
  });

  test("card and dossier buttons send exactly their notation", () => {
    const ctx = ctxOf(cardState());
    const r = L.applyCommand(L.initialUi(), L.clickCommand({ action: "play fwd123 red+2" }, ctx), ctx);
    assert.deepEqual(r.message, { type: "action", action: "play fwd123 red+2" });
    const dossier = (name) => ({ notation: `dossier red=${name}`, kind: "dossier", group: "dossier:red", title: "Dossier: Jaques (red)", label: name });
    const d = ctxOf(moveState({ move: null, decisions: [dossier("Bob"), dossier("free")] }));
    assert.deepEqual(L.applyCommand(L.initialUi(), { type: "send", action: "dossier red=free" }, d).message, { type: "action", action: "dossier red=free" });
  });
});

describe("the score track in projector mode and the finish (issue 24, item 3)", () => {
  const order = AGENTS7.map((a) => a.colour);
  const atZero = Object.fromEntries(order.map((c) => [c, 0]));
  for (const [name, board] of [["the board", L.BOARD], ["projector mode", L.PROJECTOR_BOARD]]) {
    test(`${name}: seven markers on 0 cover neither the finish nor each other, and stay on the board`, () => {
      const track = L.trackGeometry(board);
      const finish = track[track.length - 1];
      const m = L.markerLayout(atZero, order, track, board);
      const rf = board.trackSpaceRadius + 2;
      for (const c of order) {
        assert.ok(Math.hypot(m[c].x - finish.x, m[c].y - finish.y) >= rf + board.markerRadius, `${c} covers 42`);
        assert.ok(m[c].x - board.markerRadius >= 0 && m[c].y - board.markerRadius >= 0, `${c} off the board`);
      }
      for (let i = 0; i < order.length; i++) {
        for (let j = i + 1; j < order.length; j++) {
          const [a, b] = [m[order[i]], m[order[j]]];
          assert.ok(Math.hypot(a.x - b.x, a.y - b.y) >= 2 * board.markerRadius, "markers apart");
        }
      }
    });
  }

  test("projector mode: larger spaces and markers, the spaces apart and inside the board, clear of the buildings", () => {
    const P = L.PROJECTOR_BOARD;
    assert.ok(P.trackSpaceRadius >= 2 * L.BOARD.trackSpaceRadius && P.markerRadius >= 2 * L.BOARD.markerRadius);
    const track = L.trackGeometry(P);
    for (const t of track) {
      assert.ok(t.x - P.trackSpaceRadius - 2 >= 0 && t.x + P.trackSpaceRadius + 2 <= P.size, `space ${t.score} x`);
      assert.ok(t.y - P.trackSpaceRadius - 2 >= 0 && t.y + P.trackSpaceRadius + 2 <= P.size, `space ${t.score} y`);
    }
    for (let i = 1; i < track.length; i++) {     // neighbours apart, also across a corner
      const grow = (t) => (t.mark || t.finish ? 2 : 0);
      const d = Math.hypot(track[i].x - track[i - 1].x, track[i].y - track[i - 1].y);
      assert.ok(d >= 2 * P.trackSpaceRadius + grow(track[i]) + grow(track[i - 1]), `spaces ${i - 1} and ${i}`);
    }
    // a lone marker on any space (the first row) stays clear of every building of a 12-building ring
    const ring = L.ringGeometry(RING, P);
    for (const t of track) {
      const m = L.markerLayout({ red: t.score }, ["red"], track, P).red;
      for (const b of ring) assert.ok(Math.hypot(m.x - b.x, m.y - b.y) >= P.buildingRadius + P.markerRadius, `${t.score}`);
    }
  });

  test("the view model draws the projector's geometry only when asked", () => {
    const vm = R.viewModel(moveState(), { ...L.initialUi(), projector: true });
    assert.equal(vm.board, L.PROJECTOR_BOARD);
    assert.equal(R.viewModel(moveState()).board, L.BOARD);
    assert.match(R.renderTrack(vm), new RegExp(`<circle r="${L.PROJECTOR_BOARD.trackSpaceRadius}"/>`));
    assert.match(R.markerNodes(vm)[0].inner, new RegExp(`r="${L.PROJECTOR_BOARD.markerRadius}"`));
  });
});

describe("the Top Secret cards have keys (issue 24, item 5)", () => {
  test("1, 2, ... are the cards in the order shown: one option is played, several give the first the focus", () => {
    const ctx = L.uiContext(L.normaliseState(cardState(), null));
    assert.equal(ctx.mode, "actions");
    assert.deepEqual(L.cardGroups(ctx.decisions).map((g) => g.key), ["play:fwd123", "play:tosafe", "play:placesafe"]);
    assert.deepEqual(L.keyCommand("1", ctx), { type: "focus", action: "play fwd123 red+1" });
    assert.deepEqual(L.keyCommand("2", ctx), { type: "send", action: "play tosafe red" });
    assert.deepEqual(L.keyCommand("3", ctx), { type: "send", action: "play placesafe 4" });
    assert.equal(L.keyCommand("4", ctx), null);
    assert.equal(L.keyCommand("0", ctx), null);
  });

  test("a focus command sends nothing to the kernel", () => {
    const ctx = L.uiContext(L.normaliseState(cardState(), null));
    const { message } = L.applyCommand(L.initialUi(), { type: "focus", action: "play fwd123 red+1" }, ctx);
    assert.equal(message, null);
  });
});
