"""One repository module per aggregate: keyword-only functions, they flush, services own the transaction."""
