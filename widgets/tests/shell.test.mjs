// The table shell (shell.js): the controls and their enabled states, the replay slider, the curtain's one wording,
// the live region's politeness, the shell's keys, plurals; and the Secrets table's markup on it (secrets/render.js).
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as S from "../shell.js";
import * as SR from "../secrets/render.js";
import * as R from "../render.js";
import { HERE } from "../build.mjs";

const tag = (html, attr, value) => (html.match(new RegExp(`<[^>]*${attr}="${value}"[^>]*>`)) || [""])[0];
const disabled = (html, control) => / disabled/.test(tag(html, "data-control", control));

describe("the shell's controls (Next, Play, Pause, speed)", () => {
  test("nothing without bots; Next and Play while a bot is due and paused; Pause only while the bots play", () => {
    assert.equal(S.playbackMarkup({ autoplay: null }), "");
    const paused = S.playbackMarkup({ autoplay: { available: true, playing: false, speed_ms: 300 } });
    assert.deepEqual([disabled(paused, "step"), disabled(paused, "play"), disabled(paused, "pause")], [false, false, true]);
    const playing = S.playbackMarkup({ autoplay: { available: true, playing: true, speed_ms: 300 } });
    assert.deepEqual([disabled(playing, "step"), disabled(playing, "play"), disabled(playing, "pause")], [true, true, false]);
  });

  test("while a human decides (or rolls) the bots wait: Next, Play and Pause are all disabled, playing or not", () => {
    for (const playing of [true, false]) {
      const html = S.playbackMarkup({ autoplay: { available: false, playing, speed_ms: 300 } });
      assert.deepEqual(["step", "play", "pause"].map((c) => disabled(html, c)), [true, true, true], String(playing));
    }
  });

  test("one name in every game: Next (never Step), and the speed slider has the kernel's range", () => {
    const html = S.playbackMarkup({ autoplay: { available: true, playing: false, speed_ms: 250 } });
    assert.match(tag(html, "data-control", "step"), />?/);
    assert.match(html, />Next</);
    assert.doesNotMatch(html, />Step</);
    assert.match(tag(html, "data-control", "speed"), /min="0" max="2000" step="50" value="250"/);
    const board = R.renderPlayback({ state: { autoplay: { available: true, playing: false, speed_ms: 250 } } });
    const secrets = SR.renderPlayback({ autoplay: { available: true, playing: false, speed_ms: 250 }, error: "" });
    assert.equal(board.replace(/hb-/g, "X-"), secrets.replace(/st-/g, "X-"), "the board and the Secrets table share the markup");
  });

  test("the replay slider: ends disabled at the ends, positions 0..length-1", () => {
    const start = S.playbackMarkup({ replay: { index: 0, length: 5 } });
    assert.match(tag(start, "data-control", "replay"), /max="4"[^>]*value="0"/);
    assert.match(tag(start, "data-replay-step", "-1"), / disabled/);
    assert.doesNotMatch(tag(start, "data-replay-step", "\\+1"), / disabled/);
    const end = S.playbackMarkup({ replay: { index: 4, length: 5 } });
    assert.match(tag(end, "data-replay-step", "last"), / disabled/);
    assert.match(end, /data-bind="replay">4 \/ 4</);
  });
});

