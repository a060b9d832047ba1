"""The súmula's services and records (tournaments/sumula/): vias, concurrent writers, the round trip."""
