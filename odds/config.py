"""The limits and defaults read by more than one package (a game, a tool, a front end, core,
the registry, the support modules; tests/test_config_shared.py checks it): how an answer is
computed, the exact engines' budget, the Monte Carlo runner's trials and its progress, and a
sweep's cells. A limit read by one package lives in it: a game's in the game (his/forces.py:
MAX_UNITS...), a tool's in the tool (tools/sweep.py, tools/plot.py, tools/questions/),
the web server's in frontends/web/limits.py, the runner's chunks in core/montecarlo.py.

The bottom layer: it imports nothing of odds, so every layer may read it."""

METHODS = ("auto", "exact", "mc")  # how an answer is computed: exact when available, exact, mc

# exact engines: each estimates its work and memory before it starts (core.engine.Cost);
# beyond either bound `--method exact` is refused and `auto` runs Monte Carlo with a note
MAX_EXACT_WORK = 5_000_000  # work units (about a microsecond each on the development machine)

# Monte Carlo runner
DEFAULT_TRIALS = 1_000_000
MAX_TRIALS = 10**10
DEFAULT_MAX_TRIALS = 10**9  # bound for a precision target
PROGRESS_AFTER_SECONDS = 2.0  # a run or exact work estimated longer shows its progress

# cells in one sweep, so rows of its frame: a plot (odds plot, odds.tools.plot) refuses more
# before anything is drawn
MAX_CELLS = 100_000
