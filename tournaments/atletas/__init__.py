"""Atletas across the site's tournaments (DOMAIN §7.1) and their Nível (§7.2): writes in ``services``, reads in
``selectors``."""
