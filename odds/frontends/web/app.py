"""The ASGI app behind `odds serve` (Starlette), and the uvicorn server that runs it.

Routes: `/` the page and `/static/*` its files; `GET /api/procedures` every procedure's
parameters; `GET /api/{procedure}?...` (POST for a TOML scenario body) the Result as the CLI's
`--json` prints it; `/luck` and `POST /api/luck` a game's record scored (web/luck.py); `POST /api/NAME` a
game's service with a file as the body (web/services.py: `crusades.position`, `crusades.autobattle`);
`GET /api/{procedure}/compare?...&plan=KEY=VALUE` and `/need?...&need=P&vary=NAME`
the questions (odds.tools.questions). One server process with a few threads (Monte Carlo)
and worker processes (exact answers), all started with the server; nothing started per visitor.
"""
from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ... import registry
from ...core.lru import LRU
from ...core.engine import OverBudget
from ...errors import Interrupted, OddsError
from ...i18n import using
from . import api, luck, pages, services
from .limits import (STOPPING, WEB_BODY_SECONDS, WEB_CACHED_ANSWERS, WEB_EXACT_DEADLINE,
                     WEB_EXACT_DEPTH, WEB_EXACT_LONG_AFTER, WEB_EXACT_LONG_CALLS,
                     WEB_EXACT_MEMORY, WEB_EXACT_REQUEUE, WEB_EXACT_WAITING, WEB_EXACT_WORKERS,
                     WEB_EXACT_YOUNG, WEB_HEAD_SECONDS, WEB_LUCK_BUDGET,
                     WEB_LUCK_RUNNING, WEB_LUCK_WAITING, WEB_MAX_BODY, WEB_MC_RUNNING,
                     WEB_MC_WAITING, WEB_PARSE_SECONDS, WEB_RETRY_AFTER, WEB_SWITCH_INTERVAL,
                     WEB_TIME_BUDGET, Busy, Gate, TooLarge, TooSlow, body)
from .receipt import head_deadline
from .workers import OverDeadline, OverMemory, TooManyLong, Workers, WorkerStopped

# the exact workers' bounds (workers.Workers' keywords); create_app takes others (tests)
EXACT = {"deadline": WEB_EXACT_DEADLINE, "memory": WEB_EXACT_MEMORY,
         "long_after": WEB_EXACT_LONG_AFTER, "long_calls": WEB_EXACT_LONG_CALLS,
         "requeue": WEB_EXACT_REQUEUE}
INSTEAD = "allowed: a smaller question, or method=mc"
# imported by each exact worker before it says it has started: import time is not a call's work
WARM = ("odds.frontends.web.api", "odds.frontends.web.luck", "odds.tools.luck.report",
        "odds.tools.luck.record", "odds.tools.questions.compare", "odds.tools.questions.need")

STATIC = Path(__file__).parent / "static"
LOG = logging.getLogger("odds.frontends.web")


def reply(data, status: int = 200, headers=None) -> Response:
    """JSON exactly as the CLI prints it (json.dumps of the dict; a str is already JSON)."""
    text = data if isinstance(data, str) else json.dumps(data)
    return Response(text, status, headers, media_type="application/json")


@cache
def catalogue(lang: str = "en") -> dict:
    """Every procedure's form in `lang` (its helps, titles and labels), and what the games add
    for the page (the cards' policies)."""
    with using(lang):
        return {"procedures": [api.describe(s) for s in registry.specs().values()],
                **registry.page()}


async def procedures(request: Request) -> Response:
    try:
        lang, _ = api.language(request.query_params.multi_items())
    except OddsError as e:
        return reply({"error": str(e)}, 400)
    return reply(catalogue(lang))


async def _keywords(state, spec, query: list, data: bytes) -> dict:
    """The call's keywords: a body is parsed in an exact worker (its memory capped), stopped
    after `state.parse_seconds` (a 413), never on the event loop, so a slow parse holds one
    worker, not every client; a query (at most WEB_MAX_QUERY bytes: ~2 ms) is parsed here."""
    if not data:
        return api.keywords(spec, query)
    seconds = state.parse_seconds
    try:
        return await state.exact.run(api.parsed, spec.name, query, data, deadline=seconds)
    except OverDeadline:
        raise TooLarge(f"body: its parse takes over {seconds:g} s (allowed: a scenario the "
                       f"server parses within {seconds:g} s)") from None


