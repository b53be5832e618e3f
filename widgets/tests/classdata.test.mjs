// The Class data box (consent to save a game for the class): the board's markup (render.js renderClassData) and
// the Secrets table's (secrets/table.js classData), from the `class_data` traitlet that
// heimlich_lab/widget/class_folder.py ClassGameSaver.state() sends.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as R from "../render.js";

const TEXT = "Class data: your instructor collects the games this class plays ... deleted from the folder).";

function classData(over = {}) {
  return {
    folder: "class-games", text: TEXT, version: 0, saved: null, error: "",
    status: "Saved when the game ends if everyone at the table ticks their box (0 of 2 so far).",
    seats: [{ player: "Ann", label: "Ann: I agree to save this game", consent: false },
      { player: "Bob", label: "Bob: I agree to save this game", consent: false }],
    ...over,
  };
}

const inputs = (html) => [...html.matchAll(/<input[^>]*>/g)].map((m) => m[0]);

describe("the board's Class data box (render.js renderClassData)", () => {
  test("nothing at all when the table saves no class data (the traitlet is empty)", () => {
    for (const cd of [undefined, null, {}, { seats: "no" }, "text"]) assert.equal(R.renderClassData(cd), "");
  });

  test("the kernel's question word for word, one checkbox per human, every box unticked by default", () => {
    const html = R.renderClassData(classData());
    assert.ok(html.includes(`data-testid="class-data-text">${TEXT}</p>`));
    const boxes = inputs(html);
    assert.equal(boxes.length, 2);
    assert.ok(boxes.every((b) => b.includes('type="checkbox"') && !/\bchecked\b/.test(b)));
    assert.deepEqual(boxes.map((b) => b.match(/data-consent="([^"]*)"/)[1]), ["Ann", "Bob"]);
    assert.ok(html.includes("Ann: I agree to save this game"));
    assert.ok(html.includes("(0 of 2 so far)"));
    assert.ok(!html.includes('data-testid="class-data-error"'));
  });

  test("a box is ticked only when the kernel says that human agreed", () => {
    const html = R.renderClassData(classData({ seats: [{ player: "Ann", label: "Ann: I agree", consent: true },
      { player: "Bob", label: "Bob: I agree", consent: "yes" }] }));
    const [ann, bob] = inputs(html);
    assert.match(ann, /\bchecked\b/);
    assert.doesNotMatch(bob, /\bchecked\b/, "only true ticks a box");
  });

  test("a folder problem is shown as an alert; the version changes the markup (the kernel's answer redraws it)", () => {
    const html = R.renderClassData(classData({ error: "Cannot save class games into x: it is a file, not a folder" }));
    assert.match(html, /<div class="hb-error" data-testid="class-data-error" role="alert">Cannot save class games into x: it is a file, not a folder<\/div>/);
    assert.notEqual(R.renderClassData(classData({ version: 1 })), R.renderClassData(classData({ version: 2 })));
  });

  test("names and sentences are escaped", () => {
    const html = R.renderClassData(classData({ seats: [{ player: '<b>"Ann"', label: "<i>x</i>", consent: false }],
      status: "<script>", error: "&" }));
    assert.ok(!html.includes("<b>") && !html.includes("<i>") && !html.includes("<script>"));
    assert.ok(html.includes('data-consent="&lt;b&gt;&quot;Ann&quot;"'));
    assert.ok(html.includes("&amp;"));
  });
});

describe("the Secrets table's Class data box (secrets/table.js classData)", () => {
  test("nothing when empty; the kernel's text; one unticked box per human, ticked only when the kernel says so", async () => {
    const { classData: box } = await import("../secrets/table.js");
    for (const cd of [undefined, null, {}, { seats: "no" }]) assert.equal(box(cd), "");
    const html = box(classData());
    assert.match(html, /data-testid="class-data"/);
    assert.ok(html.includes(`data-testid="class-data-text">${TEXT}</p>`));
    const boxes = inputs(html);
    assert.deepEqual(boxes.map((b) => b.match(/data-consent="([^"]+)"/)[1]), ["Ann", "Bob"]);
    assert.ok(boxes.every((b) => !/ checked/.test(b)), "unticked by default");
    assert.match(inputs(box(classData({ seats: [{ player: "Ann", label: "Ann", consent: true }] })))[0], / checked/);
    assert.match(box(classData({ error: "Cannot save" })), /data-testid="class-data-error" role="alert">Cannot save</);
    assert.match(box(classData({ text: "<b>" })), /&lt;b&gt;/, "the kernel's words are text, not markup");
  });
});
