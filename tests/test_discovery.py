"""A new procedure is its own folder: a throwaway concept written into odds/his/ (and removed
after) is found by the registry, the command line, Python, the page's catalogue and the
summary's words, with no other file edited."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import odds.his

INIT = '''"""A throwaway concept: one fair coin per die, heads wins."""
PROCEDURES = {"his.coin_toss": "toss"}
EXPORTS = {"coin_toss": "toss"}
ORDER = 999
'''
TOSS = '''"""The coin toss: `coins` coins, wins on at least one head."""
import numpy as np

from ...core.engine import McOptions, Procedure, solve
from ...core.outcomes import Words
from ...errors import check_int
from ...registry import Example, Param, Spec, register

WORDS = Words("Heads", (("heads", "tails"),), why={"all_heads": "no coin came up tails"})


def coin_toss(*, coins=1, method="auto", trials=None, seed=None, precision=None,
              max_trials=10**9, threads=None, progress=None):
    coins = check_int("coins", coins, 1, 5)

    def summarise(joint):
        return {"heads": joint[1], "tails": joint[0], "all_heads": 0.5 ** coins * joint.sum()}, {}

    mc = McOptions.make(trials, seed, precision, max_trials, threads, progress)
    proc = Procedure("his.coin_toss", (2,), summarise, "heads",
                     lambda: np.array([0.5 ** coins, 1 - 0.5 ** coins]), (), lambda: (),
                     {"coins": coins}, words=WORDS)
    return solve(proc, method, mc)


register(Spec("his.coin_toss", coin_toss, (Param("coins", "int", "coins tossed", low=1, high=5),),
              "toss coins", ("his", "coin-toss"), "heads", words=WORDS,
              examples=(Example("two", {"coins": 2}),)))
'''
CHECK = '''
import odds.his
from odds import registry
from odds.frontends.cli.main import main
from odds.frontends.web.app import catalogue
print(odds.his.coin_toss(coins=2, method="exact").summary())
print(list(registry.specs("his"))[-1])
print([p["headline"] for p in catalogue()["procedures"] if p["name"] == "his.coin_toss"])
main(["his", "coin-toss", "--coins", "3", "--method", "exact"])
raise SystemExit(main(["his", "coin-toss", "--coins", "9"]))
'''


def test_a_procedure_in_its_own_folder_needs_no_other_file():
    folder = Path(odds.his.__path__[0]) / f"zz_throwaway_{os.getpid()}"
    folder.mkdir()
    try:
        (folder / "__init__.py").write_text(INIT)
        (folder / "toss.py").write_text(TOSS)
        out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                             timeout=600)
    finally:
        shutil.rmtree(folder)
    assert "Heads 75.0% (exact)  [his.coin_toss]" in out.stdout, out.stderr
    assert "    tails                          25.00%" in out.stdout
    assert "all heads                      25.00%" in out.stdout
    assert "(no coin came up tails)" in out.stdout
    assert "his.coin_toss\n['Heads']\nHeads 87.5% (exact)" in out.stdout
    assert out.stderr.strip().splitlines()[-1].endswith(
        "error: --coins: 9 is out of range (allowed: 1 to 5)")
    assert out.returncode == 2


def test_no_module_has_the_name_of_a_function_its_package_exports():
    """`import odds.his.assault` cannot return a function: no game package, and no Here I
    Stand concept, holds a module named as one of the public names it exports."""
    import importlib.util

    from odds import registry

    packages = {p.__name__: p for p in registry.games().values()}
    for name, package in packages.items():
        for export in package.EXPORTS:
            assert importlib.util.find_spec(f"{name}.{export}") is None, (name, export)
    for concept in {m.split(".")[0] for m in odds.his.PROCEDURES.values()}:
        assert concept not in odds.his.EXPORTS, concept
