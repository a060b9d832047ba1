"""``tournaments/permissions.py`` is the one door for who may do what (docs/regras.md §8).

(a) No module outside it (models, admin and migrations aside) reads ``is_superuser`` / ``is_staff``, compares a
role or asks the database for one role; no template branches on a role or on ``is_superuser``.
(b) Its decisions, asked directly: the desk's rights, a role change by invitation, a dupla's private link, its
answer to a súmula, its PIN's locks.
"""

import ast
import datetime as dt
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.support.files import groups_file
from tournaments import permissions
from tournaments.models import Dupla, Jogo, PinFailure
from tournaments.permissions import (
    DeskRights,
    desk_rights,
    invitation_grants_role,
    is_organizer_role,
    is_referee_role,
    may_answer_sumula,
    may_open_private_link,
    may_try_pin,
    pin_rules,
)
from tournaments.staff.pins import pin_reset
from tournaments.staff.selectors import dupla_by_token
from tournaments.staff.services import role_grant
from tournaments.sumula.pins import TRIES, UNTIL_UNLOCKED, pin_locked, pin_unlock

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments"
TEMPLATES = ROOT / "templates"

ADMIN_FLAGS = {"is_superuser", "is_staff"}
ROLE_STRINGS = {"organizer", "referee"}
ROLE_NAMES = {"ORGANIZER", "REFEREE"}
QUERIES = {"filter", "exclude", "get", "get_or_create", "update_or_create"}


def _exempt(path: Path) -> bool:
    rel = path.relative_to(PACKAGE).as_posix()
    return rel == "permissions.py" or rel.startswith(("admin/", "migrations/", "models/"))


def _names_a_role(node: ast.AST, *, literal: bool) -> bool:
    """A role by its constant's name (ORGANIZER, StaffRole.REFEREE), as a literal ("organizer") when
    ``literal``, or in a tuple of them."""
    if isinstance(node, ast.Constant):
        return literal and node.value in ROLE_STRINGS
    if isinstance(node, ast.Name):
        return node.id in ROLE_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in ROLE_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_role(e, literal=literal) for e in node.elts)
    return False


def _holds_a_role(node: ast.AST) -> bool:
    """A value named for a role: ``role``, ``desk_role``, ``x.role``, ``row["role"]``, ``role_of(...)``."""
    if isinstance(node, ast.Name):
        return "role" in node.id.lower()
    if isinstance(node, ast.Attribute):
        return "role" in node.attr.lower()
    if isinstance(node, ast.Call):
        return _holds_a_role(node.func)
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and "role" in str(node.slice.value)
    return False


def _compares_a_role(node: ast.Compare) -> bool:
    """A role constant compared with anything; "organizer" / "referee" compared with a value named for a role
    (the same words are keys of a tournament file: ``"referee" in jogo``)."""
    operands = (node.left, *node.comparators)
    if any(_names_a_role(o, literal=False) for o in operands):
        return True
    return any(_names_a_role(o, literal=True) for o in operands) and any(_holds_a_role(o) for o in operands)


def python_leaks(source: str) -> list[str]:
    """Where ``source`` decides by itself who may do what: ``(line, what)`` texts."""
    out = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute) and node.attr in ADMIN_FLAGS and isinstance(node.ctx, ast.Load):
            out.append(f"{line}: reads .{node.attr}")
        elif isinstance(node, ast.Constant) and node.value in ADMIN_FLAGS:
            out.append(f"{line}: names {node.value!r}")  # getattr(user, "is_staff")
        elif isinstance(node, ast.keyword) and node.arg and any(f in node.arg for f in ADMIN_FLAGS):
            out.append(f"{line}: looks up {node.arg}=")
        elif isinstance(node, ast.Compare) and _compares_a_role(node):
            out.append(f"{line}: compares a role")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in QUERIES
            and any(k.arg and (k.arg == "role" or k.arg.startswith("role__")) for k in node.keywords)
        ):
            out.append(f"{line}: asks the database for a role")
    return out


