"""Editing stored materials: patch operations, the German edit parser, rework, regeneration, versions."""
