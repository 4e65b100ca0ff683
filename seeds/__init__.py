"""Idempotent seed steps: subject profiles, operators, good practices, curriculum excerpts, demo school."""
