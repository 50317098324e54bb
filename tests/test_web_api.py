"""The HTTP API on a real uvicorn server: the CLI's JSON, 400s, limits, 503s, shutdown."""
import json
import os
import re
import signal
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import pytest

from odds import OddsError, cli
from odds.frontends.cli.common import in_flags
from odds.config import MAX_TRIALS
from odds.frontends.web.limits import WEB_EXACT_WORKERS
from odds.crusades import EXAMPLES
from odds.registry import REQUIRED, specs
from hang import GUARD, poll
from held import holding
from test_registry import argv_of
from web_server import free_port, running, serve_process, wait_listening

MC = {"method": "mc", "trials": 50_000, "seed": 3}


@pytest.fixture(scope="module")
def app_server():
    with running() as srv:
        yield srv


@pytest.fixture
def get(app_server):
    return asking(app_server)


def asking(served):
    """get(path, query, body) on the server `served` (web_server.Served)."""
    base = f"http://127.0.0.1:{served.port}"

    def get(path, query=(), body=None):
        """(status, headers, JSON) of a request to the server."""
        url = f"{base}{path}?{urlencode(query, doseq=True)}"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=600) as r:
                return r.status, r.headers, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, e.headers, json.loads(e.read())

    return get


def query(kwargs):
    """Query items: lists repeated, bools true/false."""
    items = []
    for key, value in kwargs.items():
        if isinstance(value, (list, tuple)):
            items += [(key, str(v)) for v in value]
        else:
            items.append((key, str(value).lower() if isinstance(value, bool) else str(value)))
    return items


def cli_json(capsys, spec, kwargs):
    """What `odds ... --json` prints (crusades.battle has no generated command: the library's)."""
    if not spec.command:
        return json.loads(json.dumps(spec.call(**kwargs).to_json()))
    engine = [x for key in MC if key in kwargs for x in ("--" + key, str(kwargs[key]))]
    capsys.readouterr()
    args = argv_of(spec, {k: v for k, v in kwargs.items() if k not in MC}) + engine + ["--json"]
    assert cli.main(args) == 0
    return json.loads(capsys.readouterr().out)


def inputs():
    """Every example of every procedure, and the first one by Monte Carlo."""
    for name, spec in specs().items():
        few = {"trials": 300} if not spec.exact else {}
        for example in spec.examples:
            yield pytest.param(name, {**example.kwargs, **few}, id=f"{name}:{example.name}")
        yield pytest.param(name, {**spec.examples[0].kwargs, **MC, **few}, id=f"{name}:mc")


@pytest.mark.parametrize("name, kwargs", list(inputs()))
def test_every_procedure_answers_what_the_cli_prints(get, capsys, name, kwargs):
    spec = specs()[name]
    api_kwargs = dict(kwargs)
    if "scenario" in kwargs:  # the API names a built-in example; the CLI takes its path
        api_kwargs["scenario"] = Path(kwargs["scenario"]).stem
    status, _, body = get(f"/api/{name}", query(api_kwargs))
    assert status == 200, body
    assert body == cli_json(capsys, spec, kwargs)


def test_procedures_describe_every_registered_procedure(get):
    status, _, body = get("/api/procedures")
    assert status == 200
    assert [p["name"] for p in body["procedures"]] == list(specs())
    for p in body["procedures"]:
        names = [q["name"] for q in p["parameters"]]
        assert names == [q.name for q in specs()[p["name"]].params]
        assert all({"kind", "required", "help"} <= set(q) for q in p["parameters"])
    assert body["cards"]["janissaries"]["policies"] == ["if-needed", "always"]  # default first


