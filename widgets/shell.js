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

/** DOM: the live region says the curtain's words or the headline, politely or not at all (liveMode). */
export function announce(live, state) {
  const mode = liveMode(state);
  if (live.getAttribute("aria-live") !== mode) live.setAttribute("aria-live", mode);
  const said = state.curtain ? state.curtain : state.headline;
  if (live.textContent !== said) live.textContent = said || "";
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

/**
 * DOM: whether a table reads a keydown as its own key (then a one-character key is kept from JupyterLab's
 * command-mode shortcuts: a, b, d d, m, 1-9 ...). Not with a modifier, Tab or Shift+Enter, nor while typing in a
 * field (sliders keep their arrow keys); Enter or Space on a button is the button's own click, kept from JupyterLab.
 */
export function tableKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const t = event.target;
  const tag = t && t.tagName ? t.tagName.toLowerCase() : "";
  if (tag === "input" || tag === "select" || tag === "textarea") return false;
  if (event.key === "Tab" || (event.key === "Enter" && event.shiftKey)) return false;
  if (tag === "button" && (event.key === "Enter" || event.key === " ")) {
    event.stopPropagation();
    return false;
  }
  if (event.key.length === 1) event.stopPropagation();
  return true;
}

/** The shell's message for a clicked button's `data-` attributes (the curtain's Reveal, Next, Play, Pause, the
 * replay's steps), or null: a button of the game's own. */
export function shellButton(d, state) {
  if (d.curtain === "reveal") return { type: "curtain" };
  if (d.control === "step" || d.control === "play" || d.control === "pause") return { type: "control", command: d.control };
  if (d.replayStep && state && state.replay) {
    const last = replayLast(state.replay);
    const i = d.replayStep === "first" ? 0 : d.replayStep === "last" ? last : state.replay.index + Number(d.replayStep);
    return { type: "replay", index: Math.max(0, Math.min(last, i)) };
  }
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
 * DOM: a table's root: a focusable region named `label` (not role="application": the belief table and the log stay
 * browsable for a screen reader), with the game's skeleton (its sections) inside.
 */
export function tableRoot(doc, cls, label, skeleton) {
  const root = doc.createElement("div");
  root.className = cls;
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", label);
  root.innerHTML = skeleton;
  return root;
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
  // the playback controls: the same controls (signature) -> only their values are patched, so that a slider being
  // dragged keeps working; `extra`: more of the game's signature (an error line under the controls)
  let playbackSig = null;
  function setPlayback(state, html, extra = "", name = "playback") {
    const sig = playbackSignature(state) + extra;
    if (sig === playbackSig && sections[name].firstChild) {
      patchPlaybackValues(sections[name], state, doc.activeElement);
      cache.set(name, html);
      return false;
    }
    playbackSig = sig;
    return set(name, html);
  }
  return { sections, set, setPlayback, cache };
}

/** DOM: the playback controls' values (speed, replay position) patched in place; the control in use is left alone. */
export function patchPlaybackValues(box, state, active = null) {
  const a = state && state.autoplay;
  const r = state && state.replay;
  const ms = a && Number.isFinite(Number(a.speed_ms)) ? Number(a.speed_ms) : null;
  const speed = box.querySelector('[data-control="speed"]');
  if (speed && ms !== null && speed !== active) speed.value = String(ms);
  const sb = box.querySelector('[data-bind="speed"]');
  if (sb && ms !== null) sb.textContent = `${ms} ms`;
  const idx = r ? Math.trunc(Number(r.index) || 0) : 0;
  const sl = box.querySelector('[data-control="replay"]');
  if (sl && r && sl !== active) sl.value = String(idx);
  const rb = box.querySelector('[data-bind="replay"]');
  if (rb && r) rb.textContent = `${idx} / ${replayLast(r)}`;
}

/**
 * The Class data box (the `class_data` traitlet, heimlich_lab/widget/class_folder.py), the same in every game: the
 * consent question as the kernel words it, one checkbox per human seat (ticked only when the kernel says so), where
 * saving stands, a folder problem. Empty markup when the table saves no class data.
 */
export function classDataMarkup(cd, p = "tb") {
  if (!cd || typeof cd !== "object" || !Array.isArray(cd.seats)) return "";
  const boxes = cd.seats.map((s) => `<label class="${p}-consent"><input type="checkbox"${attrs({
    "data-consent": s.player, checked: s.consent === true })}> ${esc(s.label)}</label>`).join("");
  return `<div class="${p}-class-data" data-testid="class-data" role="group" aria-label="Class data"${attrs({ "data-version": cd.version })}>`
    + `<p class="${p}-class-text" data-testid="class-data-text">${esc(cd.text)}</p>`
    + (boxes ? `<div class="${p}-consents">${boxes}</div>` : "")
    + `<p class="${p}-class-status" data-testid="class-data-status">${esc(cd.status)}</p>`
    + (cd.error ? `<div class="${p}-error" data-testid="class-data-error" role="alert">${esc(cd.error)}</div>` : "")
    + `</div>`;
}

