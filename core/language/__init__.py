"""Shared German text handling: the one fold and stemmer (text), and parsing that is not specific to any model —
Klasse/Klassenstufe/Niveau (klasse), Dauer (dauer), typos in key words (spelling), operators (imperativ)."""
