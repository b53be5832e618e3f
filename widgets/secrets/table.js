// The Secrets table in the notebook (anywidget ES module; no build step, no imports). anywidget uses the default
// export; `classData` is exported for widgets/tests/classdata.test.mjs.
// It knows no rules: it draws the synced `setup` and `state` (heimlich_lab/games/secrets/widget_state.py) and sends
// messages to the kernel: {type: "action", action}, {type: "curtain"}, {type: "control", command},
// {type: "replay", index}, {type: "consent", player, value} (the Class data box).

const TEAM_CLASS = { CIA: "st-cia", KGB: "st-kgb", Hippie: "st-hippie" };
const CARD_SHORT = {
  psychiatrist: "Psy", "double-agent": "DA", politician: "Pol", journalist: "Jou",
  diplomat: "Dip", detective: "Det", scientist: "Sci", assassin: "Ass",
};
const CARD_NAME = {
  psychiatrist: "Psychiatrist", "double-agent": "Double Agent", politician: "Politician", journalist: "Journalist",
  diplomat: "Diplomat", detective: "Detective", scientist: "Scientist", assassin: "Assassin",
};

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

function marker(team, title) {
  return h("span", { class: `st-marker ${team ? TEAM_CLASS[team] : "st-unknown"}`, "data-marker": team || "?",
    title }, team || "?");
}

function pct(p) {
  return `${Math.round(p * 100)}%`;
}

function seatBox(seat, i, n, end) {
  // seat 0 at the bottom, the others clockwise around the circle: left is the next seat (the deck passes left)
  const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
  const x = 50 + 37 * Math.cos(angle), y = 50 + 39 * Math.sin(angle);   // an ellipse inside the area
  const cards = seat.cards.map((c) => h("span", {
    class: `st-card${c.up ? "" : " st-down"}`, "data-card": c.card, title: `${CARD_NAME[c.card]}${c.up ? "" : " (face down, 0)"}`,
  }, CARD_SHORT[c.card]));
  for (let b = 0; b < seat.bullets; b++) {
    const v = seat.bullet_values[b];
    cards.push(h("span", { class: "st-card st-bullet", "data-bullet": v === undefined ? "?" : v,
      title: "bullet" }, v === undefined ? "•" : String(v)));
  }
  const cls = ["st-seat", seat.active && "st-active", seat.deciding && "st-deciding", seat.you && "st-you"]
    .filter(Boolean).join(" ");
  return h("div", { class: cls, "data-seat": seat.name, style: `left:${x}%;top:${y}%` },
    h("div", { class: "st-seat-head" },
      marker(seat.marker, seat.marker ? `${seat.name}'s marker: ${seat.marker} (seen)` : `${seat.name}'s marker: unknown`),
      h("b", { text: seat.name + (seat.you ? " (you)" : "") }),
      seat.un ? h("span", { class: "st-un", "data-testid": "un-marker", title: "UN marker" }, "UN") : null),
    h("div", { class: "st-tableau", "data-testid": `tableau-${seat.name}` }, cards),
    h("div", { class: "st-seat-foot" }, `${seat.size}/${end} cards · ${seat.points} pts`));
}

function centre(state) {
  const parts = [
    h("div", { class: "st-deck", "data-testid": "deck", title: "character deck" }, `Deck ${state.deck_size}`),
    h("div", { class: "st-middle", "data-testid": "middle" }, "Middle ", marker(state.middle.marker, "the middle marker")),
  ];
  if (state.candidates.length) {
    parts.push(h("div", { class: "st-offer", "data-testid": "candidates" },
      `${state.active} drew: `, state.candidates.map((c) => h("span", { class: "st-card", "data-card": c }, CARD_NAME[c]))));
  }
  if (state.offer) {
    parts.push(h("div", { class: "st-offer", "data-testid": "offer" },
      `${state.offer.from} offers `, state.offer.card
        ? h("span", { class: "st-card", "data-card": state.offer.card }, CARD_NAME[state.offer.card])
        : h("span", { class: "st-card st-down" }, "?"),
      ` to ${state.offer.to}`));
  }
  if (state.is_over) {
    const w = state.winners.length ? state.winners.join(", ") : "nobody (a tie)";
    parts.push(h("div", { class: "st-result", "data-testid": "result" }, `Over. Winners: ${w}`));
  }
  return h("div", { class: "st-centre" }, parts);
}

function beliefPanel(setup, belief, over) {
  if (!belief) return h("div", { class: "st-belief", "data-testid": "belief" }, h("i", {}, "No belief shown for this view."));
  const rows = setup.slots.map((slot) => {
    const d = belief.identities[slot];
    const best = setup.teams.reduce((a, t) => (d[t] > d[a] ? t : a), setup.teams[0]);
    return h("tr", { "data-belief-slot": slot },
      h("th", { text: slot === belief.observer ? `${slot} (you)` : slot }),
      setup.teams.map((t) => h("td", { class: t === best ? "st-best" : "", "data-team": t, title: `P(${slot} is ${t})` },
        h("span", { class: `st-bar ${TEAM_CLASS[t]}`, style: `width:${Math.round(d[t] * 100)}%` }),
        h("span", { class: "st-p" }, pct(d[t])))));
  });
  return h("div", { class: "st-belief", "data-testid": "belief", "data-version": belief.version },
    h("div", { class: "st-title" }, `Belief of ${belief.observer || "a spectator"}${over ? " (before the reveal)" : ""}`),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), setup.teams.map((t) => h("th", { text: t })))),
      h("tbody", {}, rows)),
    h("div", { class: "st-explain", "data-testid": "belief-explanation" }, belief.explanation));
}

