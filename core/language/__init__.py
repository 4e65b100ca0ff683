"""Shared German text handling: the one fold and stemmer (text, fold), reading requests (request/), AFB answers,
feedback, standing wishes, edit requests, Klasse, Dauer, spelling, operators, the subject lexicon, token estimates."""
