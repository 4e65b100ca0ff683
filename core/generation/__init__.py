"""Material generation: prepare a specialist, run it, pause and resume Rückfragen, store materials and versions."""
