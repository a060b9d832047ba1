"""The dupla's private link and the PINs the duplas use (tournaments/dupla/)."""
