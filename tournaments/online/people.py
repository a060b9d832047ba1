"""Who plays online (DOMAIN §9.4, 004 "Jogadores"): a guest's or an account's profile, its display name and
its avatar from the site's own drawn set (no uploads, no photos), and the level it is shown with.

A guest picks a display name and an avatar and is shown as "Marreco" (004: "exibidos como Marreco, o nível
inicial temporário"); its profile is found again by a random key kept in the session (``guest_key``). An
account has one profile, made the first time it plays, that keeps its avatar. Part 3 (the online ranking)
gives accounts their level; until an account has a counted partida it is Marreco too (DOMAIN §7.2).
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from scoring.ranking import UNRANKED_LEVEL, player_level
from scoring.text import name_clean

from ..models import OnlineProfile
from ..refusals import Refused

__all__ = [
    "AVATARS",
    "NAME_MAX",
    "NAME_MIN",
    "avatar_check",
    "display_name_check",
    "profile_for_guest",
    "profile_for_user",
    "profile_label",
    "profile_level",
    "profile_update",
    "text_clean",
]

# The keys of the avatars drawn for the site (static/img/online/avatars/<key>.svg): Brazilian animals, the
# marreco (the guests' level) first.
AVATARS: tuple[str, ...] = (
    "marreco",
    "tatu",
    "capivara",
    "onca",
    "arara",
    "tucano",
    "jabuti",
    "boto",
    "mico",
    "lobo-guara",
    "quero-quero",
    "sagui",
)

NAME_MIN, NAME_MAX = 2, 30
# Besides letters, digits and spaces, the marks names are written with ("Zé-Maria", "D'Ávila", "Jr.").
_NAME_PUNCTUATION = frozenset("-'._")
# Names nobody may take: they would pass for the site speaking, for its staff or for a robot.
_RESERVED = frozenset(
    {"zap", "admin", "administrador", "administradora", "moderador", "moderadora", "equipe", "sistema", "robo"}
)
GUEST_KEY_BYTES = 24  # secrets.token_urlsafe: 32 characters (the column holds 64)

NAME_FIELD, AVATAR_FIELD = "display_name", "avatar"
MARKS_IN_A_ROW = 3  # combining marks kept after one character (more only pile up over the next lines)
_DROPPED = frozenset({"Cf", "Cs", "Co", "Cn"})  # format (bidi, zero width), surrogates, private use, unassigned
_AS_SPACE = frozenset({"Cc", "Zl", "Zp"})  # control characters (line breaks, tabs) and line separators
_ZWJ = "\u200d"  # kept: it joins emoji ("👩‍👩‍👧")


def text_clean(text: Any) -> str:
    """A text people write for others (a chat message, a report's reason) as it is kept and shown: composed (NFC); control characters and line breaks as spaces;
    format characters (bidi controls, zero-width spaces, the BOM), surrogates and private-use characters taken
    out; at most ``MARKS_IN_A_ROW`` combining marks on a character; one space between words."""
    if not isinstance(text, str):
        return ""
    kept: list[str] = []
    marks = 0
    for c in unicodedata.normalize("NFC", text):
        category = unicodedata.category(c)
        if category in _AS_SPACE:
            c = " "
        elif category in _DROPPED and c != _ZWJ:
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MARKS_IN_A_ROW:
                continue
        else:
            marks = 0
        kept.append(c)
    return " ".join("".join(kept).split())


def _plain(name: str) -> str:
    """``name`` without accents, case folded: how the reserved names are compared."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def display_name_check(value: Any) -> str:
    """A display name as it is kept (bidi controls out, one space between words, composed accents), or
    ``Refused.invalid`` saying why not (place ``display_name``): 2 to 30 characters, only letters, digits,
    spaces and ``- ' . _``, not a name that passes for the site, its staff or a robot."""
    if not isinstance(value, str):
        value = ""
    name = unicodedata.normalize("NFC", name_clean(value))

    def refuse(message: str) -> Refused:
        return Refused.invalid(message, problems=[RuleError(NAME_FIELD, message)])

    if len(name) < NAME_MIN:
        raise refuse(_("Escolha um nome de exibição com pelo menos %(n)d letras.") % {"n": NAME_MIN})
    if len(name) > NAME_MAX:
        raise refuse(_("O nome de exibição tem no máximo %(n)d caracteres.") % {"n": NAME_MAX})
    for c in name:
        if not (c == " " or c in _NAME_PUNCTUATION or unicodedata.category(c)[0] == "L" or c.isdecimal()):
            raise refuse(
                _("O nome de exibição aceita só letras, números, espaços e os sinais - ' . _ (não aceita “%(c)s”).")
                % {"c": c if c.isprintable() else f"U+{ord(c):04X}"}
            )
    if not any(unicodedata.category(c)[0] == "L" for c in name):
        raise refuse(_("O nome de exibição precisa ter pelo menos uma letra."))
    if _plain(name).replace(" ", "") in _RESERVED:
        raise refuse(_("Este nome é reservado. Escolha outro nome de exibição."))
    return name


def avatar_check(value: Any) -> str:
    """``value`` if it is one of ``AVATARS``; else ``Refused.invalid`` (place ``avatar``)."""
    if isinstance(value, str) and value in AVATARS:
        return value
    message = _("Escolha um dos avatares da lista.")
    raise Refused.invalid(message, problems=[RuleError(AVATAR_FIELD, message)])


def _checked(*, display_name: Any, avatar: Any) -> tuple[str, str]:
    """Both checked at once, so a form shows every problem (``Refused.invalid`` with each one)."""
    problems: list[RuleError] = []
    found: list[str] = []
    for check, value in ((display_name_check, display_name), (avatar_check, avatar)):
        try:
            found.append(check(value))
        except Refused as refused:
            problems.extend(RuleError(p.place, p.message) for p in refused.problems)
    if problems:
        raise Refused.invalid(*(p.message for p in problems), problems=problems)
    return found[0], found[1]


def _account_name(user: Any) -> str:
    """The display name an account starts with: its first name, else its username, made a valid name when it can
    be (characters a name does not take dropped); "Jogador" when nothing is left."""
    username = (user.get_username() or "").split("@")[0]  # an e-mail as the username: its part before the @
    for raw in (getattr(user, "first_name", "") or "", username):
        kept = "".join(
            c
            for c in unicodedata.normalize("NFC", name_clean(raw))
            if c == " " or c in _NAME_PUNCTUATION or unicodedata.category(c)[0] == "L" or c.isdecimal()
        )
        kept = " ".join(kept.split())[:NAME_MAX].strip()
        try:
            return display_name_check(kept)
        except Refused:
            continue
    return _("Jogador")


def profile_for_user(*, user: Any) -> OnlineProfile:
    """The account's profile, made the first time (its first name or username, an avatar of the set picked by
    its id). Two requests at once make one: the second finds the first's."""
    if user is None or not user.is_authenticated:
        raise Refused.forbidden(_("Entre com a sua conta para jogar com ela."))
    found = OnlineProfile.objects.filter(user=user).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return OnlineProfile.objects.create(
                user=user, display_name=_account_name(user), avatar=AVATARS[user.pk % len(AVATARS)]
            )
    except IntegrityError:  # made meanwhile by another request
        return OnlineProfile.objects.get(user=user)


def profile_for_guest(*, guest_key: str | None, display_name: str, avatar: str) -> OnlineProfile:
    """A guest's profile: the one kept under ``guest_key`` (the session's), given this name and avatar; a new one
    with a new random key when there is none (the caller keeps ``profile.guest_key`` in the session). The name
    and avatar are checked (``Refused.invalid`` with the problems at ``display_name`` and ``avatar``)."""
    name, picked = _checked(display_name=display_name, avatar=avatar)
    if guest_key:
        found = OnlineProfile.objects.filter(guest_key=guest_key[:64], user__isnull=True).first()
        if found is not None:
            if (found.display_name, found.avatar) != (name, picked):
                found.display_name, found.avatar = name, picked
                found.save(update_fields=["display_name", "avatar"])
            return found
    return OnlineProfile.objects.create(
        guest_key=secrets.token_urlsafe(GUEST_KEY_BYTES), display_name=name, avatar=picked
    )


def profile_update(*, profile: OnlineProfile, display_name: str, avatar: str) -> OnlineProfile:
    """A new display name and avatar for ``profile`` (a guest's or an account's), checked as a guest's."""
    name, picked = _checked(display_name=display_name, avatar=avatar)
    profile.display_name, profile.avatar = name, picked
    profile.save(update_fields=["display_name", "avatar"])
    return profile


def profile_level(profile: OnlineProfile, *, score: int | None = None) -> str:
    """The level ``profile`` is shown with: a guest is always "Marreco" (004); an account the level of its
    online ranking ``score`` (part 3), "Marreco" until it has one (DOMAIN §7.2, §9.5)."""
    if profile.user_id is None:
        return UNRANKED_LEVEL
    return player_level(score=score)


def profile_label(profile: OnlineProfile, *, score: int | None = None) -> str:
    """The display name with the level, as a seat or a chat line shows it: "Ana (Marreco)"."""
    return _("%(name)s (%(level)s)") % {"name": profile.display_name, "level": profile_level(profile, score=score)}
