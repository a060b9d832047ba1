"""`python manage.py staff_add SLUG USERNAME ROLE` exactly as docs/contrato.md says."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import StaffRole

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cup(load_file):
    return load_file(
        {
            "format": "truco-torneio",
            "version": 1,
            "tournament": {"name": "Copa do Comando", "slug": "copa-comando", "preset": "aabb"},
            "players": [],
            "duplas": [],
            "stages": [],
            "jogos": [],
        }
    )


def _run(*args, env_password=None, monkeypatch=None):
    if env_password is None:
        monkeypatch.delenv("ZAP_PASSWORD", raising=False)
    else:
        monkeypatch.setenv("ZAP_PASSWORD", env_password)
    out, err = io.StringIO(), io.StringIO()
    call_command("staff_add", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _role(cup, username):
    return StaffRole.objects.filter(tournament=cup, user__username=username).values_list("role", flat=True).first()


def test_creates_the_user_with_the_password_from_zap_password(cup, monkeypatch):
    out, _err = _run("copa-comando", "juiz1", "referee", env_password="Segredo-Forte-99", monkeypatch=monkeypatch)
    user = get_user_model().objects.get(username="juiz1")
    assert user.check_password("Segredo-Forte-99") and user.is_active
    assert _role(cup, "juiz1") == "referee"
    assert "Segredo-Forte-99" not in out  # a password the operator chose is never echoed


def test_without_zap_password_a_generated_password_is_printed_once(cup, monkeypatch):
    out, _err = _run("copa-comando", "org1", "organizer", monkeypatch=monkeypatch)
    lines = [line for line in out.splitlines() if "senha gerada" in line]
    assert len(lines) == 1
    password = lines[0].rsplit(": ", 1)[1].strip()
    assert len(password) >= 12 and out.count(password) == 1
    assert get_user_model().objects.get(username="org1").check_password(password)
    assert _role(cup, "org1") == "organizer"
    # again: the account exists, its password stays, nothing is printed about a password
    out, _err = _run("copa-comando", "org1", "organizer", monkeypatch=monkeypatch)
    assert "senha" not in out
    assert get_user_model().objects.get(username="org1").check_password(password)


def test_an_existing_user_gets_the_role_updated_and_keeps_the_password(cup, monkeypatch, django_user_model):
    django_user_model.objects.create_user("maria", password="senha-antiga-123")
    _run("copa-comando", "maria", "referee", env_password="outra-senha-456", monkeypatch=monkeypatch)
    assert _role(cup, "maria") == "referee"
    _run("copa-comando", "maria", "organizer", env_password="outra-senha-456", monkeypatch=monkeypatch)
    assert _role(cup, "maria") == "organizer"
    maria = get_user_model().objects.get(username="maria")
    assert maria.check_password("senha-antiga-123") and not maria.check_password("outra-senha-456")
    assert StaffRole.objects.filter(tournament=cup, user=maria).count() == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (("nao-existe", "ze", "referee"), "torneio 'nao-existe' não encontrado"),
        (("copa-comando", "ze", "boss"), "papel 'boss' desconhecido"),
        (("copa-comando", "zé com espaço", "referee"), "nome de usuário"),
    ],
)
def test_bad_input_is_an_error_and_writes_nothing(cup, monkeypatch, args, message):
    users = get_user_model().objects.count()
    with pytest.raises(CommandError, match=message):
        _run(*args, monkeypatch=monkeypatch)
    assert get_user_model().objects.count() == users and not StaffRole.objects.exists()


def test_the_last_organizer_cannot_be_demoted_from_the_command_line(cup, monkeypatch):
    _run("copa-comando", "chefe", "organizer", env_password="x-senha-123", monkeypatch=monkeypatch)
    with pytest.raises(CommandError, match="única pessoa da comissão organizadora"):
        _run("copa-comando", "chefe", "referee", monkeypatch=monkeypatch)
    assert _role(cup, "chefe") == "organizer"


def test_as_a_process_a_bad_slug_exits_non_zero_with_a_portuguese_message_on_stderr(tmp_path):
    env = {**os.environ, "ZAP_DEV": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'vazio.sqlite3'}"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "staff_add", "nada-aqui", "ze", "referee"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "torneio 'nada-aqui' não encontrado" in done.stderr and done.stdout == ""
    done = subprocess.run(
        [sys.executable, "manage.py", "staff_add", "nada-aqui", "ze", "chefe"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "papel 'chefe' desconhecido" in done.stderr
