"""The replay controller: a saved record on the board with a slider.

Each position is drawn from the view of one player, a spectator, or omniscient
(labelled so), with that viewer's belief and dossier notes at that point.
"""
from __future__ import annotations

from pathlib import Path

from ....widget.table_controller import TableReplay, check_viewer
from ..inference.dossier import DossierNoteWriter
from ..rules.records import GameRecord
from ..rules.replay import public_decisions
from .front_end import BoardWidget
from .panel import belief_panel, dossier_note_lines, most_probable_sheet, replay_belief
from .state import board_setup, board_state, last_move_of


class ReplayController(TableReplay):
    """A saved record on the board with a slider, seen as one player, a spectator, or omniscient (labelled).

    ``beliefs=True`` shows the viewer's belief at each position (a spectator's for a
    spectator; none for the omniscient view, which is not anyone's knowledge).
    """

    def __init__(self, record: GameRecord, viewer: str | None = None, speed_ms: int = 300, beliefs: bool = True,
                 model=None):
        if isinstance(record, (str, Path)):
            record = GameRecord.load(record)
        check_viewer(viewer, record.players)
        self.record = record
        self.viewer = viewer
        self.views = []
        self.applied: list[int] = []    # log entries applied at each position
        self.game = None
        for _, g in record.games():
            self.game = g
            if self.applied and len(g.history) == self.applied[-1]:
                continue                # an entry already drawn from the seed (chance="auto"): same position
            self.applied.append(len(g.history))
            self.views.append(g.omniscient_view() if viewer == "omniscient" else g.view(viewer))
        self.index = 0                  # the start: the result is not given away
        self.belief = None
        self.belief_error = ""
        if beliefs and viewer != "omniscient":
            self.belief = replay_belief(record, viewer, model)
        self._panels: dict[int, dict] = {}
        self._hist = None
        self._notes = None       # position -> the viewer's dossier note lines by then
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms, setup=board_setup(self.views[0]))
        self.refresh()

    def __len__(self) -> int:
        """The number of positions on the slider."""
        return len(self.views)

    def _panel(self, index: int) -> dict | None:
        b = self.belief
        if b is None:
            return None
        if index not in self._panels:
            steps = [s for s in b.history if s.index < self.applied[index]]   # the decisions made by then
            if self._hist is None:
                self._hist = b.marginals_history()
            hist = self._hist
            k = len(steps)
            rows = [*b.players, "free"]
            m = {r: {a: float(hist[k, i, j]) for j, a in enumerate(b.agents)} for i, r in enumerate(rows)}
            ent = list(b.entropy_history()[:k + 1])
            expl = ""
            if steps and steps[-1].update is not None:
                expl = "\n".join(b.explain_step(steps[-1]))
            v = self.views[index]
            sheet, notes = None, []
            if v.rules.dossier and v.dossier_done:
                sheet = most_probable_sheet(m, v)
                notes = ["Suggested sheet: the most probable owner of each agent (or 'free') at this point."]
            notes = notes + self._note_lines(index)
            self._panels[index] = belief_panel(b, marginals=m, entropy=ent, explanation=expl, sheet=sheet,
                                               notes=notes, version=self.applied[index], steps=k)
        return self._panels[index]

    def _note_lines(self, index: int) -> list[str]:
        """The viewer's dossier notes by position ``index``, from the record as the viewer may read it (written
        in one pass over the record, the first time they are asked for)."""
        if self._notes is None:
            rec = self.record.as_player(self.viewer) if self.viewer is not None else self.record.public()
            writer, self._notes = DossierNoteWriter(self.viewer), []
            decisions = iter(public_decisions(rec, self.viewer))
            pending = next(decisions, None)
            for n in self.applied:
                while pending is not None and pending.index < n:
                    writer.add(pending)
                    pending = next(decisions, None)
                self._notes.append(dossier_note_lines(writer.notes()))
        return self._notes[index]

    def refresh(self):
        v = self.views[self.index]
        state = board_state(self.game, None if self.viewer == "omniscient" else self.viewer,
                            omniscient=self.viewer == "omniscient", view=v,
                            replay={"index": self.index, "length": len(self.views)}, last_move=last_move_of(v),
                            belief=self._panel(self.index), label=self.label)
        self.widget.state = state
