"""How a sheet leaves the site: a PDF response with its file name, or the reason it cannot be made."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify


def pdf_filename(*parts: str) -> str:
    """``aabb-2024-chave.pdf``: the parts, each made file-name safe, joined by dashes."""
    return "-".join(slugify(p) or "x" for p in parts if p) + ".pdf"


def pdf_response(data: bytes, *, filename: str) -> HttpResponse:
    """The PDF shown in the browser (its reader prints it), saved under ``filename`` when downloaded."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(False, filename)
    response["Content-Length"] = str(len(data))
    response["X-Content-Type-Options"] = "nosniff"
    return response


def print_error(request, message: str, *, back_url: str = "", status: int = 400) -> HttpResponse:
    """A request for a sheet that names nothing printable: what is wrong, in words, and a way back."""
    return render(request, "printing/error.html", {"message": message, "back_url": back_url}, status=status)
