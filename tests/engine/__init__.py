"""The results engine, its caches and stored states, concurrent writes, the results it derives."""
