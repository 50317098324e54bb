"""The Diet of Worms (Here I Stand §18.1): `diet` (the exact engine over both sides' hits, the
public `diet_of_worms` with the cards given or chosen from the hands, its spec), `choice` (the
card choice as a zero-sum game, solved exactly), `kernel` (the Monte Carlo lane)."""
PROCEDURES = {"his.diet_of_worms": "diet"}  # procedure -> the module that registers it
EXPORTS = {"diet_of_worms": "diet"}  # public name of odds.his -> its module
ORDER = 105  # place in listings
