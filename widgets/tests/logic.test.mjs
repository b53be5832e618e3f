import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as L from "../logic.js";
import { moveState, pointsState, safeState, cardState, spectatorState, AGENTS6, AGENTS7 } from "./fixtures.mjs";

const ORDER6 = AGENTS6.map((a) => a.colour);

describe("buildings and geometry", () => {
  test("value <-> index both ways: church 0 at index 0, 1..10, ruins -3 at index 11", () => {
    assert.equal(L.indexOfValue(0), 0);
    assert.equal(L.indexOfValue(1), 1);
    assert.equal(L.indexOfValue(10), 10);
    assert.equal(L.indexOfValue(-3), 11);
    assert.equal(L.valueOfIndex(11), -3);
    assert.equal(L.valueOfIndex(12), 0, "index wraps modulo 12");
    assert.equal(L.valueOfIndex(-1), -3);
    for (let i = 0; i < 12; i++) assert.equal(L.indexOfValue(L.valueOfIndex(i)), i);
    for (const v of L.BUILDING_VALUES) assert.equal(L.valueOfIndex(L.indexOfValue(v)), v);
  });

  test("values that are not buildings are rejected", () => {
    assert.throws(() => L.indexOfValue(11), RangeError);
    assert.throws(() => L.indexOfValue(-1), RangeError);
    assert.equal(L.isBuilding(-3), true);
    assert.equal(L.isBuilding(11), false);
    assert.equal(L.isBuilding("3"), false);
  });

  test("building names: church, ruins, numbers; parse is the inverse", () => {
    assert.equal(L.buildingName(0), "church");
    assert.equal(L.buildingName(-3), "ruins");
    assert.equal(L.buildingName(7), "7");
    for (const v of L.BUILDING_VALUES) assert.equal(L.parseBuilding(L.buildingName(v)), v);
    assert.equal(L.parseBuilding("-3"), -3);
    assert.equal(L.parseBuilding("0"), 0);
    assert.equal(L.parseBuilding("11"), null);
    assert.equal(L.parseBuilding("chapel"), null);
  });

  test("landing = (index + steps) mod 12, passing from 10 over ruins to church", () => {
    assert.equal(L.landingValue(0, 3), 3);
    assert.equal(L.landingValue(10, 1), -3);
    assert.equal(L.landingValue(10, 2), 0);
    assert.equal(L.landingValue(-3, 1), 0);
    assert.equal(L.landingValue(9, 6), 3);
  });

  test("ring: 12 distinct positions on a circle, church on top, clockwise", () => {
    const g = L.ringGeometry();
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
    const byV = L.geometryByValue();
    const { agents, ghosts } = L.agentLayout(pos, order, { grey: 5 });
    assert.deepEqual(Object.keys(agents).sort(), ["grey", "red", "yellow"]);
    assert.equal(agents.red.building, 5);
    assert.equal(ghosts.grey.building, 5);
    assert.notDeepEqual([agents.red.x, agents.red.y], [ghosts.grey.x, ghosts.grey.y]);
    assert.ok(Math.hypot(agents.grey.x - byV.get(0).x, agents.grey.y - byV.get(0).y) < L.BOARD.buildingRadius);
    assert.notDeepEqual([agents.grey.x, agents.grey.y], [agents.yellow.x, agents.yellow.y]);
    // invalid position: left out rather than drawn somewhere wrong
    assert.equal(L.agentLayout({ grey: 11 }, ["grey"]).agents.grey, undefined);
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

  test("legal only at the exact total, with at least one step", () => {
    assert.equal(L.isLegalAllocation({ red: 2, blue: 1 }, 4), false);
    assert.equal(L.isLegalAllocation({ red: 2, blue: 2 }, 4), true);
    assert.equal(L.isLegalAllocation({ red: 5 }, 4), false);
    assert.equal(L.isLegalAllocation({}, 0), false);
    assert.equal(L.isLegalAllocation({ red: -1, blue: 5 }, 4), false);
    assert.equal(L.isLegalAllocation({ red: 1.5, blue: 2.5 }, 4), false);
    assert.equal(L.isLegalAllocation({ red: 4 }, null), false);
  });

  test("notation lists agents in the given agent order, only those with steps", () => {
    assert.equal(L.allocationNotation({ blue: 3, red: 2, grey: 0 }, ORDER6), "move red+2 blue+3");
    assert.equal(L.allocationNotation({ blue: 3, red: 2 }, ["blue", "red"]), "move blue+3 red+2");
    assert.equal(L.allocationNotation({ yellow: 1 }, ORDER6), "move yellow+1");
    assert.equal(L.allocationNotation({}, ORDER6), null);
    assert.equal(L.allocationNotation({ red: 0 }, ORDER6), null);
  });

  test("parseMove reads the notation back", () => {
    assert.deepEqual(L.parseMove("move red+2 blue+3"), { red: 2, blue: 3 });
    assert.equal(L.parseMove("move"), null);
    assert.equal(L.parseMove("move red-2"), null);
    assert.equal(L.parseMove("safe 4"), null);
    assert.equal(L.parseMove("move red+1 red+1"), null);
  });

  test("preview: landing building per moved agent only", () => {
    const pos = { grey: 0, red: 5, blue: 10 };
    assert.deepEqual(L.previewLandings(pos, { red: 2, blue: 2 }), { red: 7, blue: 0 });
    assert.deepEqual(L.previewLandings(pos, { grey: 0 }), {});
  });

  test("scoring preview: landing on the safe scores; passing through it or not moving does not", () => {
    const pos = { grey: 7, red: 5, blue: 6 };
    const safe = 7;
    assert.equal(L.createsScoring(pos, { red: 2 }, safe), true, "red lands on 7");
    assert.deepEqual(L.scoringAgents(pos, { red: 2, blue: 1 }, safe, ["grey", "red", "blue"]), ["red", "blue"]);
    assert.equal(L.createsScoring(pos, { red: 3 }, safe), false, "red passes 7 to 8");
    assert.equal(L.createsScoring(pos, { blue: 3 }, safe), false);
    assert.equal(L.createsScoring(pos, { blue: 2, grey: 0 }, safe), false, "grey sits on the safe but does not move");
    assert.equal(L.createsScoring(pos, {}, safe), false);
    assert.equal(L.createsScoring({ red: 10 }, { red: 1 }, -3), true, "ruins");
  });

  test("movePoints: move_points, else the size of the legal moves, else null", () => {
    assert.equal(L.movePoints({ move_points: 4, legal: [] }), 4);
    assert.equal(L.movePoints({ move_points: null, legal: ["move red+2 blue+1", "move red+3"] }), 3);
    assert.equal(L.movePoints({ move_points: null, legal: ["points 1"] }), null);
  });

  test("allowed: a legal allocation, and in the legal list when the list names moves", () => {
    assert.equal(L.allocationAllowed({ red: 2, blue: 2 }, 4, ORDER6, []), true);
    assert.equal(L.allocationAllowed({ red: 2, blue: 1 }, 4, ORDER6, []), false);
    assert.equal(L.allocationAllowed({ red: 3 }, 3, ORDER6, ["move red+3", "move blue+3"]), true);
    assert.equal(L.allocationAllowed({ red: 2, grey: 1 }, 3, ORDER6, ["move red+3", "move blue+3"]), false);
    assert.equal(L.allocationAllowed({ violet: 3 }, 3, ORDER6, []), false, "agent not in play");
  });
});

describe("legal actions", () => {
  test("parseAction recognises every notation form", () => {
    assert.deepEqual(L.parseAction("points 2"), { kind: "points", notation: "points 2", n: 2 });
    assert.equal(L.parseAction("move red+2 blue+3").kind, "move");
    assert.equal(L.parseAction("safe church").building, 0);
    assert.equal(L.parseAction("safe ruins").building, -3);
    assert.equal(L.parseAction("safe 10").building, 10);
    assert.equal(L.parseAction("announce yes").yes, true);
    assert.equal(L.parseAction("announce no").yes, false);
    assert.deepEqual(L.parseAction("play swap red blue"), { kind: "play", notation: "play swap red blue", card: "swap", targets: ["red", "blue"] });
    assert.deepEqual(L.parseAction("play church").targets, []);
    assert.equal(L.parseAction("pass").kind, "pass");
    assert.equal(L.parseAction("done").kind, "done");
    assert.deepEqual(L.parseAction("dossier red=Bob"), { kind: "dossier", notation: "dossier red=Bob", agent: "red", name: "Bob" });
    assert.equal(L.parseAction("frobnicate").kind, "other");
  });

  test("grouping: points, safe, announce, a group per card, a group per dossier agent, other; moves left out", () => {
    const legal = [
      "pass", "dossier blue=free", "play fwd123 red+2", "move red+3", "points 3", "safe 4", "points 1",
      "play swap red blue", "dossier red=Bob", "play fwd123 red+1", "announce no", "announce yes", "dossier red=free", "safe church",
    ];
    const groups = L.groupLegalActions(legal, { cardNames: { fwd123: "One agent 1, 2 or 3 forward" }, agents: AGENTS6, order: ORDER6 });
    assert.deepEqual(groups.map((g) => g.key), ["points", "safe", "announce", "play:fwd123", "play:swap", "dossier:red", "dossier:blue", "other"]);
    assert.deepEqual(groups[0].actions.map((a) => a.notation), ["points 1", "points 3"], "sorted by number");
    assert.deepEqual(groups[1].actions.map((a) => a.notation), ["safe church", "safe 4"], "ring order");
    assert.deepEqual(groups[2].actions.map((a) => a.label), ["Yes", "No"]);
    assert.equal(groups[3].title, "One agent 1, 2 or 3 forward (fwd123)");
    assert.deepEqual(groups[3].actions.map((a) => a.notation), ["play fwd123 red+2", "play fwd123 red+1"]);
    assert.equal(groups[4].title, "swap", "no card name: the code");
    assert.deepEqual(groups[5].actions.map((a) => a.label), ["Bob", "free"]);
    assert.match(groups[5].title, /Jaques/);
    assert.deepEqual(groups[7].actions.map((a) => a.notation), ["pass"]);
    const all = groups.flatMap((g) => g.actions.map((a) => a.notation));
    assert.equal(all.length, legal.length - 1, "every non-move action exactly once");
    assert.ok(!all.includes("move red+3"));
  });

  test("duplicates in the legal list give one button", () => {
    const g = L.groupLegalActions(["pass", "pass"]);
    assert.equal(g[0].actions.length, 1);
  });

  test("labels", () => {
    assert.equal(L.actionLabel("points 0"), "0");
    assert.equal(L.actionLabel("safe church"), "Church");
    assert.equal(L.actionLabel("safe ruins"), "Ruins");
    assert.equal(L.actionLabel("play fwd123 red+2"), "red +2");
    assert.equal(L.actionLabel("play swap red blue"), "red \u2194 blue");
    assert.equal(L.actionLabel("play placesafe 4"), "4");
    assert.equal(L.actionLabel("play church"), "Play");
    assert.equal(L.actionLabel("pass"), "Pass");
  });

  test("clickable buildings: safe moves, else placesafe", () => {
    const m = L.buildingActions(["safe church", "safe 4", "safe ruins", "pass"]);
    assert.deepEqual([...m.entries()], [[0, "safe church"], [4, "safe 4"], [-3, "safe ruins"]]);
    const p = L.buildingActions(["play placesafe 4", "play placesafe ruins", "pass"]);
    assert.deepEqual([...p.entries()], [[4, "play placesafe 4"], [-3, "play placesafe ruins"]]);
    assert.equal(L.buildingActions(["points 2"]).size, 0);
  });
});

describe("state helpers", () => {
  test("normaliseState fills defaults without inventing information", () => {
    const s = L.normaliseState({ positions: { red: 5, grey: 0 } });
    assert.deepEqual(s.agents.map((a) => a.colour), ["grey", "red"]);
    assert.equal(s.agents[1].letter, "J");
    assert.deepEqual(s.legal, []);
    assert.equal(s.hand, null);
    assert.equal(s.owners, null);
    assert.equal(s.belief, null);
    assert.equal(s.curtain, null);
    assert.equal(s.safe, null);
    assert.equal(s.finish, 42);
    assert.equal(s.dossier_mark, 29);
    assert.equal(L.normaliseState(null).agents.length, 0);
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
    assert.equal(L.uiMode(L.normaliseState(moveState({ move_points: null, legal: ["announce yes", "announce no"] }))), "announce");
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
    const ctx = ctxOf(pointsState({ legal: ["points 1", "points 2", "points 3"] }));
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
    const ctx = ctxOf(moveState({ move_points: null, legal: ["announce yes", "announce no"] }));
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
    const d = ctxOf(moveState({ move_points: null, legal: ["dossier red=Bob", "dossier red=free"] }));
    assert.deepEqual(L.applyCommand(L.initialUi(), { type: "send", action: "dossier red=free" }, d).message, { type: "action", action: "dossier red=free" });
  });
});
