"""The limits and defaults shared by more than one game or tool: the runner's sizes, the exact
engines' budget, input nesting, sweeps, plots, questions and the web server. A bound of one
game lives in that game (his/forces.py: MAX_UNITS, oath/procedure.py: MAX_WARBANDS,
crusades/upkeep.py: BALANCE_*...; tests/test_config_shared.py checks it).

The bottom layer: it imports nothing of odds (errors.py imports only this), so core/ may read
both."""

METHODS = ("auto", "exact", "mc")  # how an answer is computed: exact when available, exact, mc

# exact engines: each estimates its work and memory before it starts (core.engine.Cost);
# beyond either bound `--method exact` is refused and `auto` runs Monte Carlo with a note
MAX_EXACT_WORK = 5_000_000  # work units (about a microsecond each on the development machine)

# input: tables and lists nested deeper than this (TOML files, --set values, Python keywords)
# are refused in one line, before anything recurses into them
MAX_NESTING = 16

# memory: a run whose outcome histograms would need more than this is refused before it starts
MEMORY_BUDGET_FRACTION = 0.25  # of the machine's memory; ODDS_MEMORY_BUDGET (bytes) overrides

# Monte Carlo runner
CHUNK = 1 << 16  # trials per chunk (one RNG stream each)
BATCH_CHUNKS = 64  # chunks between progress / precision / Ctrl-C checks
DEFAULT_TRIALS = 1_000_000
MAX_TRIALS = 10**10
DEFAULT_MAX_TRIALS = 10**9  # bound for a precision target
PROGRESS_AFTER_SECONDS = 2.0

# sweeps
SWEEP_BATCH = 16  # cells per dask task
SWEEP_REPLICATES = 20  # runs of a Monte Carlo cell that shares its seed with others (a
# variant's): the paired differences' standard error is their spread (20 runs: 19 degrees of freedom)
MAX_CELLS = 100_000  # cells in one sweep
MAX_CELL_TRIALS = 10**12  # cells x Monte Carlo trials in one sweep
MAX_WORKERS = 64  # processes of a local dask cluster
# plots of a sweep's frame (odds plot, odds.tools.plot): refused before anything is drawn
PLOT_MAX_ROWS = MAX_CELLS  # rows of a results file or frame (as many as one sweep makes)
PLOT_MAX_CELLS = 250_000  # heatmap cells: distinct x values x distinct y values (500 x 500, < 1 s)
PLOT_MAX_LINES = 20  # lines of one plot (values of --by, card lists): more make no readable legend
SCHEDULER_TIMEOUT = 10.0  # s a dask scheduler (--scheduler) has to answer; then one line, exit 2

# questions (odds.tools.questions: compare plans, what do I need)
QUESTION_MAX_PLANS = 12  # plans compared in one table (each is one call)
NEED_MAX_VALUES = 201  # values in the range one need search may scan
NEED_MAX_TRIALS = 10**9  # Monte Carlo trials in one need search (evaluations x trials)

# web server (`odds serve`)
WEB_MAX_TRIALS = 10_000_000  # Monte Carlo trials per request
WEB_TIME_BUDGET = 3.0  # seconds of Monte Carlo per request; then the partial result
WEB_MAX_QUERY = 4096  # bytes of query string
WEB_MAX_BODY = 64 * 1024  # bytes of a request body (a TOML scenario); more: 413
WEB_BODY_SECONDS = 10.0  # s a request body has to arrive whole (from its headers); then 408
WEB_PARSE_SECONDS = 3.0  # s a body's parse may take (in an exact worker, then stopped); then 413
WEB_LUCK_MAX_BODY = 1 << 20  # bytes of a record posted to /api/luck; more: 413
WEB_LUCK_MAX_ROLLS = 5_000  # rolls of a posted record, counted before it is parsed; more: 400
WEB_LUCK_BUDGET = 20.0  # s a posted record's whole answer may take (read, scored, summed); then 503
WEB_EXACT_WORKERS = 3  # worker processes computing exact answers (besides long ones')
WEB_EXACT_DEPTH = 2  # calls a worker holds: the next one waits in its pipe, so it never idles
WEB_EXACT_YOUNG = 0.02  # s: a busy worker takes a next call only while its current one is younger
WEB_EXACT_REQUEUE = 0.1  # s: a call waiting behind one that has run this long goes elsewhere
WEB_EXACT_LONG_AFTER = 1.0  # s: an exact answer running longer is long: a process starts in its place
WEB_EXACT_LONG_CALLS = 3  # long exact answers at once; one more turning long is answered 503
WEB_EXACT_DEADLINE = 30.0  # s an exact answer may run; then its worker is killed, the call 503
WEB_EXACT_MEMORY = 1 << 30  # bytes of memory one exact answer may add to its worker; more: 413
WEB_EXACT_WAITING = 256  # exact requests queued beyond those; more get 503
WEB_MC_RUNNING = 1  # Monte Carlo runs at once, one core each (the other core stays for exact)
WEB_MC_WAITING = 4
WEB_RETRY_AFTER = 2  # seconds, in a 503's Retry-After
WEB_CACHED_ANSWERS = 4096  # exact answers kept by request (a few MB)
WEB_SWITCH_INTERVAL = 0.001  # s the event loop may wait for the GIL beside Monte Carlo threads (default 0.005)