IF_TAG = re.compile(r"{%-?\s*(?:if|elif)\b(.*?)-?%}", re.S)
# a role's variable (role, desk_role, p.role) or the organizer's literal; "referee" is also a tab's name (desk_tab)
ROLE_IN_TEMPLATE = re.compile(r"is_superuser|is_staff|\brole\b|\w_role\b|\.role\b|[\"']organizer[\"']")


def template_leaks(text: str) -> list[str]:
    return [m.group(0) for m in IF_TAG.finditer(text) if ROLE_IN_TEMPLATE.search(m.group(1))]


def test_the_detectors_find_what_they_look_for():
    assert python_leaks("x = user.is_superuser")
    assert python_leaks("ok = user.is_staff or False")
    assert python_leaks("getattr(user, 'is_staff')")
    assert python_leaks("User.objects.filter(is_superuser=True)")
    assert python_leaks("role == 'organizer'")
    assert python_leaks("role != ORGANIZER")
    assert python_leaks("role in (StaffRole.ORGANIZER, StaffRole.REFEREE)")
    assert python_leaks("StaffRole.objects.filter(tournament=t, role=ORGANIZER).exists()")
    assert not python_leaks("user.is_staff = True")  # a write (the demo accounts), not a decision
    assert not python_leaks("role_grant(tournament=t, user=u, role=REFEREE)")  # a role given, not a decision
    assert not python_leaks("if current.role == role: pass")  # the same role again (no role named)
    assert not python_leaks('if "referee" in jogo: pass')  # a key of a tournament file
    assert python_leaks('row["role"] != "organizer"')
    assert python_leaks('role_of(user=u, tournament=t) == "referee"')
    assert template_leaks('{% if desk_role == "organizer" %}')
    assert template_leaks("{% if p.role == 'organizer' %}")
    assert template_leaks("{% elif user.is_superuser %}")
    assert template_leaks("{% if s.role != 'referee' %}")
    assert not template_leaks('{% if desk_tab == "referee" %}{% url "referee:list" slug %}')
    assert not template_leaks("{% if desk_rights.may_organize %}")


def test_no_module_outside_permissions_decides_who_may_do_what():
    leaks = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not _exempt(path)
        for where in python_leaks(path.read_text(encoding="utf-8"))
    ]
    assert leaks == []


def test_no_template_branches_on_a_role():
    leaks = [
        f"{path.relative_to(ROOT)}: {tag}"
        for path in sorted(TEMPLATES.rglob("*"))
        if path.is_file() and path.suffix in (".html", ".txt", ".xml")
        for tag in template_leaks(path.read_text(encoding="utf-8"))
    ]
    assert leaks == []


# --- the decisions ---------------------------------------------------------------------------------------

NOW = dt.datetime(2026, 11, 28, 15, 0, tzinfo=dt.UTC)


def test_a_pin_may_be_tried_unless_a_lock_holds():
    assert may_try_pin(lock=None, now=NOW)
    assert not may_try_pin(lock=NOW + dt.timedelta(minutes=1), now=NOW)
    assert not may_try_pin(lock=NOW, now=NOW)  # a lock holds up to its end
    assert may_try_pin(lock=NOW - dt.timedelta(seconds=1), now=NOW)
    assert not may_try_pin(lock=UNTIL_UNLOCKED, now=NOW)  # until the referee unlocks it


def test_which_limits_judge_a_pin_from_each_source():
    public, screen = pin_rules(referee_screen=False), pin_rules(referee_screen=True)
    assert public.per_address and public.per_tournament and public.dupla_counts_public and not public.per_account
    # at the table: the staff account's tries only; a stranger's guesses do not lock the dupla out there
    assert screen.per_account and not (screen.per_address or screen.per_tournament or screen.dupla_counts_public)


