"""Reading the site's spreadsheets back as a spreadsheet program would: openpyxl opens the file whole (a broken
file fails here), and the checks every export shares (the header frozen and bold, no formula anywhere, no private
data)."""

from __future__ import annotations

import io
import re
import zipfile

from openpyxl import load_workbook
from openpyxl.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def workbook(body: bytes) -> Workbook:
    assert body[:2] == b"PK", "not a zip file"
    return load_workbook(io.BytesIO(body))


def values(ws: Worksheet, *, start: int = 1) -> list[list]:
    """The sheet's rows from row ``start``, as values (trailing empty cells kept as None)."""
    return [list(row) for row in ws.iter_rows(min_row=start, values_only=True)]


def header_row(ws: Worksheet) -> int:
    """The header's row: the one the frozen pane starts under."""
    assert ws.freeze_panes, f"{ws.title}: no frozen header"
    return int(re.fullmatch(r"A(\d+)", ws.freeze_panes).group(1)) - 1


def table(ws: Worksheet) -> tuple[list[str], list[list]]:
    """(header, rows) of a sheet, checking what every sheet's header must be: frozen, bold, under a filter."""
    head = header_row(ws)
    header = [c.value for c in ws[head]]
    assert all(isinstance(h, str) and h for h in header), header
    assert all(c.font.b for c in ws[head]), f"{ws.title}: header not bold"
    assert ws.auto_filter.ref and ws.auto_filter.ref.startswith(f"A{head}:"), ws.auto_filter.ref
    return header, values(ws, start=head + 1)


def records(ws: Worksheet) -> list[dict]:
    header, rows = table(ws)
    return [dict(zip(header, row, strict=False)) for row in rows]


def sheet_xml(body: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(body)) as z:
        return {n: z.read(n).decode("utf-8") for n in z.namelist() if n.startswith("xl/worksheets/sheet")}


def assert_no_formula(body: bytes) -> None:
    """No cell of any sheet is a formula (``<f>``), and no cell reads back as one."""
    for name, xml in sheet_xml(body).items():
        assert not re.search(r"<f[ >/]", xml), f"{name}: a formula"
    wb = workbook(body)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{ws.title}!{cell.coordinate}: {cell.value!r}"


def all_text(body: bytes) -> str:
    """Every cell's value as text, and the sheets' raw XML: what a search for private data reads."""
    wb = workbook(body)
    parts = []
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            parts += [str(v) for v in row if v is not None]
    return "\n".join(parts) + "\n" + "\n".join(sheet_xml(body).values())


def widths_fit(ws: Worksheet, *, header: int) -> None:
    """Each column is at least as wide as its header and its longest value (up to the cap of 60)."""
    for column in ws.iter_cols(min_row=header):
        letter = column[0].column_letter
        longest = max((len(str(c.value)) for c in column if c.value is not None and not c.is_date), default=0)
        width = ws.column_dimensions[letter].width
        assert width >= min(longest, 58), (ws.title, letter, width, longest)
