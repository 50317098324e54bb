"""Oath: Chronicles of Empire and Exile: the campaign, its dice and battle plans.

`procedure` (the exact engine, the public `campaign` and its spec), `plans` (battle plans and
their registry), `dice`, `rules`, `decision` (when to stop sacrificing), `kernel`."""
from ..lazy import exports

TITLES = {"oath": "Oath: Chronicles of Empire and Exile"}  # the game's name, by first word
ORDER = 20  # this game's place in listings
PROCEDURES = {"oath.campaign": "campaigns.procedure"}  # procedure -> the module that registers it
EXPORTS = {"CampaignResult": "campaigns.procedure", "campaign": "campaigns.procedure",
           "PLANS": "campaigns.plans", "Plan": "campaigns.plans", "register": "campaigns.plans"}
__all__ = sorted(EXPORTS)
__getattr__, __dir__ = exports(__name__, EXPORTS)