def test_roles_and_invitations():
    assert is_organizer_role(role="organizer") and not is_organizer_role(role="referee")
    assert is_referee_role(role="referee") and not is_referee_role(role="organizer")
    assert not is_organizer_role(role=None) and not is_referee_role(role=None)
    assert invitation_grants_role(current=None, invited="referee")
    assert invitation_grants_role(current="referee", invited="organizer")  # moves up
    assert not invitation_grants_role(current="organizer", invited="referee")  # never down
    assert not invitation_grants_role(current="referee", invited="referee")


@pytest.fixture
def cup(load_file):
    return load_file(groups_file(slug="copa-porta"))


@pytest.mark.django_db
def test_desk_rights_by_role(cup):
    User = get_user_model()
    organizer, referee, stranger = (User.objects.create_user(n) for n in ("org", "juiz", "outro"))
    admin = User.objects.create_superuser("admin")
    role_grant(tournament=cup, user=organizer, role="organizer")
    role_grant(tournament=cup, user=referee, role="referee")
    assert desk_rights(user=organizer, tournament=cup) == DeskRights(
        may_organize=True, may_referee=True, may_pin_unlock=True, is_site_admin=False
    )
    assert desk_rights(user=referee, tournament=cup) == DeskRights(
        may_organize=False, may_referee=True, may_pin_unlock=True, is_site_admin=False
    )
    assert desk_rights(user=stranger, tournament=cup) == DeskRights(
        may_organize=False, may_referee=False, may_pin_unlock=False, is_site_admin=False
    )
    assert desk_rights(user=admin, tournament=cup) == DeskRights(
        may_organize=True, may_referee=True, may_pin_unlock=True, is_site_admin=True
    )
    admin.is_active = False
    assert not permissions.is_site_admin(user=admin)
    assert not permissions.is_site_admin(user=None)


@pytest.mark.django_db
def test_a_replaced_link_opens_nothing(cup):
    dupla = Dupla.objects.get(tournament=cup, key="d1")
    old = dupla.token
    assert may_open_private_link(dupla=dupla_by_token(token=old), token=old)
    pin_reset(tournament=cup, dupla=dupla, by=None)  # a new card: a new link
    dupla.refresh_from_db()
    assert dupla.token != old
    assert not may_open_private_link(dupla=dupla_by_token(token=old), token=old)
    assert not may_open_private_link(dupla=dupla, token=old)
    assert may_open_private_link(dupla=dupla_by_token(token=dupla.token), token=dupla.token)
    assert not may_open_private_link(dupla=None, token="")


@pytest.mark.django_db
def test_only_the_duplas_of_a_jogo_answer_its_sumula(cup):
    jogo = Jogo.objects.filter(tournament=cup).select_related("dupla_a", "dupla_b").order_by("id").first()
    assert may_answer_sumula(dupla=jogo.dupla_a, jogo=jogo) and may_answer_sumula(dupla=jogo.dupla_b, jogo=jogo)
    other = Dupla.objects.filter(tournament=cup).exclude(pk__in=(jogo.dupla_a_id, jogo.dupla_b_id)).first()
    assert not may_answer_sumula(dupla=other, jogo=jogo)


@pytest.mark.django_db
def test_a_locked_pin_until_the_referee_unlocks_it(cup):
    User = get_user_model()
    referee = User.objects.create_user("juiz")
    role_grant(tournament=cup, user=referee, role="referee")
    dupla = Dupla.objects.get(tournament=cup, key="d1")
    now = timezone.now()
    for i in range(TRIES):
        PinFailure.objects.create(dupla=dupla, at=now - dt.timedelta(seconds=TRIES - i), address="203.0.113.9")
    assert pin_locked(dupla=dupla)
    assert permissions.may_pin_unlock(user=referee, tournament=cup)
    pin_unlock(tournament=cup, dupla=dupla, by=referee)
    assert not pin_locked(dupla=dupla)
