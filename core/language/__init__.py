"""Shared German text handling: the one fold and stemmer, and parsing that is not specific to any model."""
