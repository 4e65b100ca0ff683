"""The material models (Klausur, Differenzierung, H5P), requests, patch ops, Notenschlüssel, subjects, summaries."""
