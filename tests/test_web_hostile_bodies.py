"""Hostile records posted to /api/luck are a 400 with one line, never a 500 (issue 47: a CSV
cell over Python's csv field limit raised _csv.Error, `dice_per = 3`, a number where a table is
expected, a TypeError in his/naval/ruleset.py; the server answered both 500)."""
import json
import urllib.error
import urllib.request

import pytest

from hang import GUARD
from web_server import running

BODIES = {
    "a CSV cell over the csv field limit": (
        'procedure,keywords,side,winner\nhis.field,"' + "attacker=2 " * 20_000
        + '",Ottoman,attacker\n'),
    "dice_per a number, not a table": (
        '[[roll]]\nprocedure = "his.naval"\nkeywords = { attacker_squadrons = 2, '
        'defender_squadrons = 1, dice_per = 3 }\nside = "Ottoman"\nwinner = "attacker"\n'),
}


@pytest.fixture(scope="module")
def base():
    with running() as srv:
        yield f"http://127.0.0.1:{srv.port}/api/luck"


@pytest.mark.parametrize("body", BODIES)
def test_a_hostile_record_is_a_400_in_one_line(base, body):
    try:
        with urllib.request.urlopen(urllib.request.Request(base, data=BODIES[body].encode()),
                                    timeout=GUARD) as r:
            status, answer = r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        status, answer = e.code, json.loads(e.read())
    assert status == 400, answer  # each record has one roll: refused, no roll is left
    assert answer["error"].startswith("record: ") and "\n" not in answer["error"]
