import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundle, HERE, OUTPUT } from "../build.mjs";

const read = (f) => readFileSync(join(HERE, f), "utf8");

async function importText(text) {
  return import(`data:text/javascript;base64,${Buffer.from(text).toString("base64")}`);
}

describe("board.bundle.js (what anywidget loads)", () => {
  test("is up to date with logic.js, render.js and board.js (run node widgets/build.mjs)", () => {
    assert.equal(read(OUTPUT), bundle());
  });

  test("has no imports left, so it loads from a blob:/data: URL", async () => {
    const text = read(OUTPUT);
    assert.doesNotMatch(text, /^\s*import\s/m);
    assert.doesNotMatch(text, /\bimport\(/);
    const mod = await importText(text);
    assert.equal(typeof mod.default, "object");
    assert.equal(typeof mod.default.render, "function");
    assert.deepEqual(Object.keys(mod), ["default"]);
  });

  test("board.js itself imports only the local modules and exports only the anywidget default", async () => {
    const src = read("board.js");
    const imports = [...src.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    assert.deepEqual(imports.sort(), ["./logic.js", "./render.js"]);
    const mod = await import("../board.js");
    assert.equal(typeof mod.default.render, "function");
  });

  test("render and logic do not touch the DOM (pure modules)", () => {
    for (const f of ["logic.js", "render.js"]) {
      const src = read(f).replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
      assert.doesNotMatch(src, /\b(document|window|model)\s*\./, f);
    }
  });

  test("the builder rejects imports and exports it cannot inline", () => {
    const base = { "logic.js": "export const A = 1;\n", "render.js": 'import * as L from "./logic.js";\nexport function f() { return L.A; }\n', "board.js": 'import * as R from "./render.js";\nexport default { render() { return R.f(); } };\n' };
    const reader = (over) => (f) => (over[f] !== undefined ? over[f] : base[f]);
    assert.match(bundle(reader({})), /const __mod_logic = \(\(\) => \{/);
    assert.throws(() => bundle(reader({ "logic.js": "export { A };\n" })), /unsupported export/);
    assert.throws(() => bundle(reader({ "render.js": 'import {\n  A } from "./logic.js";\n' })), /unsupported import/);
    assert.throws(() => bundle(reader({ "board.js": "export const x = 1;\n" })), /may only have `export default`/);
    assert.throws(() => bundle(reader({ "logic.js": 'import * as R from "./render.js";\n' })), /before it is bundled/);
  });

  test("an inlined toy module works end to end", async () => {
    const files = {
      "logic.js": "export const A = 20;\nexport function twice(x) { return 2 * x; }\n",
      "render.js": 'import { A, twice as t } from "./logic.js";\nexport function f() { return t(A) + 2; }\n',
      "board.js": 'import * as R from "./render.js";\nexport default { render() { return R.f(); } };\n',
    };
    const mod = await importText(bundle((f) => files[f]));
    assert.equal(mod.default.render(), 42);
  });
});
