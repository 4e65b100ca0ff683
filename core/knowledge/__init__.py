"""What the specialists know: Wissenskarte, retrieval, embeddings, the learning loop, memory, notes, preferences."""
