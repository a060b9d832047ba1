"""The digital súmula's domain: its writes (mãos, results, confirmations, signature, corrections), reads, PINs."""
