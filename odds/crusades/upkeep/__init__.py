"""Balance by upkeep: matchups at equal budget and the upkeep at which each is even
(table.py: `balance`), shown as text, JSON and a figure (report.py)."""
