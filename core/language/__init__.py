"""Shared German parsing for teacher text: the one text fold and stemmer, Klasse/Klassenstufe/Niveau, Dauer.

Pure functions on strings — no database, no model, no pydantic-ai — used by the offline rule model and others.
"""
