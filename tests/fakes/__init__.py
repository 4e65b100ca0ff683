"""Wire-level test doubles: loopback fakes of external services (model provider HTTP APIs)."""
