"""Checks every material passes, whichever model made it: structure, content quality, grounding, arithmetic."""