async def _compute(state, spec, kw: dict, key, lang: str) -> str:
    """The answer's JSON from the Monte Carlo or the exact gate, its sentences in `lang`; exact
    ones are kept under `key`."""
    mc = api.is_mc(spec, kw)
    gate = state.mc if mc else state.exact
    method, text = await gate.run(api.call, spec.name, api.limit(spec, kw) if mc else kw,
                                  state.budget, lang)
    if key is not None and method == "exact":
        state.answers.put(key, text)
    return text


async def answer(request: Request) -> Response:
    """One procedure call: 400 for bad input, 413 too large, 503 when the gates are full."""
    try:
        spec = registry.get(request.path_params["procedure"])
    except OddsError as e:
        return reply({"error": str(e)}, 404)
    state, lang = request.app.state, "en"
    try:
        lang, query = api.language(request.query_params.multi_items())
        with using(lang):
            data = await body(request, WEB_MAX_BODY, state.body_seconds)
            key = None if data else (spec.name, request.url.query)
            text = state.answers.get(key)
            if text is None:
                kw = await _keywords(state, spec, query, data)
                text = await _compute(state, spec, kw, key, lang)
        return reply(text)
    except Exception as e:
        with using(lang):
            return refusal(e, state, spec.name)


def refusal(error: Exception, state, what: str, budget: float | None = None,
            instead: str = INSTEAD) -> Response:
    """The answer of every route to an exception raised while answering `what` (a procedure's
    name): 400 for bad input, 408 for a body that stops arriving, 413 for a request or an
    answer too large, 503 with Retry-After when the time budget or the gates are full, and a
    JSON 500 naming the exception (logged with its traceback) for a fault of odds itself. A
    client that left is one line in the log. `budget`: the route's own seconds for an exact
    answer (else the server's), `instead`: what it allows instead of one too large."""
    if isinstance(error, OverBudget):  # a Monte Carlo run's tables over the server's cap
        return reply({"error": f"{what}: the answer's outcome tables need more memory than "
                               f"the server allows one answer ({_gib(api.WEB_EXACT_MEMORY)}; "
                               "allowed: a smaller question)"}, 413)
    if isinstance(error, OddsError):
        return reply({"error": str(error)}, 400)
    if isinstance(error, (TooLarge, TooSlow)):  # the rest of the body is not read: close
        return reply({"error": str(error)}, 413 if isinstance(error, TooLarge) else 408,
                     {"Connection": "close"})
    if isinstance(error, ClientDisconnect):  # nobody to answer: one quiet line, no traceback
        LOG.info("%s: the client left before its request's body arrived", what)
        return reply({"error": "the client left"}, 400)
    if isinstance(error, OverMemory):  # raised in the exact workers only
        return reply({"error": f"{what}: the exact answer needs more memory than the server allows "
                               f"one answer ({_gib(state.bounds['memory'])}; {instead})"}, 413)
    if isinstance(error, Interrupted):  # the exact engine's checkpoint: the time budget is spent
        return busy(f"{what}: the exact answer takes longer than the server's time budget "
                    f"({budget or state.budget:g} s; {instead})")
    if isinstance(error, OverDeadline):
        return busy(f"{what}: the exact answer takes longer than the server allows one "
                    f"answer ({budget or state.bounds['deadline']:g} s; {instead})")
    if isinstance(error, TooManyLong):
        return busy(f"the server is busy with {state.bounds['long_calls']} long exact answers: "
                    "try again in a few seconds")
    if isinstance(error, api.NoTrials):
        return busy(str(error))
    if isinstance(error, (Busy, WorkerStopped)):  # a full queue, or a worker that died
        return busy("the server is busy: try again in a few seconds")
    LOG.error("%s: %s", what, type(error).__name__, exc_info=error)
    return reply({"error": f"{what}: an error in odds itself ({type(error).__name__}); the "
                           "server's log has the details"}, 500)


def busy(message: str) -> Response:
    return reply({"error": message}, 503, {"Retry-After": str(WEB_RETRY_AFTER)})


