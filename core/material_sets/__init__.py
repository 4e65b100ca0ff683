"""Material sets: one request for several materials, planned as a DAG, run, synthesised with conflicts, zipped."""
