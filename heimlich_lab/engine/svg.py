"""The static picture every game's ``svg`` module returns: an SVG document that shows itself in a notebook.

>>> s = Svg('<svg xmlns="http://www.w3.org/2000/svg"/>')
>>> s._repr_svg_() == s
True
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["Svg"]


class Svg(str):
    """An SVG document: a string that notebooks display as a picture and that ``save`` writes to a file."""

    def _repr_svg_(self) -> str:
        return str(self)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the SVG to ``path`` (UTF-8) and return the path."""
        target = Path(path)
        target.write_text(str(self), encoding="utf-8")
        return target
