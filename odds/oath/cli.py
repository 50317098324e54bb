"""`odds oath ...` commands."""
from __future__ import annotations

from ..cli_common import add_engine_flags, engine_kwargs, whole
from .plans import PLANS


def _campaign(args):
    from .campaign import campaign

    return campaign(args.warbands, attack_dice=args.attack_dice, defense_dice=args.defense_dice,
                    sites=args.site, relics=args.relic, banners=args.banner,
                    pawn_and_favor=args.pawn_and_favor, title=args.title,
                    imperial_title=args.imperial_title,
                    chancellor_oathkeeper=args.chancellor_oathkeeper, defenders=args.defenders,
                    bandits=args.bandits, sacrifice=args.sacrifice, plans=args.plan,
                    edition=args.edition, optimise=args.optimise, **engine_kwargs(args))


def register(games):
    oath = games.add_parser("oath", help="Oath: Chronicles of Empire and Exile")
    procs = oath.add_subparsers(dest="procedure", required=True, parser_class=type(oath))
    p = procs.add_parser("campaign", help="campaign: attack and defense dice, sacrifice, battle plans")
    p.add_argument("--warbands", type=whole, required=True, metavar="W", help="attacker's warbands on its board")
    p.add_argument("--attack-dice", type=whole, metavar="N", help="attack dice (default: all warbands)")
    p.add_argument("--defense-dice", type=whole, metavar="D", help="defense dice (instead of targets)")
    p.add_argument("--site", type=whole, action="append", default=[], nargs="?", const=1, metavar="SHIELDS",
                   help="a target site (its shield number, default 1); repeat per site")
    p.add_argument("--relic", type=whole, action="append", default=[], metavar="SHIELDS", help="a target relic")
    p.add_argument("--banner", type=whole, action="append", default=[], metavar="TOKENS",
                   help="a target banner with this many favor or secrets")
    p.add_argument("--pawn-and-favor", action="store_true", help="target the defender's pawn and favor (2 dice)")
    p.add_argument("--title", default="none", metavar="TITLE", help="defender: none, oathkeeper, usurper or imperial")
    p.add_argument("--imperial-title", default="always", metavar="RULE",
                   help="imperial +1: always (seed) or chancellor-oathkeeper (printed rule)")
    p.add_argument("--chancellor-oathkeeper", action="store_true",
                   help="the Chancellor holds the Oathkeeper title (for --imperial-title chancellor-oathkeeper)")
    p.add_argument("--defenders", type=whole, default=0, metavar="K", help="defending warbands (or bandits)")
    p.add_argument("--bandits", action="store_true", help="the defender is bandits (never killed)")
    p.add_argument("--sacrifice", default="as-needed", metavar="POLICY", help="as-needed, never or at-most:K")
    p.add_argument("--plan", action="append", default=[], metavar="NAME[:ARG]",
                   help="battle plan, repeatable: " + ", ".join(PLANS))
    p.add_argument("--edition", default="law", metavar="EDITION", help="law (default) or new-foundations")
    p.add_argument("--optimise", action="store_true", help="exact P(win) and expected losses for every dice count")
    add_engine_flags(p)
    p.set_defaults(run=_campaign)
