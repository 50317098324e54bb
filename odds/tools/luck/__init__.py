"""A game's record of rolls: how lucky each side was, roll by roll and over the whole game.

record.py (reading TOML and CSV records, the refused rolls by line), situations.py (each
distinct situation's exact Result, computed once), observed.py (what happened, checked
against the situation; the dice and choices a record gives, read by the procedure's own
declaration through the registry: Spec.rolled, core.rolled; this package knows no game),
dice.py (the dice's own luck per side and kind of die), percentiles.py (mid-p percentiles,
binomial pmfs, sums by convolution), report.py (`luck()`: the frame), text.py (the summary the
CLI prints), plot.py (cumulative luck with its 5-95% band, and the dice's), cli.py (`odds
luck`).
"""
