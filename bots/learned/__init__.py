"""A policy learned with numpy alone against the random bot, served by ``sdk.policy_bot``."""
