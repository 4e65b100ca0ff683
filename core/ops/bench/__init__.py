"""Benchmarks: scripts that print numbers and write docs/benchmarks.md — never timed tests. One module per
benchmark (Wissenskarte, search, chat, pages, load); they run in databases of their own."""
