// The human's roll (a "Roll the die" button) and error messages from the kernel.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as R from "../render.js";
import * as L from "../logic.js";
import { rollState, moveState, spectatorState } from "./fixtures.mjs";

const ctxOf = (s) => L.uiContext(L.normaliseState(s));

describe("rolling the die by clicking", () => {
  test("'roll' is a decision of its own kind, in its own group, with the key r", () => {
    const [roll] = L.normaliseState(rollState()).decisions;
    assert.deepEqual([roll.notation, roll.kind, roll.label, roll.key], ["roll", "roll", "Roll the die", "r"]);
    assert.deepEqual(L.groupDecisions([roll]).map((g) => g.key), ["roll"]);
  });

  test("the roll state shows one Roll button with data-action=\"roll\" and no allocation editor", () => {
    const html = R.renderWidget(rollState());
    assert.equal(L.uiMode(L.normaliseState(rollState())), "roll");
    assert.equal((html.match(/data-action="roll"/g) || []).length, 1);
    assert.match(html, />Roll the die<\/button>/);
    assert.doesNotMatch(html, /data-testid="allocation"/);
  });

  test("click, r, Enter and space send {type: action, action: roll}; nothing for a spectator", () => {
    const ctx = ctxOf(rollState());
    const click = L.applyCommand(L.initialUi(), L.clickCommand({ action: "roll" }, ctx), ctx);
    assert.deepEqual(click.message, { type: "action", action: "roll" });
    for (const k of ["r", "R", "Enter", " "]) assert.deepEqual(L.keyCommand(k, ctx), { type: "send", action: "roll" }, k);
    assert.equal(L.keyCommand("3", ctx), null);
    const spec = ctxOf(spectatorState({ phase: "roll", decisions: [] }));
    assert.equal(L.applyCommand(L.initialUi(), { type: "send", action: "roll" }, spec).message, null);
  });
});

describe("errors from the kernel", () => {
  test("state.error is shown (escaped) with data-testid=error; not under the curtain", () => {
    const html = R.renderWidget(moveState({ error: "No <b>card</b>" }));
    assert.match(html, /data-testid="error" role="alert">No &lt;b&gt;card&lt;\/b&gt;<\/div>/);
    assert.doesNotMatch(R.renderWidget(moveState()), /data-testid="error"/);
    assert.doesNotMatch(R.renderWidget(moveState({ error: "x", curtain: "Hand over to Bob" })), /data-testid="error"/);
    assert.equal(L.normaliseState({}).error, "");
  });
});
