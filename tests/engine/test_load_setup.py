"""``load_setup --engine`` (the event of load/engine_bench) and the engine benchmark's reading of the classificação:
the jogos left to play are where the bench expects them, the PINs work, and a counted result moves the group's
table the way the bench checks it (so a change of the page cannot make the bench pass or fail silently)."""

import importlib.machinery
import importlib.util
import json
from pathlib import Path

import pytest
from django.contrib.auth.hashers import check_password

from tournaments.management.commands.load_setup import _engine_setup
from tournaments.models import Dupla, Jogo

_LOADER = importlib.machinery.SourceFileLoader(
    "load_engine", str(Path(__file__).resolve().parents[2] / "load" / "engine_bench")
)
ENGINE = importlib.util.module_from_spec(importlib.util.spec_from_loader("load_engine", _LOADER))
_LOADER.exec_module(ENGINE)


@pytest.fixture
def setup(db):
    return _engine_setup(duplas=128, measured=2, writers=3)  # 32 groups of 4: two pages of 16


def test_the_jogos_left_to_play_are_the_measured_and_the_writers_ones(setup):
    jogos = Jogo.objects.filter(tournament__slug=setup["slug"])
    assert not jogos.filter(group__isnull=True).exists()  # no knockout jogo before the groups end
    scheduled = {j.key: j.group.key for j in jogos.filter(status=Jogo.SCHEDULED).select_related("group")}
    measured_groups = [m["group"] for m in setup["measured"]]
    writer_groups = [scheduled[keys[0]] for keys in setup["writers"]]
    assert measured_groups == ["A", "Q"] and [m["page"] for m in setup["measured"]] == [1, 2]
    assert len(setup["writers"]) == 3 and all(len(keys) == 2 for keys in setup["writers"])
    assert len(set(writer_groups)) == 3 and not set(writer_groups) & set(measured_groups)
    assert all({scheduled[k] for k in keys} == {scheduled[keys[0]]} for keys in setup["writers"])
    # two jogos to play in each of those groups, every other group jogo played
    assert sorted(scheduled.values()) == sorted((measured_groups + writer_groups) * 2)
    for m in setup["measured"]:
        assert scheduled[m["jogo"]] == m["group"]
        jogo = jogos.get(key=m["jogo"])
        assert set(m["pins"]) == {jogo.dupla_a.key, jogo.dupla_b.key}
        for key, pin in m["pins"].items():
            assert check_password(pin, Dupla.objects.get(tournament=jogo.tournament, key=key).pin_hash)


def test_a_counted_result_moves_the_group_table_as_the_bench_checks_it(client, setup):
    m = setup["measured"][1]
    page = f"{setup['standings']}?pagina={m['page']}"
    html = client.get(page).content.decode()
    assert f'id="{m["anchor"]}"' in html
    assert f'id="{setup["measured"][0]["anchor"]}"' not in html  # group A is on page 1
    before = ENGINE.group_section(html, m["anchor"], page)
    assert before == (4, 8)  # 4 of 6 jogos played: 8 jogos in the J column

    client.cookies["sessionid"] = setup["session"]  # the referee
    api = f"/api/v1/torneios/{setup['slug']}/jogos/{m['jogo']}/"
    response = client.post(api + "resultado/", {"id": "r1", **ENGINE.RESULT}, content_type="application/json")
    assert response.status_code == 200, response.content
    via = response.json()["via"]
    first, second = m["pins"].items()
    for dupla, pin in (first, second):
        response = client.post(
            api + "confirmacao/",
            {"dupla": dupla, "pin": pin, "via": via, "accept": True},
            content_type="application/json",
        )
        assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"
    assert ENGINE.group_section(client.get(page).content.decode(), m["anchor"], page) == (5, 10)
    with pytest.raises(ENGINE.Failed):
        ENGINE.group_section(html, "grupo-grupos-nenhum", page)


def test_the_writers_mao_sequence_plays_a_whole_jogo_through_the_api(client, setup):
    client.cookies["sessionid"] = setup["session"]
    key = setup["writers"][0][0]
    sequence = ENGINE.mao_sequence()
    for n, mao in enumerate(sequence):
        response = client.post(
            f"/api/v1/torneios/{setup['slug']}/jogos/{key}/maos/",
            json.dumps({"id": f"m{n}", **mao}),
            content_type="application/json",
        )
        assert response.status_code == 201, (n, response.content)
    assert response.json()["status"] == "awaiting_confirmation"
    assert len(sequence) > 40  # long enough to keep a writer busy
