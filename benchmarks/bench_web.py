"""The web API under load: `odds serve` in its own process, 50 keep-alive clients (45 asking
exact questions, 5 asking Monte Carlo ones) for a fixed time, twice: questions never asked
before (computed) and questions asked again (the server keeps exact answers); requests per
second, latency percentiles, failures, and the memory of the server and its worker processes
before and after. The clients share this machine (asyncio, one process): measured, they use
about 0.1 of a core while new questions are computed and 0.4 while repeated ones are answered.
Then 10 clients ask new exact questions for the same time alone, and again while 3 clients ask
heavy exact questions: the largest the exact engines' bounds allow (2-3 s of work each; larger
ones are refused before any work), which the server's time budget or deadline stops. Last, one
clients ask small exact questions while 250 luck posts of the sample record arrive at once."""
import asyncio
import itertools
import random
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

from common import Row, table
from odds.registry import specs

CLIENTS, MC_CLIENTS = 50, 5
SMALL_CLIENTS = 10  # asking new exact questions while the heavy ones run
HEAVY = ("/api/his.siege?attacker=100&defender=100&assaults=20",
         "/api/oath.campaign?warbands=60&defense_dice=60&defenders=200&optimise=true",
         "/api/his.siege?attacker=120&defender=100&assaults=12")
CHAINS = ("his.siege", "his.attack")  # the costly exact procedures: reported apart
MC = {"method": "mc", "trials": 1_000_000}
LUCK_POSTS = 250  # luck posts of the sample record at once, beside one small-question client


def query(kwargs) -> str:
    items = []
    for key, value in kwargs.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        items += [(key, str(v).lower() if isinstance(v, bool) else str(v)) for v in values]
    return urlencode(items)


def repeated_paths():
    """Every exact procedure's examples and start values, and a 20 x 20 grid of field battles."""
    paths = [f"/api/{name}?{query(kw)}" for name, spec in specs().items() if spec.exact
             for kw in [spec.start] + [e.kwargs for e in spec.examples]]
    paths += [f"/api/his.field?attacker={a}&defender={d}&attacker_leader={a % 3}"
              for a in range(1, 21) for d in range(1, 21)]
    return paths


def new_paths(seed):
    """Questions never asked before: an exact procedure drawn uniformly (9 of them), its start
    values with every count drawn in [1, 2 x start]; the seed (which an exact answer ignores)
    makes each question new to the server's answer store. Sub-results (an attack's sieges, a
    siege's later assaults) repeat across questions, as they do when a page user changes one
    number at a time; cards, leaders and powers keep their start values."""
    rng = random.Random(seed)
    exact = [spec for spec in specs().values() if spec.exact]
    while True:
        spec = rng.choice(exact)
        kw = {k: rng.randint(max(1, spec.param(k).low or 0), max(2, 2 * v)) if type(v) is int else v
              for k, v in spec.start.items()}
        yield f"/api/{spec.name}?{query({**kw, 'seed': rng.randrange(10**9)})}"


def mc_paths(i):
    field = specs()["his.field"].start
    return itertools.cycle(f"/api/his.field?{query({**field, **MC, 'seed': seed})}"
                           for seed in range(i, 1000, MC_CLIENTS))


async def client(port, paths, until, out):
    """One keep-alive connection asking `paths` until `until`; (seconds, status, procedure)
    into `out`."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for path in paths:
        if time.perf_counter() > until:
            break
        started = time.perf_counter()
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        await reader.readexactly(length)
        out.append((time.perf_counter() - started, int(head.split()[1]), path[5:].split("?")[0]))
    writer.close()


async def load(port, seconds, new):
    """45 exact clients (repeated or new questions) and 5 Monte Carlo ones for `seconds`."""
    until = time.perf_counter() + seconds
    results = {"exact": [], "mc": []}
    repeated = repeated_paths()
    tasks = [client(port, new_paths(i) if new else
                    itertools.cycle(random.Random(i).sample(repeated, len(repeated))),
                    until, results["exact"]) for i in range(CLIENTS - MC_CLIENTS)]
    tasks += [client(port, mc_paths(i), until, results["mc"]) for i in range(MC_CLIENTS)]
    await asyncio.gather(*tasks)
    return results


async def beside_heavy(port, seconds, heavy_paths=HEAVY):
    """SMALL_CLIENTS clients asking new exact questions for `seconds`, while 3 clients ask
    `heavy_paths` again and again (each runs until the server's deadline or memory cap stops
    it): the small questions' and the heavy ones' (seconds, status, procedure)."""
    heavy, small = [], []
    tasks = [client(port, itertools.repeat(path), time.perf_counter() + seconds, heavy)
             for path in heavy_paths]
    await asyncio.sleep(1.5 if heavy_paths else 0)  # the heavy ones run before the small ask
    until = time.perf_counter() + seconds
    tasks += [client(port, new_paths(1000 * bool(heavy_paths) + i), until, small)
              for i in range(SMALL_CLIENTS)]
    await asyncio.gather(*tasks)
    return small, heavy


def rss_mib(pid) -> float:
    """Resident memory of the server and its worker processes."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sum(next(int(line.split()[1]) for line in Path(f"/proc/{p}/status").open()
                    if line.startswith("VmRSS")) for p in [pid, *children]) / 1024


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def serving(measure_with):
    """measure_with(port, server) on a fresh `odds serve` (kernels compiled beforehand: a server
    whose warm-up thread is still compiling answers at a fraction of its speed, and that is not
    what the rows measure)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from web_server import free_port, wait_listening

    subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", "warmup"], check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "odds.frontends.cli.main", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL)
    try:
        wait_listening(port)
        asyncio.run(load(port, 5, new=False))  # warm-up: kernels loaded, repeated answers kept
        return measure_with(port, server)
    finally:
        server.terminate()
        server.wait(timeout=30)


def measure_heavy(quick=False):
    """The rows of small exact questions asked while 3 heavy exact ones run."""
    seconds = 10 if quick else 20
    (alone, _), (small, heavy) = serving(lambda port, _: (
        asyncio.run(beside_heavy(port, seconds, ())), asyncio.run(beside_heavy(port, seconds))))
    label = f"web API, {SMALL_CLIENTS} clients: new exact questions while 3 heavy exact ones run"
    times, before = ([t * 1e3 for t, status, _ in part if status == 200] for part in (small, alone))
    return [Row(f"{label}, p95 latency", percentile(times, 0.95), "ms", percentile(before, 0.95),
                "without the heavy ones", "< 150 ms"),
            Row(f"{label}: failed ({len(small)} asked; the heavy ones stopped "
                f"{sum(s in (413, 503) for _, s, _ in heavy)} times by the server's time budget, "
                "deadline or memory cap)",
                sum(status != 200 for _, status, _ in small), "", target="0")]


async def post(port, path, data: bytes, out):
    """One POST of `data` (a GET when empty) on its own connection; (seconds, status) into `out`."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{'POST' if data else 'GET'} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(data)}\r\n"
                 "Content-Type: text/plain\r\nConnection: close\r\n\r\n".encode() + data)
    head = await reader.readuntil(b"\r\n\r\n")
    await reader.read()
    writer.close()
    out.append((time.perf_counter() - started, int(head.split()[1])))