BAD = [
    ("his.field", {"attacker": 5, "defender": 4, "attacker_leader": 9}),
    ("his.field", {"attacker": 5, "defender": 4, "attacker_cards": ["no-such-card"]}),
    ("his.field", {"attacker": 5, "defender": 4, "defender_cards": ["janissaries:sometimes"]}),
    ("his.field", {"attacker": 5, "defender": 4, "defender_power": "venice"}),
    ("his.field", {"attacker": 0, "defender": 4}),
    ("his.siege", {"attacker": 6, "defender": 2, "assaults": 0}),
    ("vq.naval", {"attacker_galleys": 3, "defender_galleys": 3, "location": "baltic"}),
    ("oath.campaign", {"warbands": 6, "defense_dice": 4, "sacrifice": "sometimes"}),
    ("his.intercept", {"leader": 7}),
]


@pytest.mark.parametrize("name, kwargs", BAD)
def test_a_bad_value_is_a_400_with_the_clis_one_line(get, capsys, name, kwargs):
    with pytest.raises(OddsError) as error:
        specs()[name].call(**kwargs)
    status, _, body = get(f"/api/{name}", query(kwargs))
    assert (status, body) == (400, {"error": str(error.value)})
    capsys.readouterr()
    assert cli.main(argv_of(specs()[name], kwargs)) == 2
    # the same line, the command line naming its flags where the API names its keywords
    cli_line = in_flags(str(error.value), specs()[name].params)
    assert capsys.readouterr().err == f"odds: error: {cli_line}\n"


@pytest.mark.parametrize("items, message", [
    ([("attacker", "x"), ("defender", "4")], "attacker: 'x' is not a whole number"),
    ([("attacker", "5"), ("attacker", "6"), ("defender", "4")], "attacker: given 2 times (allowed: once)"),
    ([("attacker", "5"), ("defender", "4"), ("fortified", "maybe")], "fortified: 'maybe' is not true or false"),
    ([("attacker", "5"), ("defender", "4"), ("threads", "2")], "threads: not a parameter of his.field"),
    ([("attacker", "5"), ("defender", "4"), ("method", "mc"), ("trials", "10000000000")],
     "trials: 10000000000 is out of range (allowed: 1 to 10000000)"),
])
def test_a_malformed_query_is_a_400_naming_the_field(get, items, message):
    status, _, body = get("/api/his.field", items)
    assert status == 400 and body["error"].startswith(message)


def test_an_unknown_procedure_is_a_404(get):
    status, _, body = get("/api/his.tennis")
    assert status == 404 and body["error"].startswith("procedure: 'his.tennis' is unknown")


def test_crusades_takes_an_example_name_or_a_toml_body_never_a_path(get):
    few = {"trials": 200, "seed": 1}
    status, _, by_name = get("/api/crusades.battle", query({"scenario": "field", **few}))
    assert status == 200
    status, _, by_body = get("/api/crusades.battle", query(few), (EXAMPLES / "field.toml").read_bytes())
    assert status == 200 and by_body == by_name
    status, _, body = get("/api/crusades.battle", query({"scenario": str(EXAMPLES / "field.toml"), **few}))
    assert status == 400 and "(allowed: assault, field, sortie)" in body["error"]
    status, _, body = get("/api/crusades.battle", query(few), b"units = [")
    assert status == 400 and body["error"].startswith("scenario (the request body): not valid TOML")
    status, _, body = get("/api/crusades.battle", query(few), b"a = " + b"[" * 40 + b"]" * 40)
    assert status == 400 and "nested 40 levels deep" in body["error"]
    status, _, body = get("/api/crusades.battle", query({"scenario": "field", "trials": 6000}))
    assert status == 400 and body["error"] == "trials: 6000 is out of range (allowed: 1 to 5000)"


def test_a_scenario_named_and_posted_is_a_400_and_a_body_where_none_is_taken_too(get):
    few = {"trials": 200, "seed": 1}
    body = (EXAMPLES / "field.toml").read_bytes()
    status, _, answer = get("/api/crusades.battle", query({"scenario": "sortie", **few}), body)
    assert (status, answer) == (400, {"error": "scenario: given both in the query and as the "
                                               "request body (allowed: one of them)"})
    status, _, answer = get("/api/his.field", query({"attacker": 5, "defender": 4}), b"x = 1")
    assert status == 400 and answer["error"].startswith("body: his.field takes no request body")


