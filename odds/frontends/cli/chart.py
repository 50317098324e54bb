"""`odds chart PROCEDURE --X LOW..HIGH --Y LOW..HIGH [fixed flags]`: odds.tools.chart's printable
chart on the command line, the procedure's own flags (as `odds GAME PROCEDURE` has them), two
of them given as LOW..HIGH; A4 or US Letter, PDF or PNG (by the file's extension)."""
from __future__ import annotations

import argparse

from ... import registry
from ...errors import OddsError
from ...files import check_output, replaced
from ...i18n import N_, _, ngettext
from ...texts import as_typed
from ...tools.chart import MAX_VALUES, PAPER, figure, grid
from ...tools.questions.plans import INTEGER, is_range, span
from .common import Lines, Parser, add_param, epilog, given, in_flags

EXAMPLES = (N_("examples:"), Lines("""  odds chart his.field --attacker 1..12 --defender 1..12 --attacker-leader 2 --out field.pdf
  odds chart his.assault --attacker 1..10 --defender 1..6 --defender-power ottoman --out assault.png
  odds chart oath.campaign --warbands 1..12 --defenders 0..8 --defense-dice 3 --paper letter --out oath.pdf
"""), N_("The first LOW..HIGH keyword runs down the page, the second across; every other flag of "
        "the procedure (see `odds GAME PROCEDURE --help`) is fixed for the whole chart."))


def _ranges(words: list, params: dict, procedure: str) -> tuple[list, dict]:
    """The words with each `FLAG LOW..HIGH` (or `FLAG=LOW..HIGH`) of a flag in `params` (flag
    -> its Param) replaced by FLAG LOW, and keyword -> its values (plans.span reads the range,
    as --vary's, or refuses it in one line)."""
    out, axes = [], {}
    for word in words:
        key, eq, text = word.partition("=") if word.startswith("--") else ("", "", word)
        flag = key if eq else (out[-1] if out and out[-1].startswith("--") else None)
        p = params.get(flag)
        if p is not None and is_range(text):
            if p.kind not in INTEGER:
                raise OddsError(_("{flag}: LOW..HIGH is for a whole-number keyword of {procedure}").format(
                    flag=flag, procedure=procedure))
            low, high = span(flag, text, p.low, p.high, MAX_VALUES)
            axes[p.name] = tuple(range(low, high + 1))
            word = f"{key}={low}" if eq else str(low)
        out.append(word)
    return out, axes


def run(args) -> int:
    spec = registry.get(args.procedure)
    parser = Parser(prog=f"odds chart {spec.name}",
                    description=_("{help}: a printable chart; give two whole-number flags as "
                                  "LOW..HIGH (the first down the page, the second across)").format(
                        help=_(spec.help)))
    actions = {p.name: add_param(parser, p, default) for p, default in
               zip(spec.params, spec.defaults().values())}
    parser.add_argument("--out", default="chart.pdf", help=_("the chart: .pdf or .png (default chart.pdf)"))
    parser.add_argument("--paper", default="a4", choices=tuple(PAPER), help=_("a4 or letter (default a4)"))
    parser.add_argument("--event", help=_("the probability shown (default {event})").format(event=spec.main))
    params = {s: spec.param(name) for name, a in actions.items() for s in a.option_strings}
    words, ranges = _ranges(args.rest, params, spec.name)
    chosen = parser.parse_args(words)
    check_output(chosen.out, "--out", (".pdf", ".png"))
    axes = list(ranges.items())
    if len(axes) != 2:
        raise OddsError(ngettext(
            "chart: {n} keyword given as LOW..HIGH (allowed: exactly 2, e.g. --attacker 1..12 "
            "--defender 1..12)", "chart: {n} keywords given as LOW..HIGH (allowed: exactly 2, "
            "e.g. --attacker 1..12 --defender 1..12)", len(axes)).format(n=len(axes)))
    defaults = spec.defaults()
    fixed = {k: v for k, v in given(spec, chosen).items()
             if k not in (axes[0][0], axes[1][0]) and v not in ([], defaults[k])}
    try:
        answers = grid(spec, axes[0], axes[1], fixed, chosen.event)  # refused before matplotlib loads
    except OddsError as e:  # the flags the user typed, not the Python keywords
        raise OddsError(in_flags(str(e), spec.params)) from None
    import matplotlib

    matplotlib.use("Agg")
    fig = figure(spec, axes[0], axes[1], fixed, answers, chosen.paper)
    with replaced(chosen.out, "--out") as temporary, as_typed(fig):
        fig.savefig(temporary, format=chosen.out.rsplit(".", 1)[1], dpi=150)
    cells = ngettext("{rows} x {cols} cell", "{rows} x {cols} cells", len(axes[0][1]) * len(axes[1][1]))
    print(f"{spec.name}: " + cells.format(rows=len(axes[0][1]), cols=len(axes[1][1]))
          + f", {chosen.paper} -> {chosen.out}")
    return 0


def register(games):
    p = games.add_parser("chart", help=_("a printable odds chart over two keywords (PDF or PNG)"),
                         usage="odds chart PROCEDURE --X LOW..HIGH --Y LOW..HIGH [FLAGS]",
                         description=_("A one-page printable chart of a procedure's probability over "
                                       "two whole-number keywords given as LOW..HIGH, every other "
                                       "flag fixed: exact percentages in grey-scale cells, the "
                                       "settings in the title, the rules' assumptions in a footnote. "
                                       "Flags after PROCEDURE: its own (odds GAME PROCEDURE --help), "
                                       "--out FILE (.pdf or .png), --paper a4|letter, --event NAME."),
                         epilog=epilog(*EXAMPLES), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("procedure", metavar="PROCEDURE", help=_("a procedure's name, e.g. his.field, his.assault, oath.campaign"))
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(handler=run)
