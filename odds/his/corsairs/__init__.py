"""Piracy (Here I Stand §16.4): modules `awards` (who pays for each hit, numpy), `kernel`
(the Monte Carlo lane) and `raid` (the exact engine and the public `piracy`)."""