def required_missing():
    """Each required parameter of each procedure, left out of its first example."""
    for name, spec in specs().items():
        for param, default in spec.defaults().items():
            if default is REQUIRED:
                yield pytest.param(name, param, id=f"{name}-{param}")


@pytest.mark.parametrize("name, param", list(required_missing()))
def test_a_missing_required_parameter_is_a_400_with_the_line_python_and_the_cli_give(
        get, capsys, name, param):
    spec = specs()[name]
    kwargs = {k: v for k, v in spec.examples[0].kwargs.items() if k != param}
    line = f"{param}: missing (required by {name})"
    with pytest.raises(OddsError, match=f"^{re.escape(line)}$"):
        spec.call(**kwargs)
    web = {k: Path(v).stem if k == "scenario" else v for k, v in kwargs.items()}
    assert get(f"/api/{name}", query(web))[::2] == (400, {"error": line})
    if spec.command:
        capsys.readouterr()
        assert cli.main(argv_of(spec, kwargs)) == 2
        assert capsys.readouterr().err == f"odds: error: {in_flags(line, spec.params)}\n"


def test_nesting_too_deep_is_a_400_and_not_a_recursion_error(get):
    deep = "rules.turn_limit=" + "[" * 650 + "]" * 650
    status, _, body = get("/api/crusades.battle", query({"scenario": "field", "trials": 10,
                                                         "overrides": [deep]}))
    assert status == 400 and body["error"].endswith(
        "--set rules.turn_limit: nested 650 levels deep (allowed: at most 16)")


def test_oversized_requests_are_refused(get):
    status, _, _ = get("/api/his.field", [("attacker", "5"), ("defender", "4" * 5000)])
    assert status == 413
    status, _, _ = get("/api/crusades.battle", [("trials", "10")], b"#" * 70_000)
    assert status == 413


def test_monte_carlo_over_the_time_budget_is_partial():
    with running(budget=0.0) as server:
        status, _, body = asking(server)("/api/his.field", query(
            {"attacker": 5, "defender": 4, "method": "mc", "trials": 5_000_000}))
    assert status == 200 and body["partial"] and body["trials"] < 5_000_000
    assert "time budget" in body["notes"][-1]


@pytest.fixture
def hold(tmp_path, monkeypatch):
    """Answers of his.siege (Monte Carlo and exact), held until `hold.release()`."""
    return holding(monkeypatch, tmp_path / "held", ["his.siege"])


def test_a_monte_carlo_flood_gets_503_and_exact_answers_still_flow(hold):
    slow = query({"attacker": 8, "defender": 6, "assaults": 10, "method": "mc", "trials": 50_000})
    with running(mc_gate=(1, 1)) as server, ThreadPoolExecutor(8) as pool:
        get = asking(server)
        flood = [pool.submit(get, "/api/his.siege", slow) for _ in range(6)]
        hold.wait_started(1)  # one runs (held), one waits, the other four are refused
        poll(lambda: sum(f.done() for f in flood) == 4, "four refusals")
        status, _, _ = get("/api/his.field", query({"attacker": 5, "defender": 4}))
        during = sum(f.done() for f in flood)  # the exact answer came while both were held
        hold.release()
        answers = [f.result() for f in flood]
    assert status == 200 and during == 4 and hold.started() == 2
    codes = sorted(a[0] for a in answers)
    assert codes.count(200) == 2 and codes.count(503) == 4
    busy = next(a for a in answers if a[0] == 503)
    assert busy[1]["Retry-After"] == "2" and "busy" in busy[2]["error"]


