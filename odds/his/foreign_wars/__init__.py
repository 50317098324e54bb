"""Foreign wars (Here I Stand §21.7): `campaign` (the exact Markov chain and the public
`foreign_war`), `kernel` (the Monte Carlo lane). The battle's dice and losses are the field
battle's rules (his/field/rules.py)."""
PROCEDURES = {"his.foreign_war": "campaign"}  # procedure -> the module that registers it
EXPORTS = {"foreign_war": "campaign"}  # public name of odds.his -> its module
ORDER = 80  # place in listings