async def luck_burst(port, posts, clients=SMALL_CLIENTS):
    """`posts` luck posts of the sample record at once, and `clients` clients each asking new
    small field questions one after another (each on its own connection) until every post is
    answered: the small questions' and the posts' (seconds, status)."""
    from odds.tools.luck.report import SAMPLE

    data, posted, small = Path(SAMPLE).read_bytes(), [], []
    burst = asyncio.gather(*[post(port, "/api/luck", data, posted) for _ in range(posts)])
    await asyncio.sleep(0.2)  # the posts are queued before the first small question

    async def asking(seeds):
        for seed in seeds:
            if burst.done():
                return
            await post(port, f"/api/his.field?attacker=4&defender=3&seed={seed}", b"", small)

    await asyncio.gather(burst, *[asking(range(i, 10**9, clients)) for i in range(clients)])
    return small, posted


def measure_burst(posts=LUCK_POSTS):
    """The rows of small exact questions asked while `posts` luck posts wait their turn."""
    small, posted = serving(lambda port, _: asyncio.run(luck_burst(port, posts)))
    label = f"web API: a small exact question while {posts} luck posts arrive at once"
    times = [t * 1e3 for t, status in small if status == 200]
    done = [t for t, status in posted if status == 200]
    return [Row(f"{label}, p95 latency ({len(small)} asked)", percentile(times, 0.95), "ms",
                target="< 500 ms"),
            Row(f"{label}, max latency", max(times, default=float("nan")), "ms"),
            Row(f"{label}: failed small questions", sum(s != 200 for _, s in small), "", target="0"),
            Row(f"{label}: posts answered 200 (the others 503)", len(done), "", target=str(posts)),
            Row(f"{label}: the last post's answer", max(done, default=0), "s")]


def measure(quick=False):
    seconds = 10 if quick else 20

    def phases(port, server):
        before = rss_mib(server.pid)
        out = {"new": asyncio.run(load(port, seconds, new=True)),
               "repeated": asyncio.run(load(port, seconds, new=False))}
        return out, before, rss_mib(server.pid)

    phases, before, after = serving(phases)
    rows = []
    for phase, results in phases.items():
        for kind, label in (("exact", f"exact answers, {phase} questions"),
                            ("mc", f"MC 10^6 trials (beside {phase} exact questions)")):
            times = [t * 1e3 for t, status, _ in results[kind] if status == 200]
            rows.append(Row(f"web API, {CLIENTS} clients: {label}", len(times) / seconds, "/s"))
            for q in (0.5, 0.95, 0.99) if kind == "exact" else (0.5, 0.95):
                rows.append(Row(f"web API, {CLIENTS} clients: {label}, p{round(q * 100)} latency",
                                percentile(times, q), "ms",
                                target="< 100 ms" if (kind, q) == ("exact", 0.95) else ""))
            if kind == "exact" and phase == "new":
                for chains, which in ((True, "siege and attack"), (False, "the others")):
                    part = [t * 1e3 for t, status, name in results[kind]
                            if status == 200 and (name in CHAINS) == chains]
                    rows.append(Row(f"web API, {CLIENTS} clients: {label}, p95 latency, {which}",
                                    percentile(part, 0.95), "ms"))
    failed = sum(status != 200 for results in phases.values() for kind in results
                 for _, status, _ in results[kind])
    rows.append(Row(f"web API, {CLIENTS} clients: failed requests (errors and 503s)", failed, "",
                    target="0"))
    rows.append(Row(f"web server memory (with its workers) after {2 * seconds} s of load", after, "MiB", before,
                    "before the load", "flat"))
    return rows + measure_heavy(quick) + measure_burst()


if __name__ == "__main__":  # --heavy, --burst: only the rows beside heavy questions, luck posts
    quick = "--quick" in sys.argv
    print(table(measure_heavy(quick) if "--heavy" in sys.argv else measure_burst()
                if "--burst" in sys.argv else measure(quick)))
