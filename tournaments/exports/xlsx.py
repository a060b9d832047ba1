"""A workbook from plain tables: what every spreadsheet of the site shares.

Each ``Sheet`` is a header (``Column``: a pt-BR title and the kind of its values) and rows of plain values:
``int`` and ``float`` are numbers, ``date`` and ``datetime`` are dates (shown DD/MM/AAAA), ``str`` is text,
``None`` an empty cell, and ``Struck(value)`` a number shown struck through (a circuit result that does not
count). The workbook:

- freezes the header row (bold, with a filter on every column), so a long table scrolls under it;
- sets each column's width to fit its longest value (within ``WIDTH_MIN``–``WIDTH_MAX`` characters);
- never lets a cell run as a formula: a text that starts with ``= + - @``, a tab or a carriage return is written
  as text with the "quote prefix" (Excel's and LibreOffice's leading apostrophe), so it shows and stays as typed,
  even after it is edited; characters that XML cannot hold (control characters) are left out;
- is made by openpyxl (its write-only mode: workbook, styles, widths, the frozen header, the filter, the header
  row), the data rows' XML written here as openpyxl would write them and put in after the header (``_rows_xml``):
  a cell object per value cost more than the whole budget of an export at 1,024 duplas.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
DATE_FORMAT = "DD/MM/YYYY"
DATETIME_FORMAT = "DD/MM/YYYY HH:MM"
DECIMAL_FORMAT = "0.000"
WIDTH_MIN, WIDTH_MAX = 6, 60
SHEET_TITLE_MAX = 31  # Excel's limit
_SHEET_TITLE_BAD = re.compile(r"[\[\]:*?/\\]")

Value = str | int | float | dt.date | dt.datetime | None


@dataclass(frozen=True, slots=True)
class Struck:
    """A number shown struck through and grey (a circuit result best-N leaves out): still a number."""

    value: int | float


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its header (pt-BR) and, for numbers, how they show ("decimal": 3 places, as the average)."""

    header: str
    decimal: bool = False


@dataclass(frozen=True, slots=True)
class Sheet:
    title: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[Value | Struck]]
    notes: Sequence[str] = field(default_factory=tuple)  # lines above the table (what a mark means), if any


def safe_text(value: str) -> str:
    """``value`` without the characters an XLSX (XML) cannot hold: control characters other than tab, LF, CR."""
    return ILLEGAL_CHARACTERS_RE.sub("", value) if ILLEGAL_CHARACTERS_RE.search(value) else value


def runs_as_formula(value: str) -> bool:
    """Whether a spreadsheet could take this text for a formula once typed or opened as CSV."""
    return value.startswith(FORMULA_START)


def sheet_title(title: str, used: set[str]) -> str:
    """A sheet name Excel accepts (no ``[]:*?/\\``, at most 31 characters, not empty) and unique in the workbook
    (ignoring case, as Excel does): "Grupo A", "Grupo A (2)"."""
    base = _SHEET_TITLE_BAD.sub("-", safe_text(title)).strip().strip("'") or "Planilha"
    base = base[:SHEET_TITLE_MAX]
    name, n = base, 1
    while name.casefold() in used:
        n += 1
        suffix = f" ({n})"
        name = base[: SHEET_TITLE_MAX - len(suffix)] + suffix
    used.add(name.casefold())
    return name


class _Styles:
    """The looks the rows use, registered once in the workbook's style table: their ids."""

    def __init__(self, ws: WriteOnlyWorksheet) -> None:
        def style(**attrs: object) -> int:
            c = WriteOnlyCell(ws)
            for name, value in attrs.items():
                setattr(c, name, value)
            return int(c.style_id)

        self.quoted = style(quotePrefix=True)
        self.date = style(number_format=DATE_FORMAT)
        self.datetime = style(number_format=DATETIME_FORMAT)
        self.decimal = style(number_format=DECIMAL_FORMAT)
        self.struck = style(font=Font(strike=True, color="808080"))


_MARKUP = re.compile(r"[&<>\r]")


def _text_xml(ref: str, value: str, style: int | None) -> str:
    text = value
    if _MARKUP.search(value):
        text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    space = ' xml:space="preserve"' if value != value.strip() else ""
    s = f' s="{style}"' if style is not None else ""
    return f'<c r="{ref}"{s} t="inlineStr"><is><t{space}>{text}</t></is></c>'


