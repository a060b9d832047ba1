"""Reading a registration CSV (docs/contrato.md "Registration CSV") into entries, with every problem by line.

Bytes in (UTF-8 with or without BOM, or Windows-1252), separator ``,`` or
``;`` detected from the header, header case and accents ignored, dates
``DD/MM/AAAA`` or ``AAAA-MM-DD``. Reading only: the checks against the
tournament are ``checks.entries_check``; ``csv_import`` puts both together.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import gettext as _

from scoring.registration import name_key

from .checks import BIRTH, EMAIL, NAME, PHONE, TEAM, EntryIn, PersonIn

MAX_BYTES = 1_000_000  # about 8,000 rows of a typical file
MAX_ROWS = 2_000  # registrations per file
MAX_FIELDS = 64  # columns per line

COLUMNS = [
    "nome",
    "nascimento",
    "email",
    "telefone",
    "parceiro",
    "parceiro_nascimento",
    "parceiro_email",
    "parceiro_telefone",
    "equipe",
    "parceiro_equipe",
]
PARTNER_COLUMNS = ["parceiro_nascimento", "parceiro_email", "parceiro_telefone", "parceiro_equipe"]
ALIASES = {"e_mail": "email", "parceiro_e_mail": "parceiro_email"}
# (player, value) → column
COLUMN_OF = {
    (0, NAME): "nome",
    (0, BIRTH): "nascimento",
    (0, EMAIL): "email",
    (0, PHONE): "telefone",
    (1, NAME): "parceiro",
    (1, BIRTH): "parceiro_nascimento",
    (1, EMAIL): "parceiro_email",
    (1, PHONE): "parceiro_telefone",
    (0, TEAM): "equipe",
    (1, TEAM): "parceiro_equipe",
}

_BR_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")


@dataclass
class CsvRow:
    line: int  # line of the file where the row starts (the header is line 1)
    values: dict[str, str]  # column → text as in the file (known columns only)
    entry: EntryIn
    problems: list[str] = field(default_factory=list)  # "linha N: …", filled by the reader and the checks


@dataclass
class CsvRead:
    rows: list[CsvRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # problems of the file itself (encoding, header, size)
    notices: list[str] = field(default_factory=list)  # not problems: ignored columns
    columns: list[str] = field(default_factory=list)  # known columns present, in file order
    encoding: str = ""
    separator: str = ""

    def all_problems(self) -> list[str]:
        return [*self.problems, *(p for r in self.rows for p in r.problems)]


def column_key(header: str) -> str:
    """``"Parceiro Nascimento"``, ``"PARCEIRO_NASCIMENTO"``, ``"parceiro-nascimento"`` → ``parceiro_nascimento``."""
    key = re.sub(r"[\s\-]+", "_", name_key(header.replace("\ufeff", "")))
    return ALIASES.get(key, key)


def date_read(text: str) -> date | None:
    """``DD/MM/AAAA`` or ``AAAA-MM-DD``; ValueError when neither or not a real day."""
    m = _BR_DATE.match(text)
    if m:
        day, month, year = (int(g) for g in m.groups())
    else:
        m = _ISO_DATE.match(text)
        if not m:
            raise ValueError(text)
        year, month, day = (int(g) for g in m.groups())
    return date(year, month, day)


def decode(content: bytes, read: CsvRead) -> str | None:
    """UTF-8 (a BOM is dropped), else Windows-1252; None and a problem when it is neither."""
    try:
        text = content.decode("utf-8")
        read.encoding = "UTF-8"
    except UnicodeDecodeError as utf8_error:
        try:
            text = content.decode("cp1252")
            read.encoding = "Windows-1252"
        except UnicodeDecodeError:
            line = content[: utf8_error.start].count(b"\n") + 1
            read.problems.append(
                _("linha %(n)d: o texto não está em UTF-8 nem em Windows-1252; salve a planilha como “CSV UTF-8”")
                % {"n": line}
            )
            return None
    return text.removeprefix("\ufeff")


def _separator(first_line: str) -> str:
    return ";" if first_line.count(";") > first_line.count(",") else ","


def _header(cells: list[str], read: CsvRead, min_age: int | None) -> dict[int, str] | None:
    """Column index → known column; problems and notices on the way; None when the file cannot be read."""
    where: dict[int, str] = {}
    ignored: list[str] = []
    for i, cell in enumerate(cells):
        key = column_key(cell)
        if not key:
            continue
        if key in COLUMNS:
            if key in where.values():
                read.problems.append(_("linha 1: a coluna %(c)s aparece duas vezes no cabeçalho") % {"c": key})
            where[i] = key
        else:
            ignored.append(cell.strip())
    if ignored:
        read.notices.append(_("colunas ignoradas (não fazem parte do modelo): %(c)s") % {"c": ", ".join(ignored[:20])})
    present = set(where.values())
    if "nome" not in present:
        if not present:
            read.problems.append(
                _("linha 1: a primeira linha deve ser o cabeçalho, com as colunas %(c)s; falta a coluna nome")
                % {"c": ", ".join(COLUMNS)}
            )
        else:
            read.problems.append(_("linha 1: falta a coluna nome"))
    if min_age and present and "nascimento" not in present:
        read.problems.append(
            _("linha 1: falta a coluna nascimento: o torneio tem idade mínima de %(a)d anos") % {"a": min_age}
        )
    for column in PARTNER_COLUMNS:
        if column in present and "parceiro" not in present:
            read.problems.append(_("linha 1: a coluna %(c)s precisa da coluna parceiro") % {"c": column})
    read.columns = [where[i] for i in sorted(where)]
    return None if read.problems else where


def _person(values: dict[str, str], prefix: str, position: int, row: CsvRow, unreadable: set) -> PersonIn:
    name_col = "parceiro" if prefix else "nome"
    birth_col = f"{prefix}nascimento"
    birth = None
    text = values.get(birth_col, "")
    if text:
        try:
            birth = date_read(text)
        except ValueError:
            unreadable.add((position, BIRTH))
            row.problems.append(
                _("linha %(n)d: coluna %(c)s: “%(v)s” não é uma data válida (use DD/MM/AAAA ou AAAA-MM-DD)")
                % {"n": row.line, "c": birth_col, "v": text[:40]}
            )
    return PersonIn(
        name=values.get(name_col, ""),
        birth_date=birth,
        email=values.get(f"{prefix}email", ""),
        phone=values.get(f"{prefix}telefone", ""),
        team=values.get(f"{prefix}equipe", ""),
    ).cleaned()


def _row(line: int, cells: list[str], where: dict[int, str], width: int) -> CsvRow:
    values = {where[i]: cells[i].strip() for i in where if i < len(cells)}
    row = CsvRow(line=line, values=values, entry=EntryIn(players=[]))
    extra = [c for c in cells[width:] if c.strip()]
    if extra:
        row.problems.append(
            _("linha %(n)d: %(k)d valores, mas o cabeçalho tem %(w)d colunas (um valor com o separador sem aspas?)")
            % {"n": line, "k": len(cells), "w": width}
        )
    unreadable: set[tuple[int, str]] = set()
    players = [_person(values, "", 0, row, unreadable)]
    partner_values = [c for c in PARTNER_COLUMNS if values.get(c)]
    if values.get("parceiro"):
        players.append(_person(values, "parceiro_", 1, row, unreadable))
    elif partner_values:
        row.problems.append(
            _("linha %(n)d: coluna parceiro vazia, mas %(c)s preenchido") % {"n": line, "c": ", ".join(partner_values)}
        )
    row.entry = EntryIn(players=players, unreadable=unreadable)
    return row


def csv_read(content: bytes, *, min_age: int | None = None) -> CsvRead:
    """Every row of the file as an entry, with the problems of reading it (``linha N: …``)."""
    read = CsvRead()
    if len(content) > MAX_BYTES:
        read.problems.append(
            _(
                "arquivo grande demais: %(kb)d KB; o máximo é %(max)d KB (cerca de %(rows)d "
                "inscrições); divida-o em partes"
            )
            % {"kb": len(content) // 1000, "max": MAX_BYTES // 1000, "rows": MAX_ROWS}
        )
        return read
    text = decode(content, read)
    if text is None:
        return read
    if not text.strip():
        read.problems.append(
            _("linha 1: o arquivo está vazio; a primeira linha deve ser o cabeçalho (%(c)s)")
            % {"c": ", ".join(COLUMNS)}
        )
        return read
    first_line = text.splitlines()[0] if text.splitlines() else ""
    read.separator = _separator(first_line)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=read.separator)
    where: dict[int, str] | None = None
    width = 0
    last_line = 0
    try:
        for cells in reader:
            start, last_line = last_line + 1, reader.line_num
            if len(cells) > MAX_FIELDS:
                read.problems.append(
                    _("linha %(n)d: %(k)d colunas; o máximo é %(max)d")
                    % {"n": start, "k": len(cells), "max": MAX_FIELDS}
                )
                return read
            if where is None:
                width = len(cells)
                where = _header(cells, read, min_age)
                if where is None:
                    return read
                continue
            if not any(c.strip() for c in cells):
                continue  # a blank line
            if len(read.rows) >= MAX_ROWS:
                read.problems.append(
                    _("linha %(n)d: mais de %(max)d inscrições num arquivo; divida-o em partes")
                    % {"n": start, "max": MAX_ROWS}
                )
                return read
            read.rows.append(_row(start, cells, where, width))
    except csv.Error as exc:
        read.problems.append(
            _("linha %(n)d: não foi possível ler a linha (%(e)s)")
            % {"n": max(reader.line_num, last_line + 1), "e": str(exc)[:120]}
        )
        return read
    if where is not None and not read.rows and not read.problems:
        read.problems.append(_("linha 2: nenhuma inscrição no arquivo, só o cabeçalho"))
    return read
