"""Layer traces (debug_level >= 3): reading, naming, comparing, plotting, fixtures, doctor checks."""
