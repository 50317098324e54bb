"""Foreign wars (Here I Stand §21.7): `campaign` (the exact Markov chain and the public
`foreign_war`), `kernel` (the Monte Carlo lane). The battle's dice and losses are the field
battle's rules (his/field_rules.py)."""
