"""Operations: start-up (migrate, seed), health, retention, database facts and re-embedding, the command line
(`python -m core`) and the benchmarks."""
