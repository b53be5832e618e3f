// heimlich-lab board widget: the anywidget module (render + event wiring).
// The markup comes from render.js (pure), the rules of interaction from logic.js (pure).
// anywidget loads ESM from a blob: URL, where relative imports do not resolve, so the
// Python side loads board.bundle.js (this file with logic.js and render.js bundled by
// esbuild: `npm ci --prefix widgets && node widgets/build.mjs`).
// Two traitlets: `setup` (fixed for the game: players, agents, ring, card names; sent once)
// and `state` (the position and the decisions now).
// The parts every game's table shares (section updates that keep the focus, the log, the shell's keys, the
// controls and the curtain's markup) are the table shell's: shell.js.
import * as L from "./logic.js";
import * as R from "./render.js";
import * as S from "./shell.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CLICK_SELECTOR = "[data-action],[data-command],[data-step],[data-control],[data-curtain],[data-replay-step],[data-building-action],[data-agent]";
const PENDING_TIMEOUT_MS = 2000;
const REPLAY_DEBOUNCE_MS = 60;

function dataOf(node) {
  const g = (k) => (node.hasAttribute(k) ? node.getAttribute(k) : undefined);
  return {
    action: g("data-action"),
    command: g("data-command"),
    step: g("data-step"),
    target: g("data-target"),
    agent: g("data-agent"),
    buildingAction: g("data-building-action"),
    control: g("data-control"),
    curtain: g("data-curtain"),
    replayStep: g("data-replay-step"),
  };
}

function isTextInput(node) {
  if (!node || !node.tagName) return false;
  const t = node.tagName.toLowerCase();
  return t === "input" || t === "select" || t === "textarea" || node.isContentEditable;
}

/** Replace keyed children (agents, markers) in place so that transform changes animate. */
function patchKeyed(layer, nodes, keyAttr, markup, innerCache) {
  const existing = new Map();
  for (const child of Array.from(layer.children)) existing.set(child.getAttribute(keyAttr), child);
  for (const n of nodes) {
    let node = existing.get(n.key);
    if (!node) {
      const tmp = layer.ownerDocument.createElementNS(SVG_NS, "svg");
      tmp.innerHTML = markup(n);
      node = tmp.firstElementChild;
      layer.appendChild(node);
      innerCache.set(node, n.inner);
      continue;
    }
    existing.delete(n.key);
    if (node.getAttribute("class") !== n.cls) node.setAttribute("class", n.cls);
    node.style.transform = `translate(${n.x}px, ${n.y}px)`;
    if (n.score !== undefined && node.getAttribute("data-score") !== String(n.score)) node.setAttribute("data-score", String(n.score));
    if (n.label !== undefined && node.getAttribute("aria-label") !== n.label) node.setAttribute("aria-label", n.label);
    if (innerCache.get(node) !== n.inner) {
      node.innerHTML = n.inner;
      innerCache.set(node, n.inner);
    }
  }
  for (const stale of existing.values()) stale.remove();
}

