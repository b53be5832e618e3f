"""Sub-commands of the ``heimlich-lab`` program (see :mod:`heimlich_lab.cli`)."""
