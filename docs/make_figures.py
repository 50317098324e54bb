"""Make the README's figures: python docs/make_figures.py (writes docs/img/*.png)."""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import odds  # noqa: E402
from odds.plot import card_value, heatmap, losses  # noqa: E402
from odds.sweep import sweep  # noqa: E402

OUT = Path(__file__).parent / "img"


def main():
    OUT.mkdir(exist_ok=True)
    r = odds.his.field_battle(6, 5, attacker_leader=1, defender_power="ottoman",
                              defender_cards=["janissaries:if-needed"])
    losses(r).figure.savefig(OUT / "field_losses.png", dpi=90)
    df = sweep("his.field", {"attacker": list(range(1, 16)), "defender": list(range(1, 16))},
               {"attacker_leader": 2})
    heatmap(df, "attacker", "defender").figure.savefig(OUT / "field_heatmap.png", dpi=90)
    df = sweep("his.assault", {"attacker": list(range(2, 15)),
                               "attacker_cards": [[], ["siege-artillery:if-needed"]]},
               {"defender": 3, "attacker_leader": 1})
    ax = card_value(df, size="attacker", cards="attacker_cards", value="success")
    ax.figure.savefig(OUT / "siege_artillery.png", dpi=90)


if __name__ == "__main__":
    main()
