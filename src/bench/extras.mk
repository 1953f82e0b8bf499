# src/bench, extras: Rng, complexity fits, templates (added to libnanobench).
