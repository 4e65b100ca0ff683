"""The deterministic rule model, a provider like any other: reads requests, asks what is missing, calls the same tools
a real model calls. Imported only by agents.models.registry; it knows nothing a real model would not be told."""
