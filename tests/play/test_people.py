"""Guests and accounts online (DOMAIN §9.4, 004 "Jogadores"): display names, avatars from the drawn set, the
Marreco level of guests."""

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from hypothesis import given
from hypothesis import strategies as st

from scoring.text import BIDI_CONTROLS
from tournaments.models import OnlineProfile
from tournaments.online import people
from tournaments.refusals import Refused


def _refusal(call, **kwargs) -> Refused:
    with pytest.raises(Refused) as caught:
        call(**kwargs)
    return caught.value


def test_avatars_are_the_drawn_set_marreco_first():
    assert people.AVATARS[0] == "marreco"
    assert len(set(people.AVATARS)) == len(people.AVATARS) == 12
    drawn = Path(settings.BASE_DIR) / "static" / "img" / "online" / "avatars"
    if drawn.is_dir():  # ART draws them: every key has its picture
        assert [k for k in people.AVATARS if not (drawn / f"{k}.svg").is_file()] == []


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Ana", "Ana"),
        ("  Zé   Maria ", "Zé Maria"),
        ("D'Ávila Jr.", "D'Ávila Jr."),
        ("jogador_99", "jogador_99"),
        ("Jo\u0301se", "Jóse"),  # a decomposed accent is composed
        ("Di\u202eego", "Diego"),  # a bidi override disappears
        ("\u2067Bia\u2069", "Bia"),
        ("x" * 30, "x" * 30),
    ],
)
def test_display_names_kept(typed, kept):
    assert people.display_name_check(typed) == kept


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "pelo menos 2"),
        ("A", "pelo menos 2"),
        ("\u202e\u202eA", "pelo menos 2"),  # bidi controls do not count
        ("x" * 31, "no máximo 30"),
        ("<b>Ana</b>", "não aceita “<”"),
        ("Ana\x00Bia", "não aceita “U+0000”"),
        ("Ana\nBia", None),  # a line break is white space: one space (kept: "Ana Bia")
        ("Ana🦆", "não aceita “🦆”"),
        ("1234", "pelo menos uma letra"),
        ("Admin", "reservado"),
        ("Robô", "reservado"),
        ("M o d e r a d o r", "reservado"),
        (None, "pelo menos 2"),
    ],
)
def test_display_names_refused_in_portuguese(typed, says):
    if says is None:
        assert people.display_name_check(typed) == "Ana Bia"
        return
    refused = _refusal(people.display_name_check, value=typed)
    assert refused.kind == Refused.INVALID
    assert says in refused.messages[0]
    assert [p.place for p in refused.problems] == ["display_name"]


@given(st.text(max_size=60))
def test_a_kept_name_is_always_plain(typed):
    try:
        name = people.display_name_check(typed)
    except Refused:
        return
    assert 2 <= len(name) <= 30
    assert not set(name) & BIDI_CONTROLS
    assert "<" not in name and ">" not in name and "&" not in name
    assert name == name.strip() and "  " not in name


@pytest.mark.django_db
def test_guest_profile_made_then_found_by_its_key():
    guest = people.profile_for_guest(guest_key=None, display_name=" Ana ", avatar="capivara")
    assert guest.is_guest and guest.display_name == "Ana" and guest.avatar == "capivara"
    assert guest.guest_key and len(guest.guest_key) >= 32
    again = people.profile_for_guest(guest_key=guest.guest_key, display_name="Ana Paula", avatar="tatu")
    assert again.pk == guest.pk
    guest.refresh_from_db()
    assert (guest.display_name, guest.avatar) == ("Ana Paula", "tatu")
    # an unknown key (another server's session lost, a forged cookie) makes a new profile with a new key
    other = people.profile_for_guest(guest_key="não-existe", display_name="Ana", avatar="tatu")
    assert other.pk != guest.pk and other.guest_key != "não-existe"


@pytest.mark.django_db
def test_a_guest_key_never_reaches_an_account_profile():
    user = User.objects.create_user("bruno", password="x")
    account = people.profile_for_user(user=user)
    OnlineProfile.objects.filter(pk=account.pk).update(guest_key="chave-da-conta")
    other = people.profile_for_guest(guest_key="chave-da-conta", display_name="Bruno", avatar="tatu")
    assert other.pk != account.pk and other.is_guest


@pytest.mark.django_db
def test_guest_refused_with_every_problem_and_nothing_stored():
    refused = _refusal(people.profile_for_guest, guest_key=None, display_name="<script>", avatar="foto.jpg")
    assert sorted(p.place for p in refused.problems) == ["avatar", "display_name"]
    assert "Escolha um dos avatares da lista." in refused.messages
    assert OnlineProfile.objects.count() == 0


@pytest.mark.django_db
def test_account_profile_made_once_with_a_valid_name():
    user = User.objects.create_user("carla.s@example.com", password="x", first_name="")
    profile = people.profile_for_user(user=user)
    assert profile.user_id == user.pk and not profile.is_guest
    assert profile.display_name == "carla.s"  # the e-mail's part before the @
    assert profile.avatar in people.AVATARS
    assert people.profile_for_user(user=user).pk == profile.pk
    assert OnlineProfile.objects.filter(user=user).count() == 1

    named = User.objects.create_user("d", password="x", first_name="Dora <Lia>")
    assert people.profile_for_user(user=named).display_name == "Dora Lia"
    nothing = User.objects.create_user("!!", password="x")
    assert people.profile_for_user(user=nothing).display_name == "Jogador"


@pytest.mark.django_db
def test_account_profile_needs_an_account():
    from django.contrib.auth.models import AnonymousUser

    assert _refusal(people.profile_for_user, user=AnonymousUser()).kind == Refused.FORBIDDEN


@pytest.mark.django_db
def test_profile_update_checks_like_a_guest():
    user = User.objects.create_user("eva", password="x")
    profile = people.profile_for_user(user=user)
    people.profile_update(profile=profile, display_name="Eva Lima", avatar="onca")
    profile.refresh_from_db()
    assert (profile.display_name, profile.avatar) == ("Eva Lima", "onca")
    _refusal(people.profile_update, profile=profile, display_name="Eva", avatar="selfie")
    profile.refresh_from_db()
    assert profile.avatar == "onca"


@pytest.mark.django_db
def test_guests_are_shown_as_marreco():
    guest = people.profile_for_guest(guest_key=None, display_name="Fábio", avatar="marreco")
    assert people.profile_level(guest) == "Marreco"
    assert people.profile_level(guest, score=990) == "Marreco"  # a guest has no ranking, whatever is passed
    assert people.profile_label(guest) == "Fábio (Marreco)"
    account = people.profile_for_user(user=User.objects.create_user("gil", password="x"))
    assert people.profile_level(account) == "Marreco"  # no counted partida yet (DOMAIN §7.2)
    assert people.profile_level(account, score=990) == "ZAP"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("oi\ntudo bem?", "oi tudo bem?"),
        ("a\u202eb\u200bc\ufeffd", "abcd"),
        ("\x00\x07sino", "sino"),
        ("<b>negrito</b>", "<b>negrito</b>"),  # kept as text: pages escape it
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # a joined emoji stays joined
        ("q" + "\u0301" * 40, "q" + "\u0301" * 3),  # combining marks do not pile up
        ("\ud800quebrado", "quebrado"),  # a lone surrogate (from JSON) would not even store
        ("\ue000privado", "privado"),
    ],
)
def test_text_clean(typed, kept):
    assert people.text_clean(typed) == kept
