"""Oath: Chronicles of Empire and Exile: the campaign, its dice and battle plans."""
from .campaign import CampaignResult, campaign
from .plans import PLANS, Plan, register

__all__ = ["CampaignResult", "PLANS", "Plan", "campaign", "register"]