describe("the shell's curtain, live region, keys and words", () => {
  test("the curtain says it is down, offers Reveal only when the screen goes to a human, and escapes text", () => {
    const hand = S.curtainMarkup("Hand the screen to Ann, then click Reveal", "st");
    assert.match(hand, /Curtain down: public information only/);
    assert.doesNotMatch(hand, /Curtain up/);
    assert.match(hand, /data-curtain="reveal"/);
    const bots = S.curtainMarkup("The bots are playing (public view); the table asks for the next human", "st");
    assert.doesNotMatch(bots, /data-curtain/);
    assert.match(S.curtainMarkup("<script>"), /&lt;script&gt;/);
    assert.equal(S.curtainMarkup(null), "");
  });

  test("the live region is polite, and quiet while the bots play by themselves", () => {
    assert.equal(S.liveMode({ autoplay: null }), "polite");
    assert.equal(S.liveMode({ autoplay: { available: true, playing: true } }), "off");
    assert.equal(S.liveMode({ autoplay: { available: false, playing: true }, is_human_turn: true }), "polite");
  });

  test("keys: N next, P play or pause, R reveal at the curtain, [ ] replay; nothing that the controls refuse", () => {
    const paused = { autoplay: { available: true, playing: false } };
    assert.deepEqual(S.shellKey("n", paused), { type: "control", command: "step" });
    assert.deepEqual(S.shellKey("P", paused), { type: "control", command: "play" });
    assert.deepEqual(S.shellKey("p", { autoplay: { available: true, playing: true } }), { type: "control", command: "pause" });
    assert.equal(S.shellKey("n", { autoplay: { available: false, playing: true } }), null);
    assert.deepEqual(S.shellKey("r", { curtain: "Hand the screen to Bob, then click Reveal" }), { type: "curtain" });
    assert.equal(S.shellKey("n", { curtain: "Hand the screen to Bob", ...paused }), null, "nothing behind the curtain");
    assert.deepEqual(S.shellKey("]", { replay: { index: 2, length: 5 } }), { type: "replay", index: 3 });
    assert.equal(S.shellKey("[", { replay: { index: 0, length: 5 } }), null);
  });

  test("since your last turn: the kernel's lines, focusable when it scrolls; nothing when empty", () => {
    assert.equal(S.sinceMarkup([]), "");
    const html = S.sinceMarkup(["Bob accepts.", "<i>"], "st");
    assert.match(html, /<ol class="st-since" data-testid="since" tabindex="0"[^>]*><li>Bob accepts.<\/li><li>&lt;i&gt;<\/li><\/ol>/);
    assert.match(SR.renderSince({ since_last_turn: ["Bob accepts."], curtain: null }), /<summary>Since your last turn<\/summary>/);
    assert.equal(SR.renderSince({ since_last_turn: ["Bob accepts."], curtain: "Hand the screen to Ann" }), "");
    assert.match(R.renderSince({ state: { since_last_turn: ["x"], curtain: null } }), /class="hb-since"/);
  });

  test("plurals: 1 step, 4 steps, 1 point, -2 points", () => {
    assert.deepEqual([S.plural(1, "step"), S.plural(4, "step"), S.plural(1, "point"), S.plural(-2, "point")],
      ["1 step", "4 steps", "1 point", "-2 points"]);
  });

  test("both tables are built on the shell: their front ends import it and neither copies its controls", () => {
    for (const f of ["render.js", "secrets/render.js", "secrets/table.js", "topsecret1985/render.js", "topsecret1985/table.js"]) {
      assert.match(readFileSync(join(HERE, f), "utf8"), /from "\.\.?\/shell\.js"/, f);
    }
    for (const f of ["render.js", "board.js", "secrets/render.js", "secrets/table.js", "topsecret1985/render.js", "topsecret1985/table.js"]) {
      const src = readFileSync(join(HERE, f), "utf8");
      assert.doesNotMatch(src, /data-control="(step|play|pause)"/, `${f} draws its own autoplay buttons`);
    }
  });
});

// --------------------------------------------------------------------------- the Secrets table on the shell
const CARDS = [
  { card: "scientist", name: "Scientist", value: 5, effect: "the first has no effect; adding a second turns all your characters face down", text: "Scientist (+5 points): the first has no effect; adding a second turns all your characters face down" },
  { card: "assassin", name: "Assassin", value: 0, effect: "draw the top bullet, look at it, give it to another player (face down, unseen by them)", text: "Assassin (0 points): draw the top bullet, look at it, give it to another player (face down, unseen by them)" },
];
const SETUP = { title: "Secrets", slots: ["You", "Bob", "middle"], teams: ["CIA", "KGB", "Hippie"], cards: CARDS };

function seat(name, extra = {}) {
  return { name, title: name, cards: [], bullets: 0, bullet_values: [], size: 0, points: 0, marker: null, active: false,
    deciding: false, un: false, you: false, ...extra };
}

function state(extra = {}) {
  return {
    label: "Your view", headline: "Turn 2 · Your decision: offer a card to another player", turn: 2, un_player: null,
    deck_size: 20, end_size: 7, candidates: [], offer: null, middle: { marker: null }, is_over: false, winners: null,
    seats: [seat("You", { you: true, cards: [{ card: "assassin", up: true }, { card: "scientist", up: false }], points: 1 }), seat("Bob")],
    decisions: [], log: ["Turn 1: You are the active player."], log_length: 1, belief: null, curtain: null, replay: null,
    autoplay: { available: false, playing: true, speed_ms: 400 }, error: "", is_human_turn: true, ...extra,
  };
}

