# src: filled in by its area
