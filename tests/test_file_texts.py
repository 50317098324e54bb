"""Text from other players' files is text (issue 47): control characters in a name never reach
the terminal raw, a CSV that odds writes runs no formula in a spreadsheet, a BOM is accepted,
and a record over the roll limit is refused before it is parsed whole."""
import subprocess
import sys

import pandas as pd
import pytest

from odds import OddsError
from odds.files import FORMULA, parse_toml, write_csv
from odds.tools.luck import record
from odds.tools.luck.record import MAX_ROLLS, read
from odds.texts import CONTROLS, printable

TITLE = "\x1b]0;X\x07\x1b[2J"  # retitles and clears a terminal
FAKE = "\r\n  Hapsburg: 99th percentile overall"  # a line break that fakes a summary line
ROLL = """[[roll]]
procedure = "his.field"
keywords = {{ attacker = 4, defender = 3 }}
side = {side}
against = {against}
attacker_hits = 2
defender_hits = 1
"""


def odds(*argv, cwd=None):
    return subprocess.run([sys.executable, "-m", "odds.frontends.cli.main", *map(str, argv)], capture_output=True,
                          text=True, timeout=600, cwd=cwd, stdin=subprocess.DEVNULL)


def toml_string(text: str) -> str:
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or c in '"\\' else c for c in text) + '"'


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(ROLL.format(side=toml_string(f"Ott{TITLE}oman"),
                                against=toml_string(f"Haps{FAKE}")))
    return path


def raw_controls(text: str) -> set:
    return {c for c in text if ord(c) in CONTROLS and c not in "\n\t"}


def test_names_from_a_record_are_escaped_on_the_terminal(game):
    out = odds("luck", game)
    assert out.returncode == 0, out.stderr
    assert not raw_controls(out.stdout), out.stdout
    assert "Ott\\x1b]0;X\\x07\\x1b[2Joman: " in out.stdout
    assert "Haps\\r\\n  Hapsburg: 99th percentile overall: " in out.stdout  # one line, not two
    assert sum(line.lstrip().startswith("Hapsburg") for line in out.stdout.splitlines()) == 0


def test_an_error_line_escapes_what_it_quotes(tmp_path):
    """Every error line (fail) is one line without raw control characters, whatever the value."""
    for argv in (["his", "field", "--attacker", "3", "--defender", "2", "--attacker-leader", TITLE],
                 ["his", "field", "--attacker", f"3{FAKE}", "--defender", "2"],
                 ["luck", tmp_path / f"no{TITLE}such.toml"]):
        out = odds(*argv)
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert not raw_controls(out.stderr), out.stderr


def test_printable_escapes_every_control_character():
    every = "".join(map(chr, CONTROLS))
    assert not raw_controls(printable(every)) and "\n" not in printable(every)
    assert printable("a\nb\tc", lines=True) == "a\nb\tc"
    assert printable("é ß 中") == "é ß 中"  # letters stay letters


@pytest.mark.parametrize("start", FORMULA)
def test_a_csv_cell_a_spreadsheet_would_run_is_written_as_text(tmp_path, start):
    path = tmp_path / "rolls.csv"
    write_csv(pd.DataFrame({"side": [f"{start}cmd|' /C calc'!A0", "Ottoman"], "hits": [-1, 2]}),
              str(path), "--out")
    back = pd.read_csv(path, keep_default_na=False)
    assert back["side"].tolist() == [f"'{start}cmd|' /C calc'!A0", "Ottoman"]
    assert back["hits"].tolist() == [-1, 2]  # numbers stay numbers


def test_luck_out_writes_a_formula_name_as_text(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(ROLL.format(side='"=cmd|\' /C calc\'!A0"', against='"Hapsburg"'))
    out = odds("luck", path, "--out", tmp_path / "rolls.csv")
    assert out.returncode == 0, out.stderr
    assert "'=cmd|' /C calc'!A0" in pd.read_csv(tmp_path / "rolls.csv")["side"].tolist()


def test_a_bom_is_accepted_in_every_file_kind(tmp_path):
    """Excel's "CSV UTF-8" and some editors start a file with U+FEFF."""
    bom = "\ufeff"
    csv = tmp_path / "game.csv"
    csv.write_text(bom + "procedure,side,against,winner,keywords\n"
                   "his.field,Ottoman,Hapsburg,attacker,attacker=4 defender=3\n", encoding="utf-8")
    toml = tmp_path / "game.toml"
    toml.write_text(bom + ROLL.format(side='"Ottoman"', against='"Hapsburg"'), encoding="utf-8")
    for path in (csv, toml):
        entries, refused = read(path)
        assert len(entries) == 1 and not refused, refused
    entries, refused = read(bom + csv.read_text(encoding="utf-8").lstrip(bom), paths=False)
    assert len(entries) == 1 and not refused
    spec = tmp_path / "spec.toml"
    spec.write_text(bom + 'procedure = "his.field"\n[grid]\nattacker = [1, 2]\n[fixed]\ndefender = 1\n',
                    encoding="utf-8")
    out = odds("sweep", spec, "--out", tmp_path / "r.csv")
    assert out.returncode == 0, out.stderr
    assert parse_toml(bom + "a = 1\n", "scenario (the request body)") == {"a": 1}  # the web's path


def test_a_record_over_the_roll_limit_is_refused_before_it_is_parsed(monkeypatch):
    def parsed(*_):
        raise AssertionError("the TOML was parsed before the roll count was checked")
    monkeypatch.setattr(record, "parse_toml", parsed)
    with pytest.raises(OddsError, match=rf"^record: more than {MAX_ROLLS:,} rolls \(allowed: at most"):
        read("[[roll]]\n" * (MAX_ROLLS + 1), paths=False)


def test_a_long_csv_record_says_more_than_the_limit_not_one_more():
    """200,000 rows once read as '100,001 rolls'."""
    rows = "procedure,side,winner\n" + "his.field,Ottoman,attacker\n" * (2 * MAX_ROLLS)
    with pytest.raises(OddsError) as e:
        read(rows, paths=False)
    assert str(e.value).startswith(f"record: more than {MAX_ROLLS:,} rolls") and "100,001" not in str(e.value)


def test_a_csv_cell_over_the_field_limit_is_one_line():
    with pytest.raises(OddsError, match=r"^record: line 3: not a CSV row \(field larger than field limit"):
        read("procedure,side,winner\nhis.field,A,attacker\nhis.field,A," + "x" * 200_000 + "\n",
             paths=False)