/** DOM: the Class data box's update: redrawn from the model's `class_data` only when its markup changes. */
export function classDataUpdater(box, model, p = "tb") {
  let html = null;
  return () => {
    const next = classDataMarkup(model.get("class_data"), p);
    if (next === html) return false;
    html = next;
    box.innerHTML = next;
    return true;
  };
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
 * A replay slider's seeks, debounced (both tables): `go(index)` once the slider rests for `ms`, at once when it is
 * let go (`final`), never twice for one index until `reset()` (call it when the kernel's state arrives).
 */
export function debouncedSeek(go, ms = 60) {
  let timer = null;
  let sent = null;
  return {
    seek(index, final) {
      clearTimeout(timer);
      const run = () => {
        if (index === sent) return;
        sent = index;
        go(index);
      };
      if (final) run();
      else timer = setTimeout(run, ms);
    },
    reset() { sent = null; },
    cancel() { clearTimeout(timer); },
  };
}

/**
 * DOM: a game's table mounted in anywidget's `el` (every game on the shell): its root (tableRoot's), the Class data
 * box right after it (class `${p}-class-section`), its sections (mountSections') and its live region.
 */
export function mountTable(el, cls, label, skeleton, names, p) {
  const doc = el.ownerDocument || document;
  const root = tableRoot(doc, cls, label, skeleton);
  const classBox = doc.createElement("div");
  classBox.className = `${p}-class-section`;
  el.replaceChildren(root, classBox);
  return { doc, root, classBox, ...mountSections(root, names), live: root.querySelector('[data-testid="live"]') };
}

/**
 * A table's channel to the kernel (every game on the shell): `send(msg)`, the replay slider's debounced seeks
 * (`replay`, debouncedSeek's) and the Class data box's updater (classDataUpdater's with prefix `p`), which does
 * nothing once `isGone()` (the view was removed while a message was on its way).
 */
export function tableChannel(model, classBox, p, isGone, ms = 60) {
  const send = (msg) => model.send(msg);
  const update = classDataUpdater(classBox, model, p);
  return {
    send,
    replay: debouncedSeek((index) => send({ type: "replay", index }), ms),
    updateClassData() { if (!isGone()) update(); },
  };
}

/** DOM: the enabled button inside `root` that a click landed on (on it or on its text), or null. */
export function clickedButton(root, event) {
  const node = event.target && event.target.closest ? event.target.closest("button") : null;
  return node && root.contains(node) && !node.disabled ? node : null;
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

/** The messages of the shell's inputs (a consent box, the speed slider; `seek`, the replay slider's): the `on` of
 * controlInput for a table's `send`. */
export function controlMessages(send, seek) {
  return {
    consent: (player, value) => send({ type: "consent", player, value }),
    speed: (value) => send({ type: "control", command: "speed", value }),
    seek,
  };
}

/**
 * DOM: a table's start, the same in every game on the shell: the projector toggle (remembered per notebook; the
 * layout is the game's CSS), the table's events (`dom`: [type, handler] pairs on `root`), `update` on the model's
 * state and setup, `updateClassData` on its class data, `onClassChange` on the Class data box, then the first
 * draw. Returns what undoes it all.
 */
export function startTable(root, model, classBox, dom, update, updateClassData, onClassChange) {
  const proj = mountProjector(root, model, root.querySelector('[data-shell="tools"]'));
  const unwire = wire(root, model, dom,
    [["change:state", update], ["change:setup", update], ["change:class_data", updateClassData]]);
  classBox.addEventListener("change", onClassChange);
  update();
  updateClassData();
  return () => {
    unwire();
    proj.destroy();
    classBox.removeEventListener("change", onClassChange);
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

/**
 * Projector mode (issue 24, item 3): a larger board and larger text for a room, the table's decision and the belief
 * headline beside the board, all on one screen at 150% zoom. The choice is remembered per notebook in the browser's
 * localStorage (key: `projectorKey`), which survives a page reload, a kernel restart and "Run All" (a new widget);
 * it is also the widget's `projector` traitlet, so the kernel can read or set it.
 */
export const PROJECTOR = Object.freeze({ cls: "tb-projector", prefix: "heimlich-lab:projector:", label: "Projector" });

/** The localStorage key of a notebook's projector choice (`notebook`: its path, as the kernel knows it). */
export function projectorKey(notebook, fallback = "") {
  return PROJECTOR.prefix + String(notebook || fallback || "");
}

/** The stored choice: true, false, or null (never chosen for this notebook, or no storage). */
export function storedProjector(storage, key) {
  try {
    const v = storage ? storage.getItem(key) : null;
    return v === "on" ? true : v === "off" ? false : null;
  } catch (e) {
    return null;
  }
}

/** The toggle's markup: a button with its state in aria-pressed. */
export function projectorButtonMarkup(on) {
  return `<button type="button" class="tb-projector-toggle" data-control="projector" aria-pressed="${on ? "true" : "false"}"`
    + ` title="Projector mode: a larger board and larger text for a room (remembered for this notebook)">${PROJECTOR.label}</button>`;
}

/**
 * DOM: the box the table is seen through: of the ancestors that clip their content vertically (JupyterLab's notebook
 * panel, an output area that scrolls sideways), the one of the least height; null when none does (Voila: the window).
 */
export function scrollParent(node) {
  const win = node && node.ownerDocument && node.ownerDocument.defaultView;
  let best = null;
  for (let e = node && node.parentElement; e && win; e = e.parentElement) {
    const o = win.getComputedStyle(e).overflowY;
    if ((o === "auto" || o === "scroll" || o === "hidden") && e.clientHeight > 0
        && (!best || e.clientHeight < best.clientHeight)) best = e;
  }
  return best;
}

/**
 * DOM: the projector toggle of a table. `slot` receives the button; `changed(on)` lets the game redraw (the board's
 * geometry changes). While on, `--tb-fit-height` on `root` is the height the table may take (its scroll box's
 * height): the game's CSS sizes its board with it. Returns {on(), destroy()}.
 */
export function mountProjector(root, model, slot, changed = () => {}) {
  const win = root.ownerDocument.defaultView;
  let storage = null;
  try {
    storage = win.localStorage;
  } catch (e) { /* no storage: the traitlet alone */ }
  const key = projectorKey(model.get("notebook"), win.location && win.location.pathname);
  slot.innerHTML = projectorButtonMarkup(false);
  const button = slot.firstElementChild;
  let on = null;
  let observer = null;
  function fit() {
    const box = scrollParent(root);
    const h = Math.min(box ? box.clientHeight : Infinity, win.innerHeight);
    if (h > 0) root.style.setProperty("--tb-fit-height", `${Math.round(h)}px`);
  }
  function set(value, store) {
    const v = !!value;
    if (store && storage) {
      try {
        storage.setItem(key, v ? "on" : "off");
      } catch (e) { /* full or refused: the traitlet still says it */ }
    }
    if (model.get("projector") !== v) {
      model.set("projector", v);
      model.save_changes();
    }
    if (v === on) return;
    on = v;
    root.classList.toggle(PROJECTOR.cls, on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) fit();
    changed(on);
  }
  const onClick = (event) => {
    event.preventDefault();
    event.stopPropagation();
    set(!on, true);
  };
  const onModel = () => set(model.get("projector"), true);
  const stored = storedProjector(storage, key);
  set(stored === null ? model.get("projector") : stored, false);
  button.addEventListener("click", onClick);
  model.on("change:projector", onModel);
  if (win.ResizeObserver) {
    observer = new win.ResizeObserver(() => { if (on) fit(); });
    const box = scrollParent(root);
    observer.observe(box || root.ownerDocument.documentElement);
  }
  // the scroll box is known only once the table is on the page
  const later = win.requestAnimationFrame ? win.requestAnimationFrame.bind(win) : (f) => setTimeout(f, 16);
  later(() => {
    if (!on) return;
    fit();
    if (observer) {
      const box = scrollParent(root);
      if (box) observer.observe(box);
    }
  });
  return {
    on: () => on,
    destroy() {
      button.removeEventListener("click", onClick);
      model.off("change:projector", onModel);
      if (observer) observer.disconnect();
    },
  };
}

/** The belief panel frame's words, the same in every game (each game's table and details are its own). */
export const BELIEF_WORDS = Object.freeze({
  hidden: "Beliefs are hidden behind the curtain.",
  none: "No belief is shown for this view.",
  explanation: "Latest update, in the model's words:",
});

/**
 * The belief panel's frame (issue 24, items 1 and 4), the same in every game: behind the curtain a line, without a
 * belief a line; else the title, the headline (the story, `beliefHeadlineMarkup`), the game's `body` (its table), and
 * a "details" disclosure (`summary`) with the model's latest update in its own words, the game's `details` and the
 * glossary. `belief`: the kernel's panel ({title, headline, explanation, glossary, version}; heimlich_lab/widget/
 * story.py `panel_frame`); `p`: the game's class prefix.
 */
export function beliefPanelMarkup(p, { curtain = false, belief = null, title = "", body = "", summary = "Details", details = "", words = esc } = {}) {
  const open = (kind, extra = "") => `<section class="${p}-belief tb-belief" data-testid="belief" data-belief="${kind}"${extra}>`;
  if (curtain) return `${open("hidden")}<p>${BELIEF_WORDS.hidden}</p></section>`;
  if (!belief) return `${open("none")}<p>${BELIEF_WORDS.none}</p></section>`;
  const v = Number(belief.version);
  const version = belief.version !== null && belief.version !== undefined && belief.version !== "" && Number.isFinite(v)
    ? ` data-belief-version="${Math.trunc(v)}"` : "";
  const expl = belief.explanation
    ? `<p class="${p}-explanation tb-explanation" data-testid="belief-explanation"><strong>${BELIEF_WORDS.explanation}</strong> ${esc(belief.explanation)}</p>` : "";
  return `${open("shown", version)}<h4 class="${p}-belief-title tb-belief-title">${esc(title || belief.title || "Belief")}</h4>`
    + `${beliefHeadlineMarkup(belief.headline, p, words)}${body}`
    + `<details class="${p}-fold" data-fold="belief-more"><summary>${esc(summary)}</summary>${expl}${details}${glossaryMarkup(belief.glossary, p)}</details></section>`;
}
