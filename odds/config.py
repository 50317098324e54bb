"""Limits and defaults in one place: every bound a user can meet, and the runner's sizes."""

# forces (Here I Stand / Virgin Queen)
MAX_UNITS = 200  # land units on one side
MAX_LEADER = 6  # best battle or naval rating
MAX_SHIPS = 50  # ships (or corsairs) of one kind on one side
MAX_ASSAULTS = 100  # assaults in one siege
MAX_WITHDRAW = 4  # land units that may withdraw into a fortified space (HIS §14.1)
MAX_HELD_STEPS = 20_000  # (assault, forces) pairs the held Siege Artillery engine solves (~15 s)

# Oath
MAX_WARBANDS = 60
MAX_DICE = 60
MAX_DEFENDERS = 200

# Monte Carlo runner
CHUNK = 1 << 16  # trials per chunk (one RNG stream each)
BATCH_CHUNKS = 64  # chunks between progress / precision / Ctrl-C checks
DEFAULT_TRIALS = 1_000_000
MAX_TRIALS = 10**10
DEFAULT_MAX_TRIALS = 10**9  # bound for a precision target
PROGRESS_AFTER_SECONDS = 2.0

# sweeps
SWEEP_BATCH = 16  # cells per dask task
MAX_CELLS = 100_000  # cells in one sweep
MAX_CELL_TRIALS = 10**12  # cells x Monte Carlo trials in one sweep
MAX_WORKERS = 64  # processes of a local dask cluster