describe("the Secrets table's markup (secrets/render.js)", () => {
  test("a title and the turn headline; the kernel's 'You' wording, never \"You (you)\"", () => {
    const html = SR.renderHeader(SETUP, state());
    assert.match(html, /data-testid="title">Secrets</);
    assert.match(html, /data-testid="headline">Turn 2 · Your decision: offer a card to another player</);
    assert.match(html, /data-testid="view-label" class="st-label">Your view</);
    assert.doesNotMatch(SR.renderTable(SETUP, state()), /You \(you\)/);
  });

  test("cards by their full names (no 'Ass'), each with its value and effect on hover and for a screen reader", () => {
    const html = SR.renderTable(SETUP, state());
    assert.doesNotMatch(html, />Ass</);
    assert.match(html, /data-card="assassin" title="Assassin \(0 points\): draw the top bullet[^"]*" aria-label="Assassin[^"]*">Assassin</);
    assert.match(tag(html, "data-card", "scientist"), /tabindex="0"/);
    assert.match(tag(html, "data-card", "scientist"), /title="Scientist, face down: worth 0 points"/);
    assert.match(html, /1 point</);
  });

  test("the card legend lists every card's value and effect, with the keys", () => {
    const html = SR.renderCards(SETUP);
    assert.match(html, /data-legend="scientist"><b>Scientist<\/b> \(5 points\): the first has no effect/);
    assert.match(html, /data-legend="assassin"><b>Assassin<\/b> \(0 points\)/);
    assert.match(html, /data-testid="card-info"/);
    assert.match(html, /<kbd>N<\/kbd> next/);
  });

  test("offers are grouped by card, with the targets as buttons; the first nine decisions have keys 1-9", () => {
    const decisions = ["Bob", "Cy", "Dee"].flatMap((p) => [{ notation: `offer scientist ${p}`, label: `Offer Scientist to ${p}`, group: "Offer Scientist to", target: p }]);
    const html = SR.renderDecision(state({ decisions }));
    assert.equal((html.match(/class="st-group-name"/g) || []).length, 1);
    assert.match(html, /data-action="offer scientist Bob" data-target="Bob" aria-label="Offer Scientist to Bob" aria-keyshortcuts="1"[^>]*><kbd>1<\/kbd> Bob</);
    const many = Array.from({ length: 12 }, (_, i) => ({ notation: `look P${i}`, label: `Look at P${i}` }));
    const keys = SR.decisionKeys(many);
    assert.equal(Object.keys(keys).length, 9);
    assert.equal(keys["look P8"], "9");
  });

  test("the skeleton has a polite live region and every section; no role=application", () => {
    const html = SR.renderSkeleton();
    assert.match(html, /aria-live="polite"/);
    for (const k of SR.SECTIONS) assert.match(html, new RegExp(`data-section="${k}"`));
    assert.doesNotMatch(html, /role="application"/);
  });
});

// --------------------------------------------------------------------------- Top Secret buttons (issue 24, item 5)
import * as L from "../logic.js";
import { cardState, moveState } from "./fixtures.mjs";

const moveStateFor = (extra) => L.normaliseState(moveState(extra));

describe("the board's Top Secret buttons", () => {
  test("a card's target button carries the agent's swatch and letter; Pass, Done and the draw have keys", () => {
    const decisions = [
      { notation: "play fwd123 red+2", kind: "play", group: "play:fwd123", title: "One agent forward", label: "Jaques +2", effect: { moves: { red: [5, 7] } } },
      { notation: "pass", kind: "pass", group: "round", title: "Top Secret round", label: "Pass (play no card)", key: "x" },
      { notation: "done", kind: "done", group: "round", title: "Top Secret round", label: "Done (end my part of the round)", key: "d" },
    ];
    const html = R.renderWidget(cardState({ decisions }));
    const red = tag(html, "data-action", "play fwd123 red\\+2");
    assert.ok(red, "the card's button is drawn");
    assert.match(html, /data-action="play fwd123 red\+2"[^>]*><span class="hb-swatch hb-c-red"[^>]*>J<\/span> Jaques \+2<\/button>/);
    assert.match(html, /data-action="pass"[^>]*aria-keyshortcuts="X"[^>]*>Pass \(play no card\) <kbd>X<\/kbd>/);
    const ctx = L.uiContext(L.normaliseState(cardState({ decisions })));
    assert.deepEqual(L.keyCommand("x", ctx), { type: "send", action: "pass" });
    assert.deepEqual(L.keyCommand("D", ctx), { type: "send", action: "done" });
    const draw = [{ notation: "collect yes", kind: "collect", group: "collect", title: "The Top Secret card you may draw", label: "Draw a Top Secret card", key: "y" },
      { notation: "collect no", kind: "collect", group: "collect", title: "The Top Secret card you may draw", label: "Don't draw", key: "n" }];
    const ctx2 = L.uiContext(L.normaliseState(cardState({ decisions: draw })));
    assert.deepEqual(L.keyCommand("n", ctx2), { type: "send", action: "collect no" });
    assert.doesNotMatch(R.renderWidget(cardState({ decisions: draw })), />collect (yes|no)</);
  });
});

