"""Names from other people's files reach every output escaped for it (issue 59): a record's
side names and a sweep spec's variant names, each of them hostile to one output, go through
the terminal, JSON, CSV (to a file and to the terminal: one writer, files.csv_text, headers
included) and plots (matplotlib's mathtext is off for them: texts.as_typed). And messages
quote values as a file writes them, never a Python repr."""
import csv
import datetime
import io
import json
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from odds import OddsError, cli
from odds.errors import shown
from odds.files import FORMULA
from odds.tools.luck.report import SAMPLE
from chromium import needed

# each breaks one output: mathtext, a spreadsheet formula (two kinds), a control character
NAMES = ["$\\frac{$", '=HYPERLINK("http://evil","x")', "@SUM(1+1)", "cr\rname"]


def run(args) -> tuple[int, str, str, list]:
    """(exit code, stdout, stderr, warnings) of `odds ARGS` in this process."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        code = cli.main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue(), [str(w.message) for w in seen]


def toml_text(name: str) -> str:
    return json.dumps(name)  # a TOML basic string is a JSON string for these


def renamed(names) -> str:
    """The sample record's text with its first four sides renamed to `names`."""
    text = Path(SAMPLE).read_text(encoding="utf-8")
    for old, new in zip(('"Ottoman"', '"Hapsburg"', '"Protestant"', '"Papacy"'), names):
        for key in ("side", "against", "winner"):
            text = text.replace(f"{key} = {old}", f"{key} = {toml_text(new)}")
    return text


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """The sample record with its sides renamed to hostile names."""
    path = tmp_path_factory.mktemp("names") / "game.toml"
    path.write_text(renamed(NAMES), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    """A sweep spec whose variants carry the hostile names."""
    variants = "".join(f"[grid.variant.{toml_text(n)}]\ndefender_leader = {i}\n"
                       for i, n in enumerate(NAMES))
    path = tmp_path_factory.mktemp("names") / "spec.toml"
    path.write_text('procedure = "his.field"\nmethod = "exact"\n[grid]\nattacker = [3, 4]\n'
                    f"[fixed]\ndefender = 3\n[grid.variant.plain]\n{variants}", encoding="utf-8")
    return path


def formula_cells(text: str) -> list:
    """The text cells (headers included) of CSV `text` that a spreadsheet would run."""
    return [c for row in csv.reader(io.StringIO(text)) for c in row
            if c.startswith(FORMULA) and not number(c)]


def number(cell: str) -> bool:
    try:
        float(cell)
        return True
    except ValueError:
        return False


def test_csv_to_the_terminal_is_formula_safe_as_files_are(spec, tmp_path):
    code, out, _, _ = run(["sweep", spec, "--table", "csv"])
    assert code == 0 and formula_cells(out) == [] and "'=HYPERLINK" in out
    assert run(["sweep", spec, "--out", tmp_path / "r.parquet"])[0] == 0
    code, out, _, _ = run(["table", tmp_path / "r.parquet", "--format", "csv"])
    assert code == 0 and formula_cells(out) == [] and "'@SUM(1+1)" in out
    assert run(["sweep", spec, "--out", tmp_path / "r.csv"])[0] == 0
    assert formula_cells((tmp_path / "r.csv").read_text()) == []


def test_variant_names_are_plotted_as_typed(spec, tmp_path):
    assert run(["sweep", spec, "--out", tmp_path / "r.parquet"])[0] == 0
    code, _, err, seen = run(["plot", tmp_path / "r.parquet", "--x", "attacker", "--by", "variant",
                              "--out", tmp_path / "by.png"])
    assert code == 0, err
    assert (tmp_path / "by.png").stat().st_size > 0 and not [w for w in seen if "Glyph" in w]


def test_side_names_reach_the_terminal_json_csv_and_a_plot(record, tmp_path):
    code, out, err, seen = run(["luck", record, "--plot", tmp_path / "luck.png",
                                "--out", tmp_path / "luck.csv"])
    assert code == 0, err
    assert (tmp_path / "luck.png").stat().st_size > 0 and not [w for w in seen if "Glyph" in w]
    assert "\r" not in out and "cr\\rname" in out  # the terminal: the CR escaped
    assert formula_cells((tmp_path / "luck.csv").read_text()) == []
    code, out, _, _ = run(["luck", record, "--json"])
    sides = {row["side"] for row in json.loads(out)["rows"]} if "rows" in json.loads(out) else None
    assert code == 0 and (sides is None or set(NAMES) & sides)


@pytest.mark.parametrize("value, typed", [(datetime.date(1979, 5, 27), "1979-05-27"),
                                          ({"a": 1}, '{"a": 1}'), (True, "true"), (False, "false")])
def test_messages_quote_values_as_a_file_writes_them(value, typed, tmp_path):
    assert shown(value) == typed
    from odds.crusades import scenario

    example = Path(scenario.__file__).parent / "examples" / "field.toml"
    text = {datetime.date: "1979-05-27", dict: "{a = 1}", bool: str(value).lower()}[type(value)]
    with pytest.raises(OddsError) as e:
        scenario.load(str(example), [f"seed={text}"])
    assert f"seed: {typed} is not a whole number" in str(e.value)


MARKUP = '<img src=x onerror="window.hurt=1">'  # breaks a page that writes names as HTML


@needed
def test_side_names_reach_the_luck_page_as_text(page_browser):
    """The luck page, sent the record with hostile side names (markup among them), shows each
    name as typed: no element made of it, no script run, each name in the table of sides."""
    names = [*NAMES[:2], NAMES[3], MARKUP]
    page = page_browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(page_browser.base + "luck")
    page.fill("#record", renamed(names))
    page.click("#score")
    page.wait_for_selector("#result:not([hidden]) #game tbody tr", timeout=60_000)
    sides = page.locator("#game tbody th").all_inner_texts()
    assert page.evaluate("window.hurt === undefined && !document.querySelector('#result img')")
    assert {name.replace("\r", " ") for name in names} <= set(sides), sides  # a CR is a space in HTML
    page.close()
