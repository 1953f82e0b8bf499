# src/prevector: filled in by its area
