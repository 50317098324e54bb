"""The page's "How lucky was I?": `GET /luck` the page (static/luck.html), `POST /api/luck` a
record's text (TOML or CSV, as `odds luck` reads it; never a path) -> `odds luck --json`'s
object, computed in an exact worker like any exact answer, through its own lane (app.state.luck:
at most WEB_LUCK_RUNNING at once, so a burst of posts leaves workers to the small questions); `GET /luck/sample.toml` the
sample record (odds/tools/luck/samples: rolls invented for illustration). Its bounds are
limits.py's WEB_LUCK_*: the body's bytes and its rolls (counted before it is parsed; over
either, a 413 as on every route) and the seconds of the whole answer (the worker is stopped at
them, whatever it is doing)."""
from __future__ import annotations

import json
import time

from starlette.endpoints import HTTPEndpoint
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ...core.engine import memory_cap
from ...errors import OddsError
from ...i18n import using
from . import api, pages
from .limits import (STOPPING, WEB_EXACT_MEMORY, WEB_LUCK_MAX_BODY, WEB_LUCK_MAX_ROLLS, TooLarge,
                     body)

INSTEAD = "allowed: fewer rolls, or odds luck FILE on your own machine"


def report(data: bytes, budget: float, lang: str = "en",
           most: int = WEB_LUCK_MAX_ROLLS) -> tuple[str, str]:
    """("exact", the JSON text) of odds.luck on a record's bytes, its sentences in `lang`
    (UTF-8, at most `most` rolls:
    else TooLarge, a 413); the exact engines stop at their checkpoints once `budget` seconds
    are spent (an Interrupted: 503). Runs in a worker, whose call has the same deadline."""
    from ...core.montecarlo import stop_when
    from ...tools.luck.record import rolls_in
    from ...tools.luck.report import luck, to_json

    deadline = time.monotonic() + budget
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise OddsError(f"record: not UTF-8 text (byte {e.start})") from None
    if (count := rolls_in(text)) > most:
        raise TooLarge(f"record: {count:,} rolls (allowed: at most {most:,} on the web; "
                       "odds luck FILE on your own machine takes more)")
    with using(lang), memory_cap(WEB_EXACT_MEMORY), stop_when(
            lambda sampling: STOPPING.is_set() or time.monotonic() > deadline):
        frame = luck(text, paths=False)
    return "exact", json.dumps(to_json(frame))


def routes(reply, refusal, static) -> list:
    """The page's routes; `reply` and `refusal` answer as every route of the app does (passed
    in by web/app.py, which imports this module), `static` the folder of luck.html."""
    from ...tools.luck.report import SAMPLE

    class Answer(HTTPEndpoint):
        """POST only: Starlette's 405 for any other method (before /api/{procedure} took a
        GET of "luck" for a procedure's name)."""

        async def post(self, request: Request) -> Response:
            state = request.app.state
            try:
                lang, _ = api.language(request.query_params.multi_items())
                data = await body(request, WEB_LUCK_MAX_BODY, state.body_seconds)
                _, out = await state.luck.run(report, data, state.luck_budget, lang,
                                               deadline=state.luck_budget)
                return reply(out)
            except Exception as e:
                return refusal(e, state, "luck", state.luck_budget, INSTEAD)

    async def sample(request: Request) -> Response:
        return FileResponse(SAMPLE, media_type="text/plain; charset=utf-8")

    return [Route("/luck", pages.page(static / "luck.html")), Route("/luck/sample.toml", sample),
            Route("/api/luck", Answer)]
