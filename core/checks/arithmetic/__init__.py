"""The arithmetic check: recompute the calculations in an Erwartungshorizont (German numbers, units)."""