class StoppingIs503:
    """ASGI middleware: a request cut short because the server stops (its task cancelled by a
    second Ctrl-C or at the end of the graceful shutdown) is answered 503 with Retry-After,
    not uvicorn's 500, when its response has not started."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        started = False

        async def sending(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            if scope["type"] != "http" or started:
                raise
            await busy("the server is stopping: try again in a few seconds")(scope, receive, send)


def _gib(size: int) -> str:
    return f"{size / 2**30:.3g} GiB"


async def ask(request: Request) -> Response:
    """A question about a procedure (/compare, /need: odds.tools.questions), through the same gates;
    exact answers are kept like the procedure's own."""
    try:
        spec = registry.get(request.path_params["procedure"])
    except OddsError as e:
        return reply({"error": str(e)}, 404)
    kind, state, lang = request.path_params["question"], request.app.state, "en"
    if kind not in api.QUESTIONS:
        return reply({"error": f"question: {kind!r} is unknown (allowed: {', '.join(api.QUESTIONS)})"}, 404)
    try:
        lang, query = api.language(request.query_params.multi_items())
        await body(request, WEB_MAX_BODY, state.body_seconds)
        key = (spec.name, kind, request.url.query)
        text = state.answers.get(key)
        if text is None:
            with using(lang):
                kw, extra = api.question(spec, kind, query)
            mc = api.is_mc(spec, kw)
            method, text = await (state.mc if mc else state.exact).run(
                api.ask, kind, spec.name, api.limit(spec, kw) if mc else kw, extra, state.budget, lang)
            if method == "exact":
                state.answers.put(key, text)
        return reply(text)
    except Exception as e:
        with using(lang):
            return refusal(e, state, spec.name)


@asynccontextmanager
async def _workers(app: Starlette):
    """The exact gate's worker processes start with the server and end with it."""
    app.state.exact.start()
    yield
    app.state.exact.close()
    app.state.mc.close()


def create_app(*, body_seconds: float = WEB_BODY_SECONDS, head_seconds: float = WEB_HEAD_SECONDS,
               parse_seconds: float = WEB_PARSE_SECONDS, budget: float = WEB_TIME_BUDGET,
               luck_budget: float = WEB_LUCK_BUDGET,
               mc_gate: tuple[int, int] = (WEB_MC_RUNNING, WEB_MC_WAITING),
               exact_processes: bool = True, **exact) -> Starlette:
    """The app, its settings the server's limits unless given (a test builds the app it needs):
    `body_seconds` s for a request's body to arrive whole, `head_seconds` s for its line and
    headers (the server's protocol reads it: receipt.head_deadline), `parse_seconds` s for its
    parse, `budget` s of one answer, `luck_budget` s of a luck report, `mc_gate` the Monte Carlo
    answers (running, waiting) at once; `exact_processes` False runs exact answers in threads
    of this process (no workers: an app asked in-process); `exact` overrides bounds of EXACT."""
    app = Starlette(lifespan=_workers, middleware=[Middleware(StoppingIs503)], routes=[
        Route("/", pages.page(STATIC / "index.html")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/procedures", procedures),
        *luck.routes(reply, refusal, STATIC),  # "How lucky was I?" (before /api/{procedure})
        *services.routes(reply, refusal, STATIC),  # the games' files as bodies (a crusades position)
        Route("/api/{procedure}", answer, methods=["GET", "POST"]),
        Route("/api/{procedure}/{question:str}", ask),
    ])
    app.state.bounds = bounds = {**EXACT, **exact}
    running = WEB_EXACT_WORKERS * WEB_EXACT_DEPTH + bounds["long_calls"]
    app.state.exact = Gate(running, WEB_EXACT_WAITING, Workers(
        WEB_EXACT_WORKERS, WEB_EXACT_DEPTH, WEB_EXACT_YOUNG, warm=WARM, **bounds)
        if exact_processes else None)
    app.state.mc = Gate(*mc_gate)
    app.state.luck = Gate(WEB_LUCK_RUNNING, WEB_LUCK_WAITING, app.state.exact.pool)  # its lane
    app.state.budget, app.state.luck_budget = budget, luck_budget
    app.state.body_seconds, app.state.parse_seconds = body_seconds, parse_seconds
    app.state.head_seconds = head_seconds
    app.state.answers = LRU(WEB_CACHED_ANSWERS)  # exact answers by request: they never change
    return app


def server(host: str = "127.0.0.1", port: int = 8866, app: Starlette | None = None, **config):
    """A uvicorn Server for `app` (create_app's with the server's limits if None); its SIGTERM / SIGINT also
    stops running Monte Carlo, and the requests under way finish or are answered 503. The
    process hands the GIL over more often, so requests keep flowing beside exact answers."""
    import sys

    import uvicorn

    sys.setswitchinterval(WEB_SWITCH_INTERVAL)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            """The first signal stops the server gracefully; a second Ctrl-C does not force it
            (uvicorn's would drop the requests under way): they finish, or are answered 503
            when the graceful shutdown's time is up (StoppingIs503)."""
            STOPPING.set()
            if self.should_exit:
                print(f"odds: stopping: the requests under way have up to {grace} s",
                      file=sys.stderr, flush=True)
                return
            super().handle_exit(sig, frame)

    grace = int(WEB_TIME_BUDGET) + 2

    app = app or create_app()
    return Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                 http=head_deadline(app.state.head_seconds),
                                 timeout_graceful_shutdown=grace, **config))
