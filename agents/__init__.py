"""Werkbank agents: one pydantic-ai agent per module, plus the offline rule model and its German NLU."""
