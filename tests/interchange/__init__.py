"""The tournament file (tournaments/interchange/): import, export, limits, sizes, keys, the fuzz."""
