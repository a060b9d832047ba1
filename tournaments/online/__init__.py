"""Online play (DOMAIN §9): salas, tables, seats, the partida a table plays, its clock, chat and conduct.

``services`` writes (tables, seats, actions, the clock), ``selectors`` reads (the lobby, a seat's state, the
events a connection missed, the logs), ``broadcast`` tells the live connections once a write commits. The rules
are the card engine's (``truco``): nothing here decides one. ``people``, ``chat`` and ``conduct`` keep the
players, their messages and what staff decide about them.
"""
