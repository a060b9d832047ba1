"""Online play's audience (DOMAIN §9): the pages at /jogar/ and the live connection at /ws/mesas/<id>/.

Views and consumers stay thin: they read the request or the socket's message, find who asks (``identity``),
call ``tournaments.online``'s services and selectors, and answer. No domain package imports this one.
"""
