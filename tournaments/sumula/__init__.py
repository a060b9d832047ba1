"""The digital súmula: the referee's screen, the duplas' confirmations, the signature, live scores, the API."""
