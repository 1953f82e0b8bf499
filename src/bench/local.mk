# src/bench: filled in by its area
