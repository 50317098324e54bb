"""Game-neutral machinery: dice algebra, results, the Monte Carlo runner."""