describe("the shell's wiring", () => {
  test("wire adds every listener and the returned function removes exactly those", () => {
    const added = new Map(), on = new Map();
    const target = { addEventListener: (t, f) => added.set(t, f), removeEventListener: (t, f) => { if (added.get(t) === f) added.delete(t); } };
    const model = { on: (n, f) => on.set(n, f), off: (n, f) => { if (on.get(n) === f) on.delete(n); } };
    const click = () => {}, change = () => {};
    const unwire = S.wire(target, model, [["click", click]], [["change:state", change]]);
    assert.deepEqual([[...added.keys()], [...on.keys()]], [["click"], ["change:state"]]);
    unwire();
    assert.deepEqual([added.size, on.size], [0, 0]);
  });
});

describe("the belief panel's headline and glossary (the shell shows what each game words)", () => {
  test("the headline escapes the game's words, says where it is in the log, and is empty without one", () => {
    assert.equal(S.beliefHeadlineMarkup(null), "");
    assert.equal(S.beliefHeadlineMarkup({ text: "" }), "");
    const html = S.beliefHeadlineMarkup({ text: "Bob <b> 9\u00d7 more likely", log: 4 }, "st");
    assert.match(html, /^<p class="st-headline tb-headline" data-testid="belief-headline" data-log-entry="4">/);
    assert.match(html, /Bob &lt;b&gt; 9\u00d7 more likely/);
    assert.doesNotMatch(S.beliefHeadlineMarkup({ text: "x" }), /data-log-entry/);
    assert.match(S.beliefHeadlineMarkup({ text: "x", label: "Lately:" }), /<span class="tb-headline-label">Lately:<\/span>/);
  });

  test("the glossary: one term and its gloss each, nothing without terms", () => {
    assert.equal(S.glossaryMarkup([]), "");
    assert.equal(S.glossaryMarkup([{ gloss: "no term" }]), "");
    const html = S.glossaryMarkup([{ term: "\u03b2", gloss: "care" }, { term: "type", gloss: "a kind of player" }]);
    assert.equal((html.match(/<dt>/g) || []).length, 2);
    assert.match(html, /<dt>\u03b2<\/dt><dd>care<\/dd>/);
  });
});

