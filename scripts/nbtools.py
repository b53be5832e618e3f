"""Small helpers to write course notebooks from Python (used once per notebook; the .ipynb files are the source)."""
from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook


def md(text: str, tags=()):
    c = new_markdown_cell(text.strip("\n"))
    if tags:
        c.metadata["tags"] = list(tags)
    return c


def code(text: str, tags=()):
    c = new_code_cell(text.strip("\n"))
    if tags:
        c.metadata["tags"] = list(tags)
    return c


def write(path: str, cells) -> None:
    nb = new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.write(nb, path)
