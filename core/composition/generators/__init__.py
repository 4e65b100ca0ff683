"""Parametric task generators (Mathematik, Physik, Chemie) with exactly computed Erwartungshorizonte."""
