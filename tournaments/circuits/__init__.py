"""Circuits (DOMAIN §7.3): a season of etapas under one ranking of atletas."""
