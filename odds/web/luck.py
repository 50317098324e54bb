"""The page's "How lucky was I?": `GET /luck` the page (static/luck.html), `POST /api/luck` a
record's text (TOML or CSV, as `odds luck` reads it; never a path) -> `odds luck --json`'s
object, computed in an exact worker like any exact answer; `GET /luck/sample.toml` the
sample record (odds/records/samples: rolls invented for illustration)."""
from __future__ import annotations

import json
import time

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ..config import WEB_EXACT_MEMORY
from ..core.engine import memory_cap
from ..errors import OddsError

MAX_RECORD = 1 << 20  # bytes of a posted record: ~5,000 rolls
BUDGET = 20.0  # seconds a record's exact answers may take (the worker's watchdog: 30 s)


def report(text: str, budget: float) -> tuple[str, str]:
    """("exact", the JSON text) of odds.luck on a record's text; the exact engines stop at
    their checkpoints once `budget` seconds are spent (an Interrupted: 503). Runs in a worker."""
    from ..core.montecarlo import stop_when
    from ..records.cli import as_json
    from ..records.report import luck
    from .limits import STOPPING

    deadline = time.monotonic() + budget
    with memory_cap(WEB_EXACT_MEMORY), stop_when(
            lambda sampling: STOPPING.is_set() or time.monotonic() > deadline):
        frame = luck(text, paths=False)
    return "exact", json.dumps(as_json(frame))


def routes(reply, refusal, static) -> list:
    """The page's routes; `reply` and `refusal` answer as every route of the app does (passed
    in by web/app.py, which imports this module), `static` the folder of luck.html."""
    from ..records.report import SAMPLE

    async def answer(request: Request) -> Response:
        state = request.app.state
        try:
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_RECORD:
                    raise OddsError(f"record: over {MAX_RECORD:,} bytes (allowed: up to {MAX_RECORD:,})")
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as e:
                raise OddsError(f"record: not UTF-8 text (byte {e.start})") from None
            _, out = await state.exact.run(report, text, BUDGET)
            return reply(out)
        except Exception as e:
            return refusal(e, state, "luck")

    async def page(request: Request) -> Response:
        return FileResponse(static / "luck.html")

    async def sample(request: Request) -> Response:
        return FileResponse(SAMPLE, media_type="text/plain; charset=utf-8")

    return [Route("/luck", page), Route("/luck/sample.toml", sample),
            Route("/api/luck", answer, methods=["POST"])]
