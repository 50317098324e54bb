"""Tools over any procedure, through the registry only (no game module: the forbidden contract
in pyproject.toml): questions (compare plans, what do I need, sensitivity), luck (a game's
record scored), sweep (grids as DataFrames; frames.py, differences.py and where.py read them),
chart (a printable grid) and plot (figures)."""
