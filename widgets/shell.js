// The table shell: what every game's table shares (issue 24, item 1). A game's front end supplies its table,
// its decisions and its words; the shell draws the controls (Next, Play, Pause, speed) with their enabled
// states, the replay slider, the hot-seat curtain, the log, the live region's politeness, the shell's keys, and
// keeps the DOM up to date section by section (a section is redrawn only when its markup changes, and the
// focused button keeps the focus).
//
// The markup functions are pure (strings; tested in widgets/tests/shell.test.mjs); `mountSections` and `patchLog`
// touch the DOM they are given. Bundled by esbuild into board.bundle.js and secrets/table.bundle.js.

/** Autoplay speed range (ms per bot step): heimlich_lab/widget/front_end.py SPEED_MIN_MS.. (a test checks). */
export const SPEED_RANGE = Object.freeze({ min: 0, max: 2000, step: 50 });

export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** `key="value"` pairs; false, null and undefined are left out, true is a bare attribute. */
export function attrs(o) {
  let out = "";
  for (const [k, v] of Object.entries(o || {})) {
    if (v === null || v === undefined || v === false) continue;
    out += v === true ? ` ${k}` : ` ${k}="${esc(v)}"`;
  }
  return out;
}

/** "1 step", "4 steps", "1 point", "0 points": never "step(s)". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

/** The last replay position (positions are 0..length-1). */
export function replayLast(replay) {
  return Math.max(0, Math.trunc(Number(replay && replay.length) || 0) - 1);
}

/**
 * Which autoplay controls may be used now. `autoplay` is the state's {playing, available, speed_ms}: `available`
 * is false while a human at this screen decides (the bots wait for them), so Next and Play do nothing then and are
 * disabled, and so is Pause (nothing plays while the bots wait).
 */
export function controlStates(autoplay) {
  if (!autoplay) return null;
  const available = autoplay.available !== false;
  const playing = !!autoplay.playing;
  return { step: available && !playing, play: available && !playing, pause: available && playing };
}

/** The words the shell uses in every game: one name for one thing. */
export const WORDS = Object.freeze({
  next: "Next",
  nextTitle: "the next bot decision (N)",
  play: "Play",
  pause: "Pause",
  reveal: "Reveal",
  curtainHead: "Curtain down: public information only",
  keysTitle: "Keys",
});

/** Autoplay and replay controls (`p` is the game's class prefix, e.g. "hb" or "st"). */
export function playbackMarkup(state, p = "tb") {
  let out = "";
  const a = state && state.autoplay;
  const on = controlStates(a);
  if (on) {
    const speed = Number.isFinite(a.speed_ms) ? a.speed_ms : 400;
    const dis = (k) => (on[k] ? "" : " disabled");
    out += `<div class="${p}-autoplay" data-testid="autoplay" role="group" aria-label="Bots' pace">`
      + `<button type="button" data-control="step"${dis("step")} title="${WORDS.nextTitle}" aria-keyshortcuts="N">${WORDS.next}</button>`
      + `<button type="button" data-control="play"${dis("play")} title="the bots play by themselves (P)" aria-keyshortcuts="P">${WORDS.play}</button>`
      + `<button type="button" data-control="pause"${dis("pause")} title="the bots wait for Next (P)" aria-keyshortcuts="P">${WORDS.pause}</button>`
      + `<label>Speed <input type="range" data-control="speed" min="${SPEED_RANGE.min}" max="${SPEED_RANGE.max}" step="${SPEED_RANGE.step}" value="${esc(speed)}" aria-label="milliseconds per step"/>`
      + ` <span data-bind="speed">${esc(speed)} ms</span></label></div>`;
  }
  const r = state && state.replay;
  if (r) {
    const len = replayLast(r);
    const idx = Math.max(0, Math.min(len, Math.trunc(Number(r.index) || 0)));
    out += `<div class="${p}-replay" data-testid="replay" role="group" aria-label="Replay">`
      + `<button type="button" data-replay-step="first" title="start" aria-label="to the start"${idx <= 0 ? " disabled" : ""}>\u00AB</button>`
      + `<button type="button" data-replay-step="-1" title="back ( [ )" aria-label="one step back" aria-keyshortcuts="["${idx <= 0 ? " disabled" : ""}>\u25C0</button>`
      + `<input type="range" data-control="replay" min="0" max="${len}" step="1" value="${idx}" aria-label="replay position"/>`
      + `<button type="button" data-replay-step="+1" title="forward ( ] )" aria-label="one step forward" aria-keyshortcuts="]"${idx >= len ? " disabled" : ""}>\u25B6</button>`
      + `<button type="button" data-replay-step="last" title="end" aria-label="to the end"${idx >= len ? " disabled" : ""}>\u00BB</button>`
      + ` <span data-bind="replay">${idx} / ${len}</span></div>`;
  }
  return out;
}

