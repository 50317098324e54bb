"""A game's record of rolls: how lucky each side was, roll by roll and over the whole game.

record.py (reading TOML and CSV records, the refused rolls by line), situations.py (each
distinct situation's exact Result, computed once), observed.py (what happened, checked
against the situation; dice and hits through the procedure's rules), percentiles.py (mid-p
percentiles, sums by convolution), report.py (`luck()`: the frame), text.py (the summary the
CLI prints), plot.py (cumulative luck with its 5-95% band), cli.py (`odds luck`).
"""
