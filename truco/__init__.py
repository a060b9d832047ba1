"""The card engine of Truco Online (docs/regras.md §9; DOMAIN §9): pure, typed, no Django.

A partida is an immutable value (``state.Partida``). ``rules`` says what each seat may do now and applies an
action, returning the new partida and the events it caused, or a refusal in Portuguese naming the rule;
``clock`` turns the passing of time (given, never read) into its consequences; ``views`` is what each seat and
the spectators may see; ``deal`` is the checkable shuffle; ``log`` writes and replays the game log
(``truco-online-log``); ``robots`` are players that take only legal actions.

The engine imports ``scoring`` (the súmula's rules: a finished mão is a súmula entry that ``scoring.partida``
scores) and nothing of Django, ``tournaments`` or ``config``; the import contracts in pyproject.toml say so.
"""
