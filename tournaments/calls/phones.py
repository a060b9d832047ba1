"""Brazilian phone numbers as WhatsApp's ``https://wa.me/<digits>`` wants them: country code 55, then the area
code and the number, digits only. No Django: pure text in, text (or None) out."""

from __future__ import annotations

import re
from urllib.parse import quote

_NOT_DIGITS = re.compile(r"\D")
COUNTRY = "55"


def phone_normalize(raw: str | None) -> str | None:
    """``raw`` (as the player typed it: "(19) 99876-5432", "+55 19 3234 5678") as WhatsApp digits, or None when
    it cannot be a Brazilian phone: 10 or 11 digits (area code + number) get 55 in front; 55 followed by 10 or
    11 digits is kept; a leading trunk 0 ("019…") is dropped. Anything else (too short, too long, a foreign
    code) is None: the desk says so rather than open a chat with a stranger."""
    if not raw:
        return None
    digits = _NOT_DIGITS.sub("", raw)
    if len(digits) in (11, 12) and digits.startswith("0") and not digits.startswith("00"):
        digits = digits[1:]  # "0 19 99876 5432": the trunk prefix of a long-distance call
    if len(digits) in (10, 11):
        national = digits
    elif len(digits) in (12, 13) and digits.startswith(COUNTRY):
        national = digits[2:]
    else:
        return None
    if national[0] == "0" or national[1] == "0":  # area codes run from 11 to 99
        return None
    if len(national) == 11 and national[2] != "9":  # an 11-digit number is a mobile: 9 after the area code
        return None
    return COUNTRY + national


def phone_is_mobile(digits: str) -> bool:
    """Whether ``digits`` (``phone_normalize``'s: 55, area code, number) is a mobile, the phones WhatsApp lives on:
    nine digits after the area code, starting with 9 (an eight-digit number starting with 6 to 9 is a mobile
    written before the ninth digit came). A landline (eight digits from 2 to 5) gets no WhatsApp button."""
    national = digits[len(COUNTRY) :]
    return len(national) == 11 or (len(national) == 10 and national[2] in "6789")


def whatsapp_url(*, phone: str, text: str) -> str:
    """The link that opens WhatsApp on ``phone`` (normalized digits) with ``text`` ready to send."""
    return f"https://wa.me/{phone}?text={quote(text, safe='')}"
