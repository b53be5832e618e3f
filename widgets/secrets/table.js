// The Secrets table in the notebook: the anywidget module, on the table shell (../shell.js). anywidget loads ESM
// from a blob: URL, where relative imports do not resolve, so the Python side loads table.bundle.js (this file
// with render.js and ../shell.js, bundled by esbuild: `node widgets/build.mjs`).
// It knows no rules: it draws the synced `setup` and `state` (heimlich_lab/games/secrets/widget_state.py) and sends
// messages to the kernel: {type: "action", action}, {type: "curtain"}, {type: "control", command},
// {type: "replay", index}, {type: "consent", player, value} (the Class data box).
// Each section is redrawn only when its markup changes, and a redrawn button keeps the keyboard focus.
import * as S from "../shell.js";
import * as R from "./render.js";

const REPLAY_DEBOUNCE_MS = 60;

// The Class data box: the table shell's (../shell.js classDataMarkup), with the table's class prefix.
export function classData(cd) {
  return S.classDataMarkup(cd, "st");
}

function render({ model, el }) {
  const { doc, root, classBox, sections, set, setPlayback, live } =
    S.mountTable(el, "secrets-table", "Secrets table", R.renderSkeleton(), R.SECTIONS, "st");
  let state = null;
  let setup = null;
  let lastLog = null;
  let logStart = null;
  let destroyed = false;

  function update() {
    if (destroyed) return;
    replay.reset();
    setup = model.get("setup");
    state = model.get("state");
    if (!setup || !state || !state.seats) return;
    root.classList.toggle("st-curtained", !!state.curtain);
    const html = R.renderSections(setup, state);
    for (const k of R.SECTIONS) {
      if (k === "log") continue;
      if (k === "playback") setPlayback(state, html[k], state.error || "");
      else set(k, html[k]);
    }
    const start = Math.max(1, state.log_length - state.log.length + 1);
    if (!sections.log.firstChild || start !== logStart) {
      set("log", R.renderLog(state));
      lastLog = state.log;
      logStart = start;
      const ol = sections.log.querySelector("ol");
      ol.scrollTop = ol.scrollHeight;
    } else {
      lastLog = S.patchLog(sections.log.querySelector("ol"), state.log, lastLog);
    }
    S.announce(live, state);
  }


  const { send, replay, updateClassData } = S.tableChannel(model, classBox, "st", () => destroyed,
    REPLAY_DEBOUNCE_MS);

  function onClick(event) {
    const node = S.clickedButton(root, event);
    if (!node) return;
    const d = node.dataset;
    const msg = d.action ? { type: "action", action: d.action } : S.shellButton(d, state);
    if (!msg) return;
    send(msg);
    event.preventDefault();
  }

  function onKeyDown(event) {
    if (!state || !S.tableKeyDown(event)) return;
    let msg = S.shellKey(event.key, state);
    if (!msg && /^[1-9]$/.test(event.key) && !state.curtain) {
      const keys = R.decisionKeys(state.decisions);
      const notation = Object.keys(keys).find((n) => keys[n] === event.key);
      if (notation) msg = { type: "action", action: notation };
    }
    if (!msg) return;
    event.preventDefault();
    send(msg);
  }

  function onInput(event) {
    S.controlInput(event, sections.playback, state && state.replay, S.controlMessages(send, replay.seek));
  }

  // a card under the pointer or focused: its value and effect in words, in the card legend's line
  function onCard(event) {
    const node = event.target && event.target.closest ? event.target.closest("[data-card]") : null;
    if (!node || !root.contains(node)) return;
    const info = root.querySelector('[data-testid="card-info"]');
    if (info) info.textContent = node.getAttribute("title");
  }

  // the projector toggle, the events, the model's changes and the first draw: the shell's
  const stop = S.startTable(root, model, classBox,
    [["click", onClick], ["keydown", onKeyDown], ["input", onInput], ["change", onInput], ["mouseover", onCard],
      ["focusin", onCard]],
    update, updateClassData, onInput);
  return () => {
    destroyed = true;
    replay.cancel();
    stop();
  };
}

export default { render };