/** A structural signature of the playback controls: the same signature -> only values are patched. */
export function playbackSignature(state) {
  const a = state && state.autoplay;
  const r = state && state.replay;
  const on = controlStates(a);
  return JSON.stringify([on, r ? [replayLast(r), Math.trunc(r.index) <= 0, Math.trunc(r.index) >= replayLast(r)] : null]);
}

/** The hot-seat curtain: one look and one wording in every game. `text` is the kernel's sentence. */
export function curtainMarkup(text, p = "tb") {
  if (!text) return "";
  const handOver = /^Hand the screen to /.test(String(text));
  return `<div class="${p}-curtain tb-curtain" data-testid="curtain" role="dialog" aria-label="${esc(WORDS.curtainHead)}">`
    + `<p class="tb-curtain-head">${esc(WORDS.curtainHead)}</p><p class="tb-curtain-text">${esc(text)}</p>`
    + (handOver ? `<button type="button" class="${p}-reveal tb-reveal" data-curtain="reveal" data-control="reveal" aria-keyshortcuts="R">${WORDS.reveal}</button>` : "")
    + `</div>`;
}

/**
 * "Since your last turn": what happened since the viewer's last decision (the kernel's sentences). `words(line)`
 * turns a sentence into markup (default: escaped text; a game may mark the things it names, as the board marks
 * each agent's colour with its lettered swatch).
 */
export function sinceMarkup(lines, p = "tb", words = esc) {
  if (!Array.isArray(lines) || !lines.length) return "";
  return `<ol class="${p}-since" data-testid="since" tabindex="0" aria-label="Since your last turn">${logItems(lines, words)}</ol>`;
}

/** Log lines as list items (`words`: as in sinceMarkup). */
export function logItems(lines, words = esc) {
  return (lines || []).map((l) => `<li>${words(l)}</li>`).join("");
}

/**
 * The live region's politeness: polite, and off while the bots play by themselves (a screen reader would
 * otherwise talk without pause during autoplay); the headline is read again when the autoplay stops.
 */
export function liveMode(state) {
  const a = state && state.autoplay;
  return a && a.playing && a.available !== false && !(state && state.is_human_turn) ? "off" : "polite";
}

/**
 * The shell's keys, the same in every game: N next, P play or pause, R reveal (at the curtain), [ and ] replay.
 * Returns a message for the kernel's controller (or a {type: "replay-step"} for the front end), or null.
 */
export function shellKey(key, state) {
  if (typeof key !== "string" || !state) return null;
  const k = key.toLowerCase();
  const r = state.replay;
  if (r && (key === "[" || key === "]")) {
    const i = Math.max(0, Math.min(replayLast(r), Math.trunc(Number(r.index) || 0) + (key === "[" ? -1 : 1)));
    return i === Math.trunc(Number(r.index) || 0) ? null : { type: "replay", index: i };
  }
  if (state.curtain) return k === "r" && /^Hand the screen to /.test(String(state.curtain)) ? { type: "curtain" } : null;
  const on = controlStates(state.autoplay);
  if (on && k === "n" && on.step) return { type: "control", command: "step" };
  if (on && k === "p" && (on.play || on.pause)) return { type: "control", command: on.pause ? "pause" : "play" };
  return null;
}

/** A CSS selector that finds "the same" control again after its section was redrawn. */
export const FOCUS_KEYS = Object.freeze(["data-action", "data-command", "data-step", "data-control", "data-curtain",
  "data-replay-step", "data-building-action", "data-card"]);

