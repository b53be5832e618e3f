// The Top Secret table in the notebook: the anywidget module, on the table shell (../shell.js). anywidget loads
// ESM from a blob: URL, where relative imports do not resolve, so the Python side loads table.bundle.js (this file
// with render.js and ../shell.js, bundled by esbuild: `node widgets/build.mjs`).
// It knows no rules: it draws the synced `setup` and `state` (heimlich_lab/games/topsecret1985/widget_state.py)
// and sends messages to the kernel: {type: "action", action}, {type: "curtain"}, {type: "control", command},
// {type: "replay", index}, {type: "consent", player, value} (the Class data box). Choosing an agent on the map is
// the front end's own state (which agent's next cities are offered); every decision goes to the kernel.
import * as S from "../shell.js";
import * as R from "./render.js";

const REPLAY_DEBOUNCE_MS = 60;

// The Class data box: the table shell's (../shell.js classDataMarkup), with the table's class prefix.
export function classData(cd) {
  return S.classDataMarkup(cd, "ts");
}

/** The decision the contents' form names (the kernel's notation), or, for a form the rules refuse (a content
 * twice), the same words, which the kernel refuses with its reason. */
export function contentsNotation(decisions, chosen) {
  const letters = Object.keys(chosen);
  const d = (decisions || []).find((x) => x.kind === "contents" && letters.every((L) => x.contents[L] === chosen[L]));
  return d ? d.notation : `contents ${letters.map((L) => `${L}=${chosen[L]}`).join(" ")}`;
}

function render({ model, el }) {
  const { doc, root, classBox, sections, set, setPlayback, live } =
    S.mountTable(el, "topsecret-table", "Top Secret table", R.renderSkeleton(), R.SECTIONS, "ts");
  let state = null;
  let setup = null;
  let chosen = null;          // the agent whose path is being clicked
  let destroyed = false;

  function draw() {
    if (destroyed || !setup || !state || !state.seats) return;
    root.classList.toggle("ts-curtained", !!state.curtain);
    chosen = R.selectedAgent(state, chosen);
    const html = R.renderSections(setup, state, chosen);
    const onMap = sections.map.contains(doc.activeElement);
    for (const k of R.SECTIONS) {
      if (k === "playback") setPlayback(state, html[k], state.error || "");
      else if (k === "log") {
        if (set(k, html[k])) {
          const ol = sections.log.querySelector("ol");
          if (ol) ol.scrollTop = ol.scrollHeight;
        }
      } else set(k, html[k]);
    }
    // a step taken from the keyboard: the focus goes on to the agent's next city (or to an agent), not to the root
    if (onMap && doc.activeElement === root) {
      const next = [".ts-step", ".ts-agent.ts-chosen", ".ts-target"].map((q) => sections.map.querySelector(q)).find(Boolean);
      if (next) next.focus({ preventScroll: true });
    }
    S.announce(live, state);
  }

  function update() {
    if (destroyed) return;
    replay.reset();
    setup = model.get("setup");
    state = model.get("state");
    draw();
  }

  const { send, replay, updateClassData } = S.tableChannel(model, classBox, "ts", () => destroyed,
    REPLAY_DEBOUNCE_MS);

  function onClick(event) {
    const node = S.clickedButton(root, event);
    if (!node) return;
    const d = node.dataset;
    if (d.action) send({ type: "action", action: d.action });
    else if (d.agent) {
      chosen = d.agent;
      draw();
      const next = sections.map.querySelector(".ts-step");   // the keyboard goes on to the agent's first city
      if (next && event.detail === 0) next.focus({ preventScroll: true });
    } else if (d.contents === "hide" && state) {
      const pick = {};
      for (const s of sections.decision.querySelectorAll("select[data-letter]")) pick[s.dataset.letter] = s.value;
      send({ type: "action", action: contentsNotation(state.decisions, pick) });
    } else {
      const msg = S.shellButton(d, state);
      if (!msg) return;
      send(msg);
    }
    event.preventDefault();
  }

  function onKeyDown(event) {
    if (!state || !S.tableKeyDown(event)) return;
    const msg = S.shellKey(event.key, state);
    if (!msg) return;
    event.preventDefault();
    send(msg);
  }

  function onInput(event) {
    if (event.target && event.target.dataset && event.target.dataset.letter) return;   // the contents' form
    S.controlInput(event, sections.playback, state && state.replay, S.controlMessages(send, replay.seek));
  }

  // the projector toggle, the events, the model's changes and the first draw: the shell's
  const stop = S.startTable(root, model, classBox,
    [["click", onClick], ["keydown", onKeyDown], ["input", onInput], ["change", onInput]],
    update, updateClassData, onInput);
  return () => {
    destroyed = true;
    replay.cancel();
    stop();
  };
}

export default { render };