function render({ model, el }) {
  const doc = el.ownerDocument || document;
  const root = S.tableRoot(doc, "heimlich-board", "Heimlich & Co. board", R.renderSkeleton());
  el.appendChild(root);

  const { sections, set: setSection, setPlayback, cache } = S.mountSections(root, R.SECTIONS);
  // the Class data box (consent to save the game for the class), below the board; empty unless asked for
  const classBox = doc.createElement("div");
  classBox.className = "hb-class-section";
  root.appendChild(classBox);
  const layers = {};
  for (const k of R.SVG_LAYERS) layers[k] = root.querySelector(`[data-layer="${k}"]`);
  const innerCache = new WeakMap();

  let ui = L.initialUi();
  let vm = null;
  let lastKey = null;
  let pendingTimer = null;
  const replay = S.debouncedSeek((index) => dispatch({ type: "replay", index }), REPLAY_DEBOUNCE_MS);
  let lastLog = null;
  let lastCardPlay = null;
  let scrollQueued = false;
  let destroyed = false;

  function setLayer(name, html) {
    if (cache.get(`layer:${name}`) === html) return;
    cache.set(`layer:${name}`, html);
    layers[name].innerHTML = html;
  }

  const classData = S.classDataUpdater(classBox, model, "hb");
  function updateClassData() {
    if (!destroyed) classData();
  }


  // the log only grows during a game: append the new lines instead of redrawing it
  function patchLog(lines) {
    const ol = sections.log.querySelector('[data-testid="log"]');
    const same = lastLog && lines.length === lastLog.length && lastLog.every((line, i) => lines[i] === line);
    if (ol && same) return;
    if (ol && lastLog) S.patchLog(ol, lines, lastLog, R.lineWords(vm));
    else sections.log.innerHTML = R.renderLog(vm);
    lastLog = lines;
    scheduleLogScroll();
  }

  function scheduleLogScroll() {
    if (scrollQueued) return;
    scrollQueued = true;
    const raf = doc.defaultView && doc.defaultView.requestAnimationFrame ? doc.defaultView.requestAnimationFrame.bind(doc.defaultView) : (f) => setTimeout(f, 16);
    raf(() => {
      scrollQueued = false;
      const ol = sections.log.querySelector('[data-testid="log"]');
      if (ol) ol.scrollTop = ol.scrollHeight;
    });
  }

  function update() {
    if (destroyed) return;
    const state = { ...L.normaliseState(model.get("state"), model.get("setup")), __normalised: true };
    const key = L.decisionKey(state);
    if (key !== lastKey) {
      ui = { ...ui, alloc: {}, selected: ui.selected, preview: null };
      lastKey = key;
    }
    vm = R.viewModel(state, { ...ui, projector });
    root.style.setProperty("--hb-speed", `${L.animationMs(state, model.get("speed_ms"))}ms`);
    root.classList.toggle("hb-curtained", !!state.curtain);
    root.classList.toggle("hb-my-turn", vm.mode !== "none" && vm.mode !== "curtain");

    // SVG layers: strings for static-ish ones, keyed patch for pieces (animated moves)
    const svg = R.svgLayers(vm);
    for (const k of ["track", "buildings", "arrows", "safe", "center", "ghosts"]) setLayer(k, svg[k]);
    patchKeyed(layers.agents, R.agentNodes(vm), "data-agent", R.agentMarkup, innerCache);
    patchKeyed(layers.markers, R.markerNodes(vm), "data-marker", R.markerMarkup, innerCache);

    const html = R.renderSections(vm);
    const focusedAction = doc.activeElement && root.contains(doc.activeElement) ? doc.activeElement : null;
    const focusKey = focusedAction ? focusKeyOf(focusedAction) : null;
    for (const k of R.SECTIONS) {
      if (k === "playback" || k === "log") continue;
      setSection(k, html[k]);
    }
    setPlayback(vm.state, R.renderPlayback(vm));
    patchLog(vm.state.log);
    // a new card play is animated once (board.css hb-card-play-new), not on every redraw of its section
    const cardPlay = vm.state.card_play && vm.state.card_play.card ? String(vm.state.card_play.log) : null;
    if (cardPlay !== lastCardPlay) {
      lastCardPlay = cardPlay;
      const box = cardPlay === null ? null : sections.controls.querySelector("[data-card-play]");
      if (box) box.classList.add("hb-card-play-new");
    }
    if (focusKey && !root.contains(doc.activeElement)) restoreFocus(focusKey);
  }

  // keep keyboard focus when the focused button was re-rendered (the shell's key for "the same control")
  function focusKeyOf(node) {
    return node === root ? "root" : S.focusKeyOf(node);
  }

  function restoreFocus(key) {
    let target = key === "root" ? root : root.querySelector(key);
    if (!target || target.disabled) target = root;
    try {
      target.focus({ preventScroll: true });
    } catch (e) {
      /* ignore */
    }
  }

  function dispatch(cmd) {
    if (!cmd || !vm) return;
    if (cmd.type === "focus") {          // a card's key with several options: its first option gets the focus
      const b = [...root.querySelectorAll("[data-action]")].find((n) => n.getAttribute("data-action") === cmd.action);
      if (b) b.focus();
      return;
    }
    const { ui: next, message } = L.applyCommand(ui, cmd, vm.ctx);
    const wasPending = ui.pending;
    ui = next;
    if (message) model.send(message);
    if (ui.pending && !wasPending) {
      clearTimeout(pendingTimer);
      pendingTimer = setTimeout(() => {
        ui = { ...ui, pending: false };
        update();
      }, PENDING_TIMEOUT_MS);
    }
    update();
  }

  // a largest update's "turn N" opens the log at that turn's lines
  function showTurnInLog(turn) {
    const fold = root.querySelector('details[data-fold="log"]');
    if (fold) fold.open = true;
    const lines = [...sections.log.querySelectorAll("li")];
    for (const li of lines) li.classList.remove("hb-highlight");
    const start = lines.findIndex((li) => li.textContent.startsWith(`Turn ${turn}:`));
    if (start < 0) return;
    let end = lines.findIndex((li, i) => i > start && /^Turn \d+:/.test(li.textContent));
    if (end < 0) end = lines.length;
    for (const li of lines.slice(start, end)) li.classList.add("hb-highlight");
    lines[start].scrollIntoView({ block: "nearest" });
  }

  function onClick(event) {
    const turnLink = event.target && event.target.closest ? event.target.closest("[data-log-turn]") : null;
    if (turnLink && root.contains(turnLink)) {
      event.preventDefault();
      showTurnInLog(turnLink.getAttribute("data-log-turn"));
      return;
    }
    const node = event.target && event.target.closest ? event.target.closest(CLICK_SELECTOR) : null;
    if (!node || !root.contains(node) || node.disabled) return;
    if (node.getAttribute("data-control") === "speed" || node.getAttribute("data-control") === "replay") return;
    const cmd = L.clickCommand(dataOf(node), vm && vm.ctx);
    if (!cmd) return;
    event.preventDefault();
    dispatch(cmd);
    if (!root.contains(doc.activeElement)) restoreFocus("root");
  }

  function onKeyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (isTextInput(t)) return; // sliders keep their arrow keys
    if (event.key === "Tab" || (event.key === "Enter" && event.shiftKey)) return; // Shift+Enter runs the cell
    const onButton = t && t !== root && (t.tagName === "BUTTON" || t.getAttribute("role") === "button");
    if (onButton && (event.key === "Enter" || event.key === " ")) {
      if (t.tagName !== "BUTTON" && t.hasAttribute("data-building-action")) {
        event.preventDefault();
        event.stopPropagation();
        dispatch(L.clickCommand(dataOf(t), vm && vm.ctx));
      } else {
        event.stopPropagation(); // the button's own click handles it
      }
      return;
    }
    const cmd = vm ? L.keyCommand(event.key, vm.ctx) : null;
    // keep JupyterLab's command-mode shortcuts (a, b, d d, m, ...) away from a focused board
    if (event.key.length === 1 || event.key.startsWith("Arrow") || event.key === "Enter" || event.key === "Backspace") event.stopPropagation();
    if (!cmd) {
      // the shell's keys, the same in every game (N next, P play or pause, R reveal), when the game's keys
      // did not take the key (an agent's letter, R to roll)
      const msg = vm ? S.shellKey(event.key, vm.state) : null;
      if (msg && msg.type !== "replay") {
        event.preventDefault();
        model.send(msg);
      }
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    dispatch(cmd);
  }

  function onInput(event) {
    const t = event.target;
    if (t && t.hasAttribute && t.hasAttribute("data-ask-cards")) {
      // the kernel decides: it answers with a new state, which redraws the box with its value
      if (event.type === "change") model.send({ type: "ask-cards", player: t.getAttribute("data-ask-cards"), value: !!t.checked });
      return;
    }
    S.controlInput(event, sections.playback, vm && vm.state.replay, {
      consent: (player, value) => model.send({ type: "consent", player, value }),
      speed: (value) => dispatch({ type: "speed", value }),
      seek: replay.seek,
    });
  }

  // a card option under the pointer (or focused) previews its effect as ghosts on the board
  function onPreview(event) {
    const node = event.target && event.target.closest ? event.target.closest("[data-action]") : null;
    const action = node && root.contains(node) && (event.type === "mouseover" || event.type === "focusin")
      ? node.getAttribute("data-action") : null;
    if (action === ui.preview || (action && !L.cardPreview(vm && vm.state.decisions, action))) return;
    dispatch({ type: "preview", action });
  }

  function onState() {
    ui = { ...ui, pending: false };
    replay.reset();
    clearTimeout(pendingTimer);
    update();
  }

  // projector mode (the table shell's toggle, remembered per notebook): a larger track and markers
  let projector = false;
  const proj = S.mountProjector(root, model, root.querySelector('[data-shell="tools"]'), (on) => {
    projector = on;
    update();
  });

  const unwire = S.wire(root, model,
    [["click", onClick], ["keydown", onKeyDown], ["input", onInput], ["change", onInput],
      ...["mouseover", "mouseout", "focusin", "focusout"].map((type) => [type, onPreview])],
    [["change:state", onState], ["change:speed_ms", update], ["change:setup", update], ["change:class_data", updateClassData]]);
  update();
  updateClassData();

  return () => {
    destroyed = true;
    clearTimeout(pendingTimer);
    replay.cancel();
    unwire();
    proj.destroy();
    root.remove();
  };
}

export default { render };