export function focusKeyOf(node) {
  if (!node || !node.hasAttribute) return null;
  for (const a of FOCUS_KEYS) {
    if (node.hasAttribute(a)) {
      const t = node.getAttribute("data-target");
      const q = (s) => String(s).replace(/["\\]/g, "\\$&");
      return `[${a}="${q(node.getAttribute(a))}"]${t ? `[data-target="${q(t)}"]` : ""}`;
    }
  }
  return null;
}

/**
 * DOM: the sections of a table. `set(name, html)` redraws a section only when its markup changed, and gives
 * the focus back to the same control (or to `root`) when the focused one was redrawn.
 */
export function mountSections(root, names) {
  const sections = {};
  for (const k of names) sections[k] = root.querySelector(`[data-section="${k}"]`);
  const cache = new Map();
  const doc = root.ownerDocument;
  function set(name, html) {
    if (cache.get(name) === html) return false;
    const active = doc.activeElement;
    const hadFocus = !!active && sections[name].contains(active);
    const focusKey = hadFocus ? focusKeyOf(active) : null;
    cache.set(name, html);
    sections[name].innerHTML = html;
    if (hadFocus && !root.contains(doc.activeElement)) {
      let target = focusKey ? root.querySelector(focusKey) : null;
      if (!target || target.disabled) target = root;
      try { target.focus({ preventScroll: true }); } catch (e) { /* ignore */ }
    }
    return true;
  }
  return { sections, set, cache };
}

/**
 * DOM: an input inside a table (a Class data consent box, the speed slider, the replay slider). The slider's
 * number is shown at once; `on.consent(player, value)` and `on.speed(ms)` are called when the input is changed,
 * `on.seek(index, final)` on every move of the replay slider (`final` once it is let go). Returns whether the input
 * was one of these.
 */
export function controlInput(event, playback, replay, on) {
  const t = event.target;
  if (!t || !t.getAttribute) return false;
  if (t.hasAttribute("data-consent")) {
    // the kernel decides: it answers with a new class_data, which redraws the box with its state
    if (event.type === "change") on.consent(t.getAttribute("data-consent"), !!t.checked);
    return true;
  }
  const c = t.getAttribute("data-control");
  if (c === "speed") {
    const sb = playback.querySelector('[data-bind="speed"]');
    if (sb) sb.textContent = `${t.value} ms`;
    if (event.type === "change") on.speed(Number(t.value));
    return true;
  }
  if (c === "replay" && replay) {
    const rb = playback.querySelector('[data-bind="replay"]');
    if (rb) rb.textContent = `${t.value} / ${replayLast(replay)}`;
    on.seek(Number(t.value), event.type === "change");
    return true;
  }
  return false;
}

/**
 * DOM: a table's listeners: `dom` ([event type, handler] on `target`) and `changes` ([traitlet event, handler] on
 * the model). Returns the function that removes them all (for anywidget's clean-up).
 */
export function wire(target, model, dom, changes) {
  for (const [type, f] of dom) target.addEventListener(type, f);
  for (const [name, f] of changes) model.on(name, f);
  return () => {
    for (const [type, f] of dom) target.removeEventListener(type, f);
    for (const [name, f] of changes) model.off(name, f);
  };
}

/** DOM: the log only grows during a game; append the new lines instead of redrawing it. Returns `lines`. */
export function patchLog(ol, lines, prev, words = esc) {
  if (prev && lines.length >= prev.length && prev.every((line, i) => lines[i] === line)) {
    if (lines.length > prev.length) ol.insertAdjacentHTML("beforeend", logItems(lines.slice(prev.length), words));
  } else {
    ol.innerHTML = logItems(lines, words);
  }
  ol.scrollTop = ol.scrollHeight;
  return lines;
}

/**
 * The belief panel's headline (issue 24, item 4): the most informative update since the viewer's last turn, in
 * the game's plain words (`headline.text`; `headline.earlier`: the most telling update so far, when nothing new
 * happened; `headline.label`: its lead-in, "Since your last turn:" by default). The shell shows it; each game's
 * kernel writes it (`words`: as in sinceMarkup). "" without a headline.
 */
export function beliefHeadlineMarkup(headline, p = "tb", words = esc) {
  if (!headline || !headline.text) return "";
  const where = Number.isFinite(Number(headline.log)) && headline.log !== null && headline.log !== undefined
    ? ` data-log-entry="${esc(Math.trunc(Number(headline.log)))}"` : "";
  const earlier = headline.earlier
    ? `<span class="tb-headline-earlier" data-testid="belief-earlier">Most telling so far: ${words(headline.earlier)}</span>` : "";
  return `<p class="${p}-headline tb-headline" data-testid="belief-headline"${where}>`
    + `<span class="tb-headline-label">${esc(headline.label || "Since your last turn:")}</span> <span class="tb-headline-text">${words(headline.text)}</span>${earlier}</p>`;
}

/**
 * The words the belief panel's details use, each with a one-line gloss, in a list (`glossary`: [{term, gloss}]).
 * It goes inside the panel's "details" disclosure, beside the jargon it explains.
 */
export function glossaryMarkup(glossary, p = "tb") {
  if (!Array.isArray(glossary) || !glossary.length) return "";
  const items = glossary.filter((g) => g && g.term)
    .map((g) => `<dt>${esc(g.term)}</dt><dd>${esc(g.gloss || "")}</dd>`).join("");
  return items ? `<dl class="${p}-glossary tb-glossary" data-testid="glossary" aria-label="Words used here">${items}</dl>` : "";
}
