"""Work the test ends, not the clock: a call that says it has started (a file) and runs until
the test lets it go (another file), so a web test waits for events instead of seconds, on a
machine of any speed. Picklable: it runs in the server's worker processes and threads alike.

`serve` is `odds serve` with such hooks, for the tests that signal a server process."""
import os
import sys
from functools import partial
from pathlib import Path
from uuid import uuid4

from hang import GUARD, poll
from odds.frontends.web.api import call as answer  # the real one, kept before a test replaces api.call

SPIN = 20_000  # additions between a spinning call's looks at the go file (well under 1 ms)


class Hold:
    """Held calls in `folder`: each writes a `started.*` file, then runs until the file `go`
    exists; `spin`: meanwhile it keeps a core busy, as a long exact answer does."""

    def __init__(self, folder, spin: bool = False):
        self.folder, self.spin = Path(folder), spin
        self.folder.mkdir(parents=True, exist_ok=True)

    def __call__(self, *_) -> int:
        """Hold this call (its arguments are ignored); its process id. A call nobody lets go
        fails after hang.GUARD s, so that nothing hangs."""
        (self.folder / f"started.{os.getpid()}.{uuid4().hex}").touch()
        poll(self._let_go, "the test letting a held call go", every=0 if self.spin else 0.005)
        return os.getpid()

    def _let_go(self) -> bool:
        if self.spin:
            sum(range(SPIN))
        return (self.folder / "go").exists()

    def started(self) -> int:
        """How many calls have started."""
        return len(list(self.folder.glob("started.*")))

    def pids(self) -> set:
        """The process ids of the calls that have started."""
        return {int(p.name.split(".")[1]) for p in self.folder.glob("started.*")}

    def wait_started(self, count: int):
        """Until `count` calls have started."""
        poll(lambda: self.started() >= count, f"{count} held calls started")

    def release(self):
        """Let every held call go, those to come too."""
        (self.folder / "go").touch()


def alive(pid: int, group: bool = False) -> bool:
    """The process `pid` exists (`group`: a process of the process group `pid` does)."""
    try:
        (os.killpg if group else os.kill)(pid, 0)
        return True
    except ProcessLookupError:
        return False


def answering(hold: Hold, procedures) -> partial:
    """An api.call for a server under test: the calls of `procedures` are held first."""
    return partial(_answer, hold, tuple(procedures))


def holding(monkeypatch, folder, procedures, spin: bool = False) -> Hold:
    """The Hold in `folder` of a server in this process: its answers of `procedures` (exact in
    its workers, Monte Carlo in its threads) are held until `release()`."""
    from odds.frontends.web import api

    hold = Hold(folder, spin)
    monkeypatch.setattr(api, "call", answering(hold, procedures))
    return hold


def _answer(hold, procedures, procedure, kw, budget, *lang):
    if procedure in procedures:
        hold()
    return answer(procedure, kw, budget, *lang)


def serve(argv):
    """`odds serve ARGV[1:]` for a test, which shares the folder ARGV[0] with it:
    - each request writes a line to `requests` as it arrives;
    - answers of his.siege are held (`Hold` in the folder);
    - Monte Carlo runs have no time budget (the server's own stop test, asked with 0 s of
      sampling: only a stopping server stops them) and may ask up to MAX_TRIALS trials; a run
      writes `sampling` when it has sampled a batch;
    - a graceful shutdown waits up to hang.GUARD s for the requests under way (the test lets
      them go)."""
    from odds import cli
    from odds.config import MAX_TRIALS
    from odds.core import montecarlo
    from odds.frontends.web import api, app, limits

    folder = Path(argv[0])
    arrived = app.answer

    async def counted(request):
        with open(folder / "requests", "a") as log:
            log.write(f"{request.url}\n")
        return await arrived(request)

    def unbudgeted(test):
        def stop(sampling):
            (folder / "sampling").touch()
            return test(0.0)
        return montecarlo.stop_when(stop)

    app.answer, app.WEB_TIME_BUDGET = counted, GUARD  # the grace is the budget + 2 s
    api.call = answering(Hold(folder), ["his.siege"])
    limits.stop_when, limits.WEB_MAX_TRIALS = unbudgeted, MAX_TRIALS
    sys.exit(cli.main(["serve", *argv[1:]]))


def holding_bodies(monkeypatch, folder) -> Hold:
    """The Hold in `folder` of a server in this process: its parses of request bodies (a
    procedure's TOML scenario, a luck record) are held until `release()`, in the worker that
    parses them, or on the event loop if a body were parsed there."""
    from odds.frontends.web import api, luck

    hold = Hold(folder)
    monkeypatch.setattr(api, "parsed", partial(_held, hold, "odds.frontends.web.api:parsed"), raising=False)
    monkeypatch.setattr(api, "keywords", partial(_keywords, hold, api.keywords))
    monkeypatch.setattr(luck, "report", partial(_held, hold, "odds.frontends.web.luck:report"))
    return hold


def _held(hold, name, *args):
    """Hold, then the real function `name` (module:function), in a worker (picklable)."""
    from importlib import import_module

    module, function = name.split(":")
    hold()
    return getattr(import_module(module), function)(*args)


def _keywords(hold, keywords, spec, query, body=b""):
    if body:
        hold()
    return keywords(spec, query, body)