describe("Secrets' belief panel on the shell: the headline first, the model's words in the details", () => {
  test("the kernel's headline is shown above the table; 'P(...)' and the glossary only inside the details", () => {
    const identities = { You: { CIA: 1, KGB: 0, Hippie: 0 }, Bob: { CIA: 0, KGB: 0.8, Hippie: 0.2 }, middle: { CIA: 0, KGB: 0.2, Hippie: 0.8 } };
    const belief = { title: "Your belief: who is on which team?", identities, rows: {},
      headline: { text: "Bob chose to refuse: 4\u00d7 more likely if Bob is KGB (0.40 \u2192 0.80)" },
      explanation: "Bob chose to refuse: P(Bob is KGB) 0.40 -> 0.80.",
      glossary: [{ term: "P(Cy is Hippie)", gloss: "the probability that the marker in front of Cy is the Hippie one" }] };
    const html = SR.renderBelief(SETUP, { belief, is_over: false });
    const [before, details] = html.split('<details class="st-fold" data-fold="belief-more">');
    assert.ok(details, "a details disclosure");
    assert.match(before, /<p class="st-headline tb-headline" data-testid="belief-headline"><span class="tb-headline-label">Since your last turn:<\/span> <span class="tb-headline-text">Bob chose to refuse: 4\u00d7 more likely if Bob is KGB \(0\.40 \u2192 0\.80\)<\/span><\/p><table>/);
    assert.doesNotMatch(before.replace(/<[^>]*>/g, ""), /P\(|Last update/, "no jargon in the text shown outside the details");
    assert.doesNotMatch(before, /belief-explanation|glossary/);
    assert.match(details, /data-testid="belief-explanation"><strong>Latest update, in the model's words:<\/strong> Bob chose to refuse: P\(Bob is KGB\)/);
    assert.match(details, /<dl class="st-glossary tb-glossary" data-testid="glossary"[^>]*><dt>P\(Cy is Hippie\)<\/dt><dd>the probability/);
  });
});

describe("projector mode (issue 24, item 3): the shell's toggle, remembered per notebook", () => {
  // a page just big enough for mountProjector: a root in a scroll box, a slot, a model, localStorage
  function page({ stored = null, traitlet = false, notebook = "course/01.ipynb" } = {}) {
    const store = new Map(stored === null ? [] : [[S.projectorKey(notebook), stored]]);
    const listeners = new Map();
    const button = {
      attrs: {}, setAttribute(k, v) { this.attrs[k] = v; }, getAttribute(k) { return this.attrs[k]; },
      addEventListener: (t, f) => listeners.set(t, f), removeEventListener: (t, f) => { if (listeners.get(t) === f) listeners.delete(t); },
    };
    const slot = { html: "", firstElementChild: button,
      set innerHTML(h) { this.html = h; button.attrs["aria-pressed"] = /aria-pressed="true"/.test(h) ? "true" : "false"; } };
    const box = { clientHeight: 390, parentElement: null };
    const win = { innerHeight: 512, location: { pathname: "/lab/tree/x.ipynb" }, getComputedStyle: (e) => ({ overflowY: e === box ? "auto" : "visible" }),
      localStorage: { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, v) },
      requestAnimationFrame: (f) => f() };
    const classes = new Set();
    const root = { ownerDocument: { defaultView: win, documentElement: {} }, parentElement: box, props: {},
      classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)) }, style: { setProperty(k, v) { root.props[k] = v; } } };
    const traits = { projector: traitlet, notebook }, on = new Map();
    let saved = 0;
    const model = { get: (k) => traits[k], set: (k, v) => { traits[k] = v; if (on.has(`change:${k}`)) on.get(`change:${k}`)(); },
      save_changes: () => { saved += 1; }, on: (n, f) => on.set(n, f), off: (n, f) => { if (on.get(n) === f) on.delete(n); } };
    return { store, listeners, button, slot, root, classes, traits, on, model, saved: () => saved,
      click: () => listeners.get("click")({ preventDefault() {}, stopPropagation() {} }) };
  }

  test("the key names the notebook; a stored choice is on, off or nothing; the button says its state", () => {
    assert.equal(S.projectorKey("a/b.ipynb", "/lab"), "heimlich-lab:projector:a/b.ipynb");
    assert.equal(S.projectorKey("", "/voila/render/play.ipynb"), "heimlich-lab:projector:/voila/render/play.ipynb");
    const st = (v) => ({ getItem: () => v });
    assert.deepEqual([S.storedProjector(st("on"), "k"), S.storedProjector(st("off"), "k"), S.storedProjector(st(null), "k"),
      S.storedProjector(null, "k"), S.storedProjector({ getItem() { throw new Error("denied"); } }, "k")], [true, false, null, null, null]);
    assert.match(S.projectorButtonMarkup(true), /data-control="projector" aria-pressed="true"/);
    assert.match(S.projectorButtonMarkup(false), /aria-pressed="false"/);
  });

  test("off by default; a click turns it on: the class, the button, the traitlet, the fit height and the storage", () => {
    const p = page();
    const changes = [];
    const proj = S.mountProjector(p.root, p.model, p.slot, (on) => changes.push(on));
    assert.deepEqual([proj.on(), [...p.classes], p.button.getAttribute("aria-pressed"), p.store.size], [false, [], "false", 0]);
    p.click();
    assert.deepEqual([proj.on(), [...p.classes], p.button.getAttribute("aria-pressed")], [true, ["tb-projector"], "true"]);
    assert.deepEqual([p.traits.projector, p.store.get("heimlich-lab:projector:course/01.ipynb"), changes], [true, "on", [false, true]]);
    assert.equal(p.root.props["--tb-fit-height"], "390px");          // the scroll box's height, not the window's
    assert.ok(p.saved() >= 1);
    p.click();
    assert.deepEqual([proj.on(), [...p.classes], p.store.get("heimlich-lab:projector:course/01.ipynb")], [false, [], "off"]);
    proj.destroy();
    assert.deepEqual([p.listeners.size, p.on.size], [0, 0]);
  });

  test("a stored choice wins over the new widget's traitlet (a reload, Run All), and the kernel is told", () => {
    const p = page({ stored: "on", traitlet: false });
    const proj = S.mountProjector(p.root, p.model, p.slot);
    assert.deepEqual([proj.on(), p.traits.projector, p.saved()], [true, true, 1]);
    const q = page({ stored: "off", traitlet: true });
    assert.equal(S.mountProjector(q.root, q.model, q.slot).on(), false);
    // never chosen here: the traitlet says; the kernel setting it later is followed and remembered
    const r = page({ traitlet: false });
    const pr = S.mountProjector(r.root, r.model, r.slot);
    r.model.set("projector", true);
    assert.deepEqual([pr.on(), r.store.get("heimlich-lab:projector:course/01.ipynb")], [true, "on"]);
  });
});

