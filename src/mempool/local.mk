# src/mempool: filled in by its area
