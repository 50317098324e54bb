"""`odds chart PROCEDURE --X LOW..HIGH --Y LOW..HIGH [fixed flags]`: odds.tools.chart's printable
chart on the command line, the procedure's own flags (as `odds GAME PROCEDURE` has them), two
of them given as LOW..HIGH; A4 or US Letter, PDF or PNG (by the file's extension)."""
from __future__ import annotations

import argparse

from ... import registry
from ...errors import OddsError
from ...files import check_output, replaced
from ...texts import counted
from ...tools.chart import MAX_VALUES, PAPER, draw
from ...tools.questions.plans import INTEGER, is_range, span
from .common import Parser, add_param, given, in_flags

EXAMPLES = """examples:
  odds chart his.field --attacker 1..12 --defender 1..12 --attacker-leader 2 --out field.pdf
  odds chart his.assault --attacker 1..10 --defender 1..6 --defender-power ottoman --out assault.png
  odds chart oath.campaign --warbands 1..12 --defenders 0..8 --defense-dice 3 --paper letter --out oath.pdf

The first LOW..HIGH keyword runs down the page, the second across; every other flag of the
procedure (see `odds GAME PROCEDURE --help`) is fixed for the whole chart."""


def _ranges(words: list) -> tuple[list, dict]:
    """The words with each `FLAG LOW..HIGH` (or `FLAG=LOW..HIGH`) replaced by FLAG LOW, and
    flag -> its LOW..HIGH text (checked by `span` once the flag's keyword is known)."""
    out, ranges = [], {}
    for word in words:
        key, eq, text = word.partition("=") if word.startswith("--") else ("", "", word)
        previous = key if eq else (out[-1] if out and out[-1].startswith("--") else None)
        if previous and is_range(text):
            ranges[previous] = text
            low = text.split("..")[0].strip()
            word = f"{key}={low}" if eq else low
        out.append(word)
    return out, ranges


def run(args) -> int:
    spec = registry.get(args.procedure)
    parser = Parser(prog=f"odds chart {spec.name}",
                    description=f"{spec.help}: a printable chart; give two whole-number flags as "
                                "LOW..HIGH (the first down the page, the second across)")
    actions = {p.name: add_param(parser, p, default) for p, default in
               zip(spec.params, spec.defaults().values())}
    parser.add_argument("--out", default="chart.pdf", help="the chart: .pdf or .png (default chart.pdf)")
    parser.add_argument("--paper", default="a4", choices=tuple(PAPER), help="a4 or letter (default a4)")
    parser.add_argument("--event", help=f"the probability shown (default {spec.main})")
    words, ranges = _ranges(args.rest)
    chosen = parser.parse_args(words)
    check_output(chosen.out, "--out", (".pdf", ".png"))
    by_flag = {s: name for name, a in actions.items() for s in a.option_strings}
    axes = []
    for text, raw in ranges.items():
        name = by_flag.get(text)
        if name is None or spec.param(name).kind not in INTEGER:
            raise OddsError(f"{text}: LOW..HIGH is for a whole-number keyword of {spec.name}")
        p = spec.param(name)
        low, high = span(text, raw, p.low, p.high, MAX_VALUES)
        axes.append((name, tuple(range(low, high + 1))))
    if len(axes) != 2:
        raise OddsError(f"chart: {counted(len(axes), 'keyword')} given as LOW..HIGH (allowed: exactly 2, "
                        "e.g. --attacker 1..12 --defender 1..12)")
    defaults = spec.defaults()
    fixed = {k: v for k, v in given(spec, chosen).items()
             if k not in (axes[0][0], axes[1][0]) and v not in ([], defaults[k])}
    import matplotlib

    matplotlib.use("Agg")
    try:
        fig = draw(spec, axes[0], axes[1], fixed, chosen.event, chosen.paper)
    except OddsError as e:  # the flags the user typed, not the Python keywords
        raise OddsError(in_flags(str(e), spec.params)) from None
    with replaced(chosen.out, "--out") as temporary:
        fig.savefig(temporary, format=chosen.out.rsplit(".", 1)[1], dpi=150)
    print(f"{spec.name}: {len(axes[0][1])} x {len(axes[1][1])} cells, {chosen.paper} -> {chosen.out}")
    return 0


def register(games):
    p = games.add_parser("chart", help="a printable odds chart over two keywords (PDF or PNG)",
                         usage="odds chart PROCEDURE --X LOW..HIGH --Y LOW..HIGH [flags]",
                         description="A one-page printable chart of a procedure's probability over "
                                     "two whole-number keywords given as LOW..HIGH, every other "
                                     "flag fixed: exact percentages in grey-scale cells, the "
                                     "settings in the title, the rules' assumptions in a footnote. "
                                     "Flags after PROCEDURE: its own (odds GAME PROCEDURE --help), "
                                     "--out FILE (.pdf or .png), --paper a4|letter, --event NAME.",
                         epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("procedure", help="a procedure's name, e.g. his.field, his.assault, oath.campaign")
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(handler=run)