describe("the belief panel's frame is the shell's (issue 24, item 1): each game gives only its table and words", () => {
  const frame = { title: "T", explanation: "P(Bob is KGB) 0.40 -> 0.57", version: 3,
    headline: { text: "Bob passed: 2\u00d7 more likely if Bob is KGB (0.40 \u2192 0.57)" }, glossary: [{ term: "t", gloss: "g" }] };
  const unprefix = (html) => html.replace(/\b(hb|st)-/g, "X-");

  test("behind the curtain and without a belief: one wording, the same markup in both games", () => {
    const board = (extra) => R.renderBelief(R.viewModel(moveStateFor(extra)));
    assert.equal(unprefix(board({ curtain: "Hand the screen to Bob, then click Reveal" })),
      unprefix(SR.renderBelief(SETUP, { curtain: "Hand the screen to Bob", belief: frame })));
    assert.equal(unprefix(board({ belief: null })), unprefix(SR.renderBelief(SETUP, { belief: null })));
    assert.match(SR.renderBelief(SETUP, { belief: null }), new RegExp(S.BELIEF_WORDS.none.replace(".", "\\.")));
  });

  test("shown: title, headline, the game's table, then the details (the model's words, the game's, the glossary)", () => {
    const html = S.beliefPanelMarkup("zz", { belief: frame, title: "Who?", body: "<table>B</table>", summary: "More", details: "<p>D</p>" });
    assert.match(html, /^<section class="zz-belief tb-belief" data-testid="belief" data-belief="shown" data-belief-version="3"><h4[^>]*>Who\?<\/h4><p class="zz-headline[^>]*>.*<\/p><table>B<\/table><details class="zz-fold" data-fold="belief-more"><summary>More<\/summary><p class="zz-explanation tb-explanation" data-testid="belief-explanation"><strong>Latest update, in the model's words:<\/strong> P\(Bob is KGB\) 0\.40 -&gt; 0\.57<\/p><p>D<\/p><dl class="zz-glossary/);
    assert.doesNotMatch(S.beliefPanelMarkup("zz", { belief: { ...frame, version: undefined } }), /data-belief-version/);
    assert.match(S.beliefPanelMarkup("zz", { belief: { ...frame, title: "<b>" } }), /<h4[^>]*>&lt;b&gt;<\/h4>/);
    // both games' panels open and close with the shell's frame
    const board = R.renderBelief(R.viewModel(moveStateFor({ belief: { ...moveStateFor({}).belief, ...frame } })));
    const secrets = SR.renderBelief({ ...SETUP, slots: ["You"] }, { belief: { ...frame, identities: { You: { CIA: 1, KGB: 0, Hippie: 0 } } } });
    for (const html of [board, secrets]) {
      assert.match(html, /data-belief="shown" data-belief-version="3"><h4 class="(hb|st)-belief-title tb-belief-title">/);
      assert.match(html, /<strong>Latest update, in the model's words:<\/strong> P\(Bob is KGB\) 0\.40 -&gt; 0\.57<\/p>.*<dl class="(hb|st)-glossary tb-glossary"[^>]*><dt>t<\/dt><dd>g<\/dd><\/dl><\/details><\/section>$/);
    }
  });
});

describe("the shell's playback values, Class data box and replay seeks (issue 24, item 1: no copy in the games)", () => {
  function box(nodes) {
    return { querySelector: (sel) => nodes[sel] || null };
  }
  test("the values are patched in place; the slider in use is left alone", () => {
    const speed = { value: "0" }, sb = { textContent: "" }, sl = { value: "0" }, rb = { textContent: "" };
    const b = box({ '[data-control="speed"]': speed, '[data-bind="speed"]': sb, '[data-control="replay"]': sl, '[data-bind="replay"]': rb });
    S.patchPlaybackValues(b, { autoplay: { speed_ms: 350 }, replay: { index: 4, length: 11 } });
    assert.deepEqual([speed.value, sb.textContent, sl.value, rb.textContent], ["350", "350 ms", "4", "4 / 10"]);
    S.patchPlaybackValues(b, { autoplay: { speed_ms: 500 }, replay: { index: 7, length: 11 } }, sl);
    assert.deepEqual([speed.value, sl.value, rb.textContent], ["500", "4", "7 / 10"]);
  });

  test("one Class data box in both games (their prefixes aside), escaped, empty without class data", () => {
    const cd = { version: 2, text: "Save <this> game?", status: "not saved", error: "folder x", seats: [{ player: "Ann", label: "Ann: I agree", consent: true }] };
    const board = R.renderClassData(cd), secrets = S.classDataMarkup(cd, "st");
    assert.equal(board.replace(/\bhb-/g, "X-"), secrets.replace(/\bst-/g, "X-"));
    assert.match(board, /Save &lt;this&gt; game\?/);
    assert.match(board, /data-consent="Ann" checked/);
    assert.equal(S.classDataMarkup(null, "hb"), "");
    const model = { get: () => cd }, target = { innerHTML: "" };
    const update = S.classDataUpdater(target, model, "st");
    assert.deepEqual([update(), update(), target.innerHTML === secrets], [true, false, true]);
  });

  test("replay seeks: the last of a drag after a pause, at once when let go, never twice until reset", async () => {
    const sent = [];
    const r = S.debouncedSeek((i) => sent.push(i), 5);
    r.seek(1, false); r.seek(2, false); r.seek(3, false);
    await new Promise((ok) => setTimeout(ok, 30));
    r.seek(3, true); r.seek(4, true);
    assert.deepEqual(sent, [3, 4]);
    r.reset(); r.seek(4, true);
    assert.deepEqual(sent, [3, 4, 4]);
    r.seek(6, false); r.cancel();
    await new Promise((ok) => setTimeout(ok, 30));
    assert.deepEqual(sent, [3, 4, 4]);
  });
});

describe("the table's channel and clicks (every game on the shell)", () => {
  test("send goes to the model; seeks are sent as replay messages; the Class data box stops once the view is gone", async () => {
    const sent = [], cd = { version: 1, text: "Save?", status: "", error: "", seats: [] };
    const model = { send: (m) => sent.push(m), get: () => cd }, box = { innerHTML: "" };
    let gone = false;
    const ch = S.tableChannel(model, box, "ts", () => gone, 5);
    ch.send({ type: "action", action: "x" });
    ch.replay.seek(3, true);
    assert.deepEqual(sent, [{ type: "action", action: "x" }, { type: "replay", index: 3 }]);
    gone = true;
    ch.updateClassData();
    assert.equal(box.innerHTML, "", "no redraw after the view is gone");
    gone = false;
    ch.updateClassData();
    assert.equal(box.innerHTML, S.classDataMarkup(cd, "ts"));
    for (const file of ["secrets/table.js", "topsecret1985/table.js"]) {
      assert.match(readFileSync(join(HERE, file), "utf8"), /S\.tableChannel\(model, classBox, /, `${file} talks to the kernel through the shell`);
    }
  });

  test("a click counts on an enabled button of this table (or its text), not on a disabled one or elsewhere", () => {
    const button = (disabled, inside = true) => ({ disabled, inside });
    const root = { contains: (n) => n.inside };
    const at = (node) => ({ target: { closest: (sel) => (sel === "button" ? node : null) } });
    const on = button(false), off = button(true), other = button(false, false);
    assert.equal(S.clickedButton(root, at(on)), on);
    assert.deepEqual([S.clickedButton(root, at(off)), S.clickedButton(root, at(other)), S.clickedButton(root, at(null)),
      S.clickedButton(root, { target: {} })], [null, null, null, null]);
  });
});

describe("the table's root (both games)", () => {
  test("a focusable, named region (never role=application) holding the game's skeleton", () => {
    const doc = { createElement: () => ({ attrs: {}, setAttribute(k, v) { this.attrs[k] = v; } }) };
    const root = S.tableRoot(doc, "secrets-table", "Secrets table", "<div data-section=\"table\"></div>");
    assert.deepEqual([root.className, root.tabIndex, root.attrs, root.innerHTML],
      ["secrets-table", 0, { role: "region", "aria-label": "Secrets table" }, "<div data-section=\"table\"></div>"]);
    for (const file of ["board.js", "secrets/table.js", "topsecret1985/table.js"]) {
      assert.match(readFileSync(join(HERE, file), "utf8"), /S\.(tableRoot\(doc|mountTable\(el), /,
        `${file} makes its root with the shell`);
    }
  });

  test("a table mounted: its root then the Class data box in el, its sections found, its live region", () => {
    const made = (tag) => ({ tag, attrs: {}, setAttribute(k, v) { this.attrs[k] = v; },
      querySelector: (sel) => ({ sel }) });
    const doc = { createElement: made, activeElement: null };
    const el = { ownerDocument: doc, replaceChildren(...kids) { this.kids = kids; } };
    const t = S.mountTable(el, "topsecret-table", "Top Secret table", "<div></div>", ["map", "log"], "ts");
    assert.deepEqual(el.kids, [t.root, t.classBox]);
    assert.deepEqual([t.root.className, t.root.attrs["aria-label"], t.classBox.className, t.doc],
      ["topsecret-table", "Top Secret table", "ts-class-section", doc]);
    assert.deepEqual([t.sections.map.sel, t.sections.log.sel, t.live.sel],
      ['[data-section="map"]', '[data-section="log"]', '[data-testid="live"]']);
    assert.equal(typeof t.set, "function");
    assert.equal(typeof t.setPlayback, "function");
  });
});

describe("the shell's keydown filter and buttons (Secrets' and Top Secret's tables)", () => {
  const key = (k, extra = {}) => {
    const e = { key: k, target: { tagName: extra.tag || "DIV" }, stopped: false, ...extra };
    e.stopPropagation = () => { e.stopped = true; };
    return e;
  };

  test("a table reads its own keys, and keeps one-character keys from JupyterLab", () => {
    const n = key("n");
    assert.deepEqual([S.tableKeyDown(n), n.stopped], [true, true]);
    const arrow = key("ArrowLeft");
    assert.deepEqual([S.tableKeyDown(arrow), arrow.stopped], [true, false]);
  });

  test("modifiers, Tab, typing in a field and Enter on a button are not the table's", () => {
    assert.equal(S.tableKeyDown(key("n", { ctrlKey: true })), false);
    assert.equal(S.tableKeyDown(key("Tab")), false);
    assert.equal(S.tableKeyDown(key("Enter", { shiftKey: true })), false);
    const typing = key("5", { tag: "SELECT" });
    assert.deepEqual([S.tableKeyDown(typing), typing.stopped], [false, false]);
    const enter = key("Enter", { tag: "BUTTON" });
    assert.deepEqual([S.tableKeyDown(enter), enter.stopped], [false, true], "the button's own click, kept from JupyterLab");
  });

  test("the shell's buttons give the kernel's messages; a game's own button gives none", () => {
    const state = { replay: { index: 3, length: 10 } };
    assert.deepEqual(S.shellButton({ curtain: "reveal" }, state), { type: "curtain" });
    assert.deepEqual(S.shellButton({ control: "pause" }, state), { type: "control", command: "pause" });
    assert.deepEqual(["first", "-1", "+1", "last"].map((s) => S.shellButton({ replayStep: s }, state).index), [0, 2, 4, 9]);
    assert.equal(S.shellButton({ control: "speed" }, state), null);
    assert.equal(S.shellButton({ agent: "Ann#1" }, state), null);
    assert.equal(S.shellButton({ replayStep: "+1" }, {}), null, "no replay: no step");
  });

  test("the shell's inputs speak the kernel's messages (consent, speed) and seek through the table's replay", () => {
    const sent = [];
    const seeks = [];
    const on = S.controlMessages((m) => sent.push(m), (i) => seeks.push(i));
    on.consent("Ann", true);
    on.speed(250);
    on.seek(7);
    assert.deepEqual(sent, [{ type: "consent", player: "Ann", value: true }, { type: "control", command: "speed", value: 250 }]);
    assert.deepEqual(seeks, [7]);
  });

  test("both tables on the shell start through it: no copy of the projector's and the model's wiring", () => {
    for (const file of ["secrets/table.js", "topsecret1985/table.js"]) {
      const src = readFileSync(join(HERE, file), "utf8");
      assert.match(src, /S\.startTable\(root, model, classBox,/, file);
      assert.doesNotMatch(src, /mountProjector|change:class_data/, file);
    }
  });

  test("the live region says the curtain or the headline, and keeps quiet while the bots play by themselves", () => {
    const live = { attrs: {}, textContent: "", getAttribute(k) { return this.attrs[k]; }, setAttribute(k, v) { this.attrs[k] = v; } };
    S.announce(live, { headline: "Turn 2 · Your decision", curtain: null, autoplay: null });
    assert.deepEqual([live.attrs["aria-live"], live.textContent], ["polite", "Turn 2 · Your decision"]);
    S.announce(live, { headline: "x", curtain: "Hand the screen to Bob, then click Reveal", autoplay: { playing: true, available: true } });
    assert.deepEqual([live.attrs["aria-live"], live.textContent], ["off", "Hand the screen to Bob, then click Reveal"]);
  });
});
