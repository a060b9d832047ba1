"""What the public pages show, as plain values: names instead of keys, pt-BR labels and number formats.

One module per page or part (``labels``: fixed labels and formats; ``duplas``; ``stages``: the event as
a whole; ``event``; ``standings``; ``jogo``: one jogo's line, shared; ``jogos``; ``bracket``; ``now``; ``tv``;
``dupla``; ``sumula``); the names other code uses are exported here.

Each page's value is a typed read model: frozen, slotted dataclasses declared beside the builder that makes
them (``StandingsPage``, ``GroupTable``, ``StandingRow``, ``JogoItem``, ``BracketRound``, ``DuplaRef``, …), so a
renamed field fails in mypy, not when a page renders. The rows built by the thousand are made through
``types.fast_constructor`` (a frozen dataclass's own ``__init__`` costs five times a dict). The one Mapping left
is the label table of a language (``labels.page_labels``), read by name.

Templates stay dumb: they loop over the values and lists built here. Nothing
here touches private data (birth dates, contacts, PINs), and nothing here
queries the database except ``tournament_list_rows`` (a fixed number of
aggregate queries, whatever the number of events).

Cost: the pages of a 1024-dupla event hold thousands of rows, so every
label is translated once per language (``page_labels``), not once per row, and
every value leaves here as a plain ``str`` (numbers already formatted), so
the template neither localizes nor re-translates anything per cell.

Big events are shown in parts, as a phone needs them (small events are shown
whole, as before): /jogos/ one round at a time (``?rodada=N``),
/classificacao/ ``GROUPS_PER_PAGE`` groups a page (``?pagina=N``), and a
bracket of more than ``BRACKET_PAGED_OVER`` duplas from the round of 32 on,
with its earlier rounds by section (``?secao=N``). Each builder says whether
the parameters it was given were all valid (``canonical``): the views cache
only those pages.
"""

from .bracket import BRACKET_CLASSIFICATION_ROWS, BRACKET_PAGED_OVER, bracket_present
from .dupla import dupla_present, duplas_find
from .duplas import dupla_refs, dupla_url, unknown_dupla
from .event import event_present, tournament_list_rows, tournament_list_sections
from .jogo import jogo_label, jogo_place
from .jogos import JOGOS_PAGED_OVER, jogos_present
from .labels import best_of_label, date_br, knockout_round_title, score_text, scores_text, time_br
from .now import now_present
from .stages import event_head, rule_texts, status_of, tournament_status
from .standings import GROUPS_PER_PAGE, classification_present, standings_present
from .tv import tv_circuit_add, tv_present

__all__ = [
    "BRACKET_CLASSIFICATION_ROWS",
    "BRACKET_PAGED_OVER",
    "GROUPS_PER_PAGE",
    "JOGOS_PAGED_OVER",
    "best_of_label",
    "bracket_present",
    "classification_present",
    "date_br",
    "dupla_present",
    "dupla_refs",
    "dupla_url",
    "duplas_find",
    "event_head",
    "event_present",
    "jogo_label",
    "jogo_place",
    "jogos_present",
    "knockout_round_title",
    "now_present",
    "rule_texts",
    "score_text",
    "scores_text",
    "standings_present",
    "status_of",
    "time_br",
    "tournament_list_rows",
    "tournament_list_sections",
    "tournament_status",
    "tv_circuit_add",
    "tv_present",
    "unknown_dupla",
]
