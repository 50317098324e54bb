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
    ax = card_value("his.assault", "siege-artillery:if-needed", size="attacker", sizes=range(2, 15),
                    fixed={"defender": 3, "attacker_leader": 1}, value="success")
    ax.figure.savefig(OUT / "siege_artillery.png", dpi=90)


if __name__ == "__main__":
    main()
