"""Here I Stand army leaders by name, for pickers: (name, power, battle rating).

Only the battle rating matters to the odds (the best one on a side counts, RULES.md §1); the
names let a player pick "Suleiman" instead of remembering "2". Command ratings are not used.
"""

LAND_LEADERS = (
    ("Suleiman", "ottoman", 2),
    ("Ibrahim Pasha", "ottoman", 1),
    ("Charles V", "hapsburg", 2),
    ("Duke of Alva", "hapsburg", 2),
    ("Ferdinand", "hapsburg", 1),
    ("Henry VIII", "england", 1),
    ("Charles Brandon", "england", 1),
    ("Francis I", "france", 1),
    ("Henry II", "france", 1),
    ("Montmorency", "france", 1),
    ("John Frederick", "protestant", 1),
    ("Philip of Hesse", "protestant", 1),
    ("Maurice of Saxony", "protestant", 1),
)
