"""The chat turn: clean -> safety -> lock -> run the main agent -> persist; toolsets, demo scenarios, traces."""
