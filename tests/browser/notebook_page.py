"""Driving a notebook in JupyterLab from a Playwright page: shared by the real-browser tests of both boards.

The test modules import it by name (pytest puts this folder, which has no ``__init__.py``, on ``sys.path``).
"""
from __future__ import annotations

import json
import re
from pathlib import Path


def run_all_cells(page, lab: str, name: str) -> None:
    """Open the notebook ``name`` in a fresh JupyterLab workspace and run all its cells once the kernel is idle."""
    page.goto(f"{lab}/lab/tree/{name}?reset")          # a fresh workspace: only this notebook
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext", timeout=60_000)
    page.evaluate("""async () => {
        const w = window.jupyterapp.shell.currentWidget;
        await w.context.ready; await w.sessionContext.ready;
        for (let i = 0; i < 600; i++) {
          const k = w.sessionContext.session && w.sessionContext.session.kernel;
          if (k && k.connectionStatus === 'connected' && k.status === 'idle') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await window.jupyterapp.commands.execute('notebook:run-all-cells');
    }""")


def run_report(page) -> dict:
    """Run the notebook's last cell in the kernel and read the JSON it prints after ``REPORT``."""
    text = page.evaluate("""async () => {
        const app = window.jupyterapp, nb = app.shell.currentWidget.content;
        const i = nb.widgets.length - 1, cell = nb.widgets[i];
        nb.activeCellIndex = i;
        cell.model.outputs.clear();
        await app.commands.execute('notebook:run-cell');
        for (let k = 0; k < 400; k++) {
          const t = cell.outputArea.node.innerText || '';
          if (t.includes('REPORT ')) return t;
          await new Promise((r) => setTimeout(r, 25));
        }
        return cell.outputArea.node.innerText;
    }""")
    m = re.search(r"REPORT (\{.*\})", text, re.S)
    assert m, f"no report in the cell output: {text[:500]}"
    return json.loads(m.group(1))


#: The classroom screen the boards must fit (a laptop at default zoom).
SCREEN = {"width": 1366, "height": 768}


def inside(box, screen=SCREEN) -> bool:
    """Whether a bounding box (Playwright's ``{x, y, width, height}``) lies inside the window ``screen``."""
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= screen["width"] + 0.5 \
        and box["y"] + box["height"] <= screen["height"] + 0.5


#: axe-core (npm, pinned in widgets/package.json; `npm ci --prefix widgets`, which make test-js and test-py run).
AXE = Path(__file__).resolve().parents[2] / "widgets" / "node_modules" / "axe-core" / "axe.min.js"
#: The WCAG 2.1 A and AA rules.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(page, selector: str, impacts=("serious", "critical")) -> list[dict]:
    """axe-core's violations of the WCAG 2.1 A/AA rules inside ``selector``, of the given impacts: each with its
    rule id, impact, help text and up to five nodes (their selector and axe's summary of the failure)."""
    assert AXE.is_file(), f"axe-core is missing ({AXE}): run npm ci --prefix widgets"
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE.read_text())
    found = page.evaluate("""async ([sel, tags]) => {
        const r = await window.axe.run(document.querySelector(sel), {runOnly: {type: 'tag', values: tags}});
        return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} :: ${n.failureSummary}`)}));
    }""", [selector, AXE_TAGS])
    return [v for v in found if v["impact"] in impacts]