function controls(state, send) {
  const out = [];
  if (state.decisions.length) {
    out.push(h("div", { class: "st-decide", "data-testid": "decision" }, `Your decision (${state.phase}):`));
    out.push(h("div", { class: "st-buttons" }, state.decisions.map((d) =>
      h("button", { class: "st-btn", "data-action": d.notation, onclick: () => send({ type: "action", action: d.notation }) },
        d.label))));
  } else if (!state.is_over) {
    const who = state.current ? `${state.current} decides (${state.phase})` : state.phase;
    out.push(h("div", { class: "st-decide", "data-testid": "decision" }, who));
  }
  if (state.autoplay && !state.is_over) {
    out.push(h("div", { class: "st-buttons" },
      h("button", { class: "st-btn", "data-control": "step", onclick: () => send({ type: "control", command: "step" }) }, "Step"),
      state.autoplay.playing
        ? h("button", { class: "st-btn", "data-control": "pause", onclick: () => send({ type: "control", command: "pause" }) }, "Pause")
        : h("button", { class: "st-btn", "data-control": "play", onclick: () => send({ type: "control", command: "play" }) }, "Play")));
  }
  if (state.replay) {
    const r = state.replay;
    const slider = h("input", { type: "range", min: 0, max: r.length - 1, value: r.index, "data-testid": "replay-slider" });
    slider.addEventListener("change", () => send({ type: "replay", index: Number(slider.value) }));
    out.push(h("div", { class: "st-replay" },
      h("button", { class: "st-btn", "data-control": "back", onclick: () => send({ type: "replay", index: r.index - 1 }) }, "◀"),
      slider,
      h("button", { class: "st-btn", "data-control": "forward", onclick: () => send({ type: "replay", index: r.index + 1 }) }, "▶"),
      h("span", { "data-testid": "replay-step" }, `step ${r.index} / ${r.length - 1}`)));
  }
  if (state.error) out.push(h("div", { class: "st-error", "data-testid": "error" }, state.error));
  return h("div", { class: "st-controls" }, out);
}

// The Class data box (the `class_data` traitlet, heimlich_lab/widget/class_folder.py): the consent question as the
// kernel words it, one checkbox per human (ticked only when the kernel says so), where saving stands, a folder
// problem. Nothing when the table saves no class data.
export function classData(cd, send) {
  if (!cd || !Array.isArray(cd.seats)) return null;
  const boxes = cd.seats.map((s) => {
    const box = h("input", { type: "checkbox", "data-consent": s.player, checked: s.consent === true });
    box.addEventListener("change", () => send({ type: "consent", player: s.player, value: box.checked }));
    return h("label", { class: "st-consent" }, box, ` ${s.label}`);
  });
  return h("div", { class: "st-class-data", "data-testid": "class-data", role: "group", "aria-label": "Class data",
    "data-version": cd.version },
    h("p", { "data-testid": "class-data-text", text: cd.text }),
    boxes.length ? h("div", { class: "st-consents" }, boxes) : null,
    h("p", { class: "st-class-status", "data-testid": "class-data-status", text: cd.status }),
    cd.error ? h("div", { class: "st-error", "data-testid": "class-data-error", role: "alert", text: cd.error }) : null);
}

function draw(el, model) {
  const setup = model.get("setup"), state = model.get("state");
  const send = (msg) => model.send(msg);
  if (!setup || !state || !state.seats) return;
  const n = state.seats.length;
  const table = h("div", { class: "st-circle", "data-testid": "table" },
    h("div", { class: "st-felt" }), centre(state), state.seats.map((s, i) => seatBox(s, i, n, state.end_size)));
  const side = h("div", { class: "st-side" },
    h("div", { class: "st-head" },
      h("span", { "data-testid": "view-label", class: "st-label" }, state.label),
      h("span", { class: "st-turn" }, ` · turn ${state.turn}${state.un_player ? ` · UN: ${state.un_player}` : ""}`)),
    controls(state, send),
    beliefPanel(setup, state.belief, state.is_over),
    h("ol", { class: "st-log", "data-testid": "log", start: Math.max(1, state.log_length - state.log.length + 1) },
      state.log.map((line) => h("li", { text: line }))));
  const root = h("div", { class: "secrets-table" }, table, side);
  if (state.curtain) {
    root.append(h("div", { class: "st-curtain", "data-testid": "curtain" },
      h("p", { text: state.curtain }),
      state.curtain.startsWith("Hand")
        ? h("button", { class: "st-btn", "data-control": "reveal", onclick: () => send({ type: "curtain" }) }, "Reveal")
        : null));
  }
  const box = classData(model.get("class_data"), send);
  if (box) el.replaceChildren(root, box);
  else el.replaceChildren(root);
  const log = root.querySelector(".st-log");
  log.scrollTop = log.scrollHeight;      // the latest events in sight
}

function render({ model, el }) {
  const redraw = () => draw(el, model);
  model.on("change:state", redraw);
  model.on("change:setup", redraw);
  model.on("change:class_data", redraw);
  redraw();
  return () => {
    model.off("change:state", redraw);
    model.off("change:setup", redraw);
    model.off("change:class_data", redraw);
  };
}

export default { render };
