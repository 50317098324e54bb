"""What the games answer beyond their procedures (registry.services): ``POST /api/NAME`` with a
file as the body (a crusades position; never a path) and the service's query keys -> the JSON
object its command's --json prints. Computed in the Monte Carlo gate's threads, one core,
stopped at the server's time budget (then marked partial), like a procedure's Monte Carlo."""
from __future__ import annotations

import json

from starlette.endpoints import HTTPEndpoint
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ... import registry
from ...core.engine import memory_cap
from ...errors import OddsError
from ...i18n import using
from . import api, pages
from .limits import WEB_EXACT_MEMORY, WEB_MAX_BODY, body, within


def answer(name: str, data: bytes, query: list, budget: float, lang: str = "en") -> tuple[str, str]:
    """("mc", the JSON text) of service `name` on the body's UTF-8 text, in `lang`."""
    with using(lang):
        return _answer(name, data, query, budget)


def _answer(name: str, data: bytes, query: list, budget: float) -> tuple[str, str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise OddsError(f"{name} (the request body): not UTF-8 text (byte {e.start})") from None
    if not text.strip():
        raise OddsError(f"{name}: the request's body is empty (allowed: the file as the body)")
    function = registry.service(name)
    with memory_cap(WEB_EXACT_MEMORY):
        out = within(budget, lambda: function(text, query))
    return "mc", json.dumps(out)


def routes(reply, refusal, static) -> list:
    """A POST route per service, and `/position` the page that asks crusades.position
    (static/position.html); `reply` and `refusal` answer as every route of the app does."""

    class Answer(HTTPEndpoint):
        """POST only: Starlette's 405 for any other method."""

        async def post(self, request: Request) -> Response:
            name, state = request.url.path.removeprefix("/api/"), request.app.state
            try:
                lang, query = api.language(request.query_params.multi_items())
                data = await body(request, WEB_MAX_BODY, state.body_seconds)
                _, out = await state.mc.run(answer, name, data, query, state.budget, lang)
                return reply(out)
            except Exception as e:
                return refusal(e, state, name)

    return [Route("/position", pages.page(static / "position.html")), *(Route(f"/api/{name}", Answer) for name in registry.services())]
