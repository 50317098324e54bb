"""Fair turns: luck posts have their own lane into the exact workers (at most
WEB_LUCK_RUNNING at once), so a small exact question is answered while a burst of posts is
computed and queued (it waited behind all of them: p95 4.4 s under 250 posts). The posts are
held ones (held.holding_bodies): the test waits for events, never for seconds."""
import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from hang import GUARD, poll
from held import holding_bodies
from odds.frontends.web.limits import WEB_EXACT_DEPTH, WEB_EXACT_WORKERS, WEB_LUCK_RUNNING
from odds.tools.luck.report import SAMPLE
from web_server import running

POSTS = WEB_EXACT_WORKERS * WEB_EXACT_DEPTH + 6  # more than every exact worker's places


def fetch(server, path, body=None):
    url = f"http://127.0.0.1:{server.port}{path}"
    with urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=GUARD) as r:
        return r.status, json.loads(r.read())


def test_a_small_question_is_answered_while_a_burst_of_luck_posts_waits(tmp_path, monkeypatch):
    hold = holding_bodies(monkeypatch, tmp_path / "held")  # every luck post held in its worker
    record = open(SAMPLE, "rb").read()
    # the posts are held, not slow: no budget cuts them
    with running(luck_budget=GUARD) as server, ThreadPoolExecutor(POSTS) as pool:
        state = server.app.state
        posts = [pool.submit(fetch, server, "/api/luck", record) for _ in range(POSTS)]
        poll(lambda: sum(getattr(state, g).inside for g in ("exact", "luck") if hasattr(state, g))
             >= POSTS, "every luck post inside a gate")
        hold.wait_started(WEB_LUCK_RUNNING)
        small = fetch(server, "/api/his.field?attacker=4&defender=3")
        answered = sum(p.done() for p in posts)
        started = hold.started()
        hold.release()
        statuses = [p.result()[0] for p in posts]
    assert small[0] == 200 and small[1]["method"] == "exact"
    assert answered == 0 and started == WEB_LUCK_RUNNING  # the posts waited their lane's turn
    assert statuses == [200] * POSTS
