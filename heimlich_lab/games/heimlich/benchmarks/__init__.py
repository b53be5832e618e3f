"""Speed benchmarks for ``heimlich-lab bench``: figures that are printed, never asserted.

Each module has functions ``bench_*(quick=False) -> [(label, value, unit), ...]``. They live
here, above every layer they measure (rules, inference, bots, analysis), so no layer imports
upward to be measured; ``heimlich_lab.commands.bench`` names them.
"""
