"""What every game's table in JupyterLab shares: the anywidget (:mod:`~heimlich_lab.widget.front_end`) and the
controller (:mod:`~heimlich_lab.widget.table_controller`: who sits at the screen, the curtain, bots' steps,
autoplay, the front end's messages). Each game's table lives in its package (``heimlich_lab/games/<game>/``).
"""
from .._compat import legacy_exports

# the first game's board, which this package exported before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