def test_sigterm_stops_the_server_after_answering_running_monte_carlo_partially(tmp_path):
    """A run of 10^10 trials, no time budget (held.serve): only the SIGTERM can end it."""
    port, held = free_port(), tmp_path / "held"
    with serve_process(port, tmp_path / "server.log", held=held) as proc:
        wait_listening(port)
        url = f"http://127.0.0.1:{port}/api/his.field?" + urlencode(query(
            {"attacker": 8, "defender": 6, "method": "mc", "trials": MAX_TRIALS}))
        workers = [int(pid) for pid in Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
                   .read_text().split()]  # exact answers' workers (and multiprocessing's tracker)
        assert len(workers) >= WEB_EXACT_WORKERS
        with ThreadPoolExecutor(1) as pool:
            running = pool.submit(lambda: json.loads(urllib.request.urlopen(url, timeout=300).read()))
            poll(lambda: (held / "sampling").exists(), "the run sampling")
            proc.send_signal(signal.SIGTERM)
            answer = running.result()
            # uvicorn shuts down gracefully, then re-raises the signal for the exit status
            assert proc.wait(timeout=GUARD) == -signal.SIGTERM
        assert answer["partial"] and 0 < answer["trials"] < MAX_TRIALS
        assert answer["notes"][-1].endswith("trials: the server is stopping")
        poll(lambda: not [pid for pid in workers if Path(f"/proc/{pid}").exists()],
             "the workers' end")
        assert "odds calculator on http://127.0.0.1" in (tmp_path / "server.log").read_text()


def test_exact_answers_are_kept_and_monte_carlo_ones_are_not(app_server, get):
    answers = app_server.app.state.answers
    exact = query({"attacker": 11, "defender": 9, "attacker_leader": 1})
    status, _, first = get("/api/his.field", exact)
    assert status == 200 and ("his.field", urlencode(exact)) in answers.items
    assert get("/api/his.field", exact)[2] == first
    before = len(answers)
    get("/api/his.field", query({"attacker": 11, "defender": 9, **MC}))
    assert len(answers) == before


@pytest.mark.parametrize("name, repeated, joined", [
    ("oath.campaign", [("warbands", "8"), ("sites", "1"), ("sites", "2"), ("defenders", "2")],
     [("warbands", "8"), ("sites", "1,2"), ("defenders", "2")]),
    ("his.naval", [("attacker_squadrons", "3"), ("defender_squadrons", "3"),
                   ("dice_per", "squadron=3"), ("dice_per", "port=2"), ("port", "true")],
     [("attacker_squadrons", "3"), ("defender_squadrons", "3"),
      ("dice_per", "squadron=3, port=2"), ("port", "yes")]),
])
def test_lists_are_repeated_or_comma_separated(get, name, repeated, joined):
    status, _, body = get(f"/api/{name}", repeated)
    assert status == 200 and get(f"/api/{name}", joined)[2] == body


def test_serve_on_a_port_in_use_is_one_line(app_server, capsys):
    port = app_server.port
    assert cli.main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == (f"odds: error: --host/--port: cannot listen on "
                                       f"127.0.0.1:{port} (Address already in use)\n")


def test_a_worker_killed_in_a_call_is_a_503_and_the_next_question_is_answered(get, hold):
    with ThreadPoolExecutor(1) as pool:
        slow = pool.submit(get, "/api/his.siege", query({"attacker": 9, "defender": 5}))
        hold.wait_started(1)  # held: it is still in its call when it is killed
        os.kill(*hold.pids(), signal.SIGKILL)
        status, headers, body = slow.result()
    assert status == 503 and headers["Retry-After"] == "2" and "busy" in body["error"]
    assert get("/api/his.field", query({"attacker": 14, "defender": 12}))[0] == 200


def test_the_server_hands_the_gil_over_often(app_server):
    from odds.frontends.web.limits import WEB_SWITCH_INTERVAL

    assert sys.getswitchinterval() == pytest.approx(WEB_SWITCH_INTERVAL)
