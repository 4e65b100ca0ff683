"""Models behind one boundary: names and roles, the registry (names -> pydantic-ai models, the offline rule model as
one provider among others), fallback, limits and retries, the per-call log, prices and German error messages."""
