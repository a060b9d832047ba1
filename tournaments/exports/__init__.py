"""Spreadsheets (XLSX) of events, circuits and the registration list (issue 45): ``xlsx`` writes any table as a
workbook (real types, a frozen bold header, widths that fit, no cell a spreadsheet would run as a formula), and one
module per export says what goes in it from the values the site already computes (no query of its own beyond
them). Public exports carry public data only: names, keys, places, scores and points."""