def _rows_xml(sheet: Sheet, styles: _Styles, first: int) -> tuple[str, list[float]]:
    """The table's rows as sheet XML (``<row>`` elements from row number ``first``), and the columns' widths that
    fit them (the longest value or header, in characters, within ``WIDTH_MIN``–``WIDTH_MAX``).

    Written here rather than cell by cell through openpyxl: a cell object per value and its serialisation cost
    about 15 µs a cell, and an event of 1,024 duplas is some 80,000 cells. Each value becomes the cell openpyxl
    would write for it (``t="inlineStr"`` text, numbers, dates as serial numbers with their format), so the file
    reads back the same (``tests/exports``)."""
    letters = [get_column_letter(i) for i in range(1, len(sheet.columns) + 1)]
    decimals = [c.decimal for c in sheet.columns]
    widest = [len(c.header) for c in sheet.columns]
    out: list[str] = []
    append = out.append
    for number, row in enumerate(sheet.rows, start=first):
        cells: list[str] = []
        add = cells.append
        for i, value in enumerate(row):
            if value is None or i >= len(letters):
                continue
            ref = f"{letters[i]}{number}"
            kind = type(value)
            if kind is str:
                assert isinstance(value, str)
                if not value:
                    continue
                value = safe_text(value)
                add(_text_xml(ref, value, styles.quoted if runs_as_formula(value) else None))
                width = len(value)
            elif kind is int or kind is bool:
                text = str(int(value))  # type: ignore[arg-type]
                add(f'<c r="{ref}"><v>{text}</v></c>')
                width = len(text)
            elif kind is float:
                assert isinstance(value, float)
                style = f' s="{styles.decimal}"' if decimals[i] else ""
                add(f'<c r="{ref}"{style}><v>{value!r}</v></c>')
                width = len(f"{value:.3f}") if decimals[i] else len(repr(value))
            elif kind is dt.datetime:
                assert isinstance(value, dt.datetime)
                serial = to_excel(value.replace(tzinfo=None))  # given in local time: Excel has no time zones
                add(f'<c r="{ref}" s="{styles.datetime}"><v>{serial!r}</v></c>')
                width = 16
            elif kind is dt.date:
                assert isinstance(value, dt.date)
                add(f'<c r="{ref}" s="{styles.date}"><v>{to_excel(value)!r}</v></c>')
                width = 10
            elif kind is Struck:
                assert isinstance(value, Struck)
                add(f'<c r="{ref}" s="{styles.struck}"><v>{value.value!r}</v></c>')
                width = len(str(value.value))
            else:
                text = safe_text(str(value))
                add(_text_xml(ref, text, None))
                width = len(text)
            if width > widest[i]:
                widest[i] = width
        append(f'<row r="{number}">{"".join(cells)}</row>')
    return "".join(out), [min(max(n + 2, WIDTH_MIN), WIDTH_MAX) for n in widest]


def _sheet_start(wb: Workbook, sheet: Sheet, used: set[str]) -> str:
    """Make the sheet in openpyxl (widths, frozen header, filter, the notes and the header row); its data rows'
    XML, to be put in after the header once the workbook is saved (``_rows_put``)."""
    ws = wb.create_sheet(title=sheet_title(sheet.title, used))
    head_row = len(sheet.notes) + 1
    rows, widths = _rows_xml(sheet, _Styles(ws), head_row + 1)
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = f"A{head_row + 1}"
    last = get_column_letter(max(1, len(sheet.columns)))
    ws.auto_filter.ref = f"A{head_row}:{last}{head_row + len(sheet.rows)}"
    note_font = Font(italic=True, color="606060")
    head_font, head_align = Font(bold=True), Alignment(vertical="top", wrap_text=True)
    for note in sheet.notes:
        c = WriteOnlyCell(ws, safe_text(note))
        c.font = note_font
        ws.append([c])
    header = []
    for column in sheet.columns:
        c = WriteOnlyCell(ws)
        c._value, c.data_type = safe_text(column.header), "s"  # text, whatever it starts with
        c.font, c.alignment = head_font, head_align
        header.append(c)
    ws.append(header)
    return rows


def _rows_put(data: bytes, rows: list[str]) -> bytes:
    """The saved workbook with each sheet's data rows after its header (sheet N is ``xl/worksheets/sheetN.xml``,
    in the order the sheets were made), and each sheet's dimension saying the whole table."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            match = _SHEET_PATH.fullmatch(info.filename)
            if match is not None and rows[int(match.group(1)) - 1]:
                xml = content.decode("utf-8")
                end = xml.rindex("</sheetData>")
                xml = xml[:end] + rows[int(match.group(1)) - 1] + xml[end:]
                content = xml.encode("utf-8")
            target.writestr(info.filename, content, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)
    return buffer.getvalue()


_SHEET_PATH = re.compile(r"xl/worksheets/sheet(\d+)\.xml")


def workbook_bytes(*, sheets: Iterable[Sheet], title: str = "") -> bytes:
    """The workbook of these sheets, in order (at least one: an empty workbook is not a valid file)."""
    wb = Workbook(write_only=True)
    wb.properties.creator = "Zap"
    wb.properties.title = safe_text(title)[:255]
    used: set[str] = set()
    rows = [_sheet_start(wb, sheet, used) for sheet in sheets]
    if not used:
        rows.append(_sheet_start(wb, Sheet(title="Planilha", columns=(Column(""),), rows=()), used))
    buffer = io.BytesIO()
    wb.save(buffer)
    return _rows_put(buffer.getvalue(), rows)


def xlsx_filename(*parts: str) -> str:
    """``aabb-2024-classificacao.xlsx``: the parts, each made file-name safe, joined by dashes."""
    from django.utils.text import slugify

    return "-".join(slugify(p) or "x" for p in parts if p) + ".xlsx"
