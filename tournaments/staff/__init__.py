"""People of a tournament (roles, invitations) and the dupla secrets (PINs, cards, private links)."""
