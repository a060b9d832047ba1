"""The circuit desk (/organizar/circuitos/…, DOMAIN §7.3 and §8): create from each template, the rules with the
points table's problems shown per key, etapas (only one's own tournaments; weight, final, retirar), exclusions
and their effect on the ranking, the sorteio of a tie at the qualification line, the audit, and who gets 404."""

import pytest
from django.test import Client

from tests.circuits.support import etapa_file
from tests.support.desk import client_for, make_tournament, make_user
from tournaments.circuits.selectors import circuit_standing
from tournaments.circuits.services import TEMPLATES, circuit_create, circuit_etapa_attach
from tournaments.models import Circuit, CircuitAudit, CircuitEtapa, CircuitExclusion, Player, StaffRole

pytestmark = pytest.mark.django_db

HOME = "/organizar/circuitos/"


def desk(circuit: Circuit, part: str = "") -> str:
    return f"{HOME}{circuit.slug}/{part}"


@pytest.fixture
def etapas(load_file):
    # etapa 1: d1 1st, d2 2nd, d3 3rd, d4 4th; etapa 2: d2 1st, d1 2nd, d4 3rd, d3 4th
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    two = load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    return one, two


@pytest.fixture
def organizer(etapas):
    user = make_user("org", etapas[0])
    StaffRole.objects.create(tournament=etapas[1], user=user, role=StaffRole.ORGANIZER)
    return user


@pytest.fixture
def circuit(organizer):
    return circuit_create(user=organizer, name="Liga de Teste", slug="liga-teste", template=Circuit.LIGA)


def atleta_key(tournament, player_key: str) -> str:
    return Player.objects.get(tournament=tournament, key=player_key).atleta.key


# --- the list and a new circuit ---------------------------------------------------------------------------------


@pytest.mark.parametrize("template", [Circuit.LIGA, Circuit.FINAL])
def test_create_from_each_template_with_the_address_from_the_name(organizer, template):
    c = client_for(organizer)
    page = c.get(HOME)
    assert page.status_code == 200 and "Novo circuito" in page.content.decode()
    response = c.post(HOME, {"name": "Liga Paulista 2026", "slug": "", "template": template})
    assert response.status_code == 302 and response["Location"] == "/organizar/circuitos/liga-paulista-2026/"
    made = Circuit.objects.get(slug="liga-paulista-2026")
    assert made.template == template and made.created_by == organizer
    for field, value in TEMPLATES[template].items():
        assert getattr(made, field) == value
    assert CircuitAudit.objects.filter(circuit=made, action="create", user=organizer).count() == 1
    listed = c.get(HOME).content.decode()
    assert "Liga Paulista 2026" in listed
    # the desk's home links the circuits
    assert 'href="/organizar/circuitos/"' in c.get("/organizar/").content.decode()


def test_a_bad_or_taken_address_is_shown_next_to_its_field(organizer, circuit):
    c = client_for(organizer)
    response = c.post(HOME, {"name": "Outra liga", "slug": "Outra Liga!", "template": Circuit.LIGA})
    assert response.status_code == 200
    assert "use só letras sem acento" in " ".join(response.context["form"].errors["slug"])
    response = c.post(HOME, {"name": "Outra liga", "slug": "liga-teste", "template": Circuit.LIGA})
    assert "já existe um circuito com o endereço liga-teste" in " ".join(response.context["form"].errors["slug"])
    assert Circuit.objects.count() == 1
    # a blank address made from a taken name gets the next free one
    response = c.post(HOME, {"name": "Liga Teste", "slug": "", "template": Circuit.FINAL})
    assert response["Location"] == "/organizar/circuitos/liga-teste-2/"


def test_who_may_not_create_gets_a_clear_page(db):
    assert Client().get(HOME)["Location"].startswith("/entrar/")
    nobody = make_user("ninguem")
    c = client_for(nobody)
    page = c.get(HOME)
    assert page.status_code == 403 and "Você não pode criar um circuito aqui" in page.content.decode()
    assert c.post(HOME, {"name": "X", "slug": "x", "template": Circuit.LIGA}).status_code == 403
    assert not Circuit.objects.exists()


def test_every_post_needs_the_csrf_token(organizer, circuit):
    c = Client(enforce_csrf_checks=True)
    c.force_login(organizer)
    assert c.post(HOME, {"name": "X", "slug": "x", "template": Circuit.LIGA}).status_code == 403
    assert c.post(desk(circuit, "etapas/"), {"etapa-tournament": "etapa-1", "etapa-weight": 1}).status_code == 403
    assert not CircuitEtapa.objects.exists()


# --- who sees a circuit's desk -------------------------------------------------------------------------------------


def test_another_user_gets_404_and_a_superuser_the_desk(organizer, circuit, etapas):
    other = make_user("outro", etapas[0])  # even an organizer of its etapas
    c = client_for(other)
    assert c.get(desk(circuit)).status_code == 404
    assert c.post(desk(circuit, "etapas/"), {"etapa-tournament": "etapa-1", "etapa-weight": 1}).status_code == 404
    assert c.post(desk(circuit, "sorteio/"), {"line": "qualified"}).status_code == 404
    assert circuit.slug not in c.get(HOME).content.decode()
    assert Client().get(desk(circuit))["Location"].startswith("/entrar/")
    admin = make_user("admin")
    admin.is_superuser = True
    admin.save()
    assert client_for(admin).get(desk(circuit)).status_code == 200
    assert "Liga de Teste" in client_for(admin).get(HOME).content.decode()


# --- the rules -------------------------------------------------------------------------------------------------------


def rules_post(**changes):
    data = {
        "name": "Liga de Teste",
        "key_0": "1",
        "points_0": "100",
        "key_1": "2",
        "points_1": "75",
        "key_2": "3-4",
        "points_2": "50",
        "key_3": "",
        "points_3": "",
        "others": "5",
        "count_best": "",
        "qualify_top": "",
        "qualify_min_etapas": "0",
        "qualify_alternates": "0",
    }
    data.update(changes)
    return data


def test_the_points_table_errors_are_shown_per_key_and_nothing_is_saved(organizer, circuit):
    c = client_for(organizer)
    before = dict(circuit.points)
    response = c.post(
        desk(circuit),
        rules_post(key_2="5-8", key_3="x", points_3="10", key_4="9", points_4="muitos", others="-1", count_best="0"),
    )
    assert response.status_code == 200
    errors = response.context["rules"].errors
    assert "faltam os pontos do 3-4º lugar" in errors["key_2"][0]  # the gap, on the row of 5-8
    assert "a chave deve ser uma colocação" in errors["key_3"][0]
    assert "os pontos devem ser um número inteiro" in errors["points_4"][0]  # the value, next to it
    assert "os pontos devem ser um número inteiro" in errors["others"][0]
    assert "count_best" in errors
    html = response.content.decode()
    assert "faltam os pontos do 3-4º lugar" in html and 'value="muitos"' in html  # what was typed stays
    circuit.refresh_from_db()
    assert circuit.points == before
    assert not CircuitAudit.objects.filter(circuit=circuit, action="settings").exists()


def test_a_place_twice_or_points_without_a_place_are_refused(organizer, circuit):
    response = client_for(organizer).post(desk(circuit), rules_post(key_3="2", points_3="70", key_4="", points_4="9"))
    errors = response.context["rules"].errors
    assert "aparece em mais de uma linha" in errors["key_3"][0]
    assert "diga a colocação" in errors["key_4"][0]


def test_the_rules_are_saved_and_audited(organizer, circuit):
    c = client_for(organizer)
    response = c.post(
        desk(circuit),
        rules_post(
            name="Liga Renomeada", count_best="3", qualify_top="8", qualify_min_etapas="1", qualify_alternates="2"
        ),
    )
    assert response.status_code == 302 and response["Location"].endswith("#regras")
    circuit.refresh_from_db()
    assert circuit.name == "Liga Renomeada"
    assert circuit.points == {"1": 100, "2": 75, "3-4": 50, "others": 5}
    assert (circuit.count_best, circuit.qualify_top, circuit.qualify_min_etapas, circuit.qualify_alternates) == (
        3,
        8,
        1,
        2,
    )
    audit = CircuitAudit.objects.get(circuit=circuit, action="settings")
    assert audit.user == organizer and audit.after["count_best"] == 3
    page = c.get(desk(circuit)).content.decode()
    assert 'value="3-4"' in page and "regras do circuito alteradas" in page  # the table and the history
    # "todas": best N left blank
    c.post(desk(circuit), rules_post(count_best=""))
    circuit.refresh_from_db()
    assert circuit.count_best is None


# --- etapas ------------------------------------------------------------------------------------------------------------


def test_only_own_free_tournaments_are_offered_and_attached(organizer, circuit, etapas):
    theirs = make_tournament("alheio", date=None)
    make_user("dono", theirs)
    refereed = make_tournament("arbitrado")
    StaffRole.objects.create(tournament=refereed, user=organizer, role=StaffRole.REFEREE)
    c = client_for(organizer)
    choices = [v for v, _label in c.get(desk(circuit)).context["attach"].fields["tournament"].choices]
    assert choices == ["", "etapa-2", "etapa-1"]
    response = c.post(desk(circuit, "etapas/"), {"etapa-tournament": "alheio", "etapa-weight": "1"})
    assert response.status_code == 200
    message = response.context["attach"].errors["tournament"][0]
    assert "você só pode incluir torneios que você organiza" in message
    assert message in response.content.decode()
    response = c.post(desk(circuit, "etapas/"), {"etapa-tournament": "arbitrado", "etapa-weight": "1"})
    assert "você só pode incluir torneios que você organiza" in response.context["attach"].errors["tournament"][0]
    assert not CircuitEtapa.objects.exists()

    response = c.post(desk(circuit, "etapas/"), {"etapa-tournament": "etapa-1", "etapa-weight": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#etapas")
    assert list(CircuitEtapa.objects.values_list("tournament__slug", flat=True)) == ["etapa-1"]
    assert CircuitAudit.objects.filter(circuit=circuit, action="etapa_attach", user=organizer).exists()
    page = c.get(desk(circuit))
    assert [v for v, _label in page.context["attach"].fields["tournament"].choices] == ["", "etapa-2"]
    # a tournament in another circuit is not offered, and refused when posted
    other = circuit_create(user=organizer, name="Outra", slug="outra", template=Circuit.LIGA)
    response = c.post(desk(other, "etapas/"), {"etapa-tournament": "etapa-1", "etapa-weight": "1"})
    assert "já é etapa do circuito Liga de Teste" in response.context["attach"].errors["tournament"][0]


def test_weight_and_final_are_edited_and_an_etapa_retired(organizer, circuit, etapas):
    one, two = etapas
    first = circuit_etapa_attach(circuit=circuit, user=organizer, tournament=one)
    second = circuit_etapa_attach(circuit=circuit, user=organizer, tournament=two)
    c = client_for(organizer)
    page = c.get(desk(circuit)).content.decode()
    assert page.index("Etapa etapa-1") < page.index("Etapa etapa-2")  # calendar order
    p1 = atleta_key(one, "p1")
    assert next(r for r in circuit_standing(circuit=circuit).rows if r.key == p1).points == 175

    response = c.post(desk(circuit, f"etapas/{second.pk}/"), {f"e{second.pk}-weight": "2", f"e{second.pk}-final": "on"})
    assert response.status_code == 302
    second.refresh_from_db()
    assert (second.weight, second.final) == (2, True)
    circuit.refresh_from_db()
    assert next(r for r in circuit_standing(circuit=circuit).rows if r.key == p1).points == 100 + 75 * 2
    assert CircuitAudit.objects.filter(circuit=circuit, action="etapa_set").count() == 1

    response = c.post(desk(circuit, f"etapas/{second.pk}/"), {f"e{second.pk}-weight": "0"})
    assert response.status_code == 200 and response.context["etapa_rows"][1][1].errors["weight"]
    second.refresh_from_db()
    assert second.weight == 2

    assert c.post(desk(circuit, f"etapas/{first.pk}/retirar/")).status_code == 302
    assert list(circuit.etapas.values_list("tournament__slug", flat=True)) == ["etapa-2"]
    circuit.refresh_from_db()
    assert next(r for r in circuit_standing(circuit=circuit).rows if r.key == p1).points == 75 * 2
    assert CircuitAudit.objects.filter(circuit=circuit, action="etapa_detach", user=organizer).exists()
    # an etapa of another circuit is not reached through this one
    other = circuit_create(user=organizer, name="Outra", slug="outra", template=Circuit.LIGA)
    assert c.post(desk(other, f"etapas/{second.pk}/retirar/")).status_code == 404
    assert c.get(desk(circuit, f"etapas/{second.pk}/retirar/")).status_code == 405


# --- exclusions and the sorteio ---------------------------------------------------------------------------------------


def test_an_exclusion_takes_the_atleta_out_of_the_ranking_and_is_undone(organizer, circuit, etapas):
    one, two = etapas
    circuit_etapa_attach(circuit=circuit, user=organizer, tournament=one)
    circuit_etapa_attach(circuit=circuit, user=organizer, tournament=two)
    p5 = atleta_key(one, "p5")
    c = client_for(organizer)
    response = c.post(desk(circuit, "exclusoes/"), {"exclusao-atleta": p5, "exclusao-reason": "  "})
    assert response.status_code == 200 and response.context["exclude"].errors["reason"]
    response = c.post(desk(circuit, "exclusoes/"), {"exclusao-atleta": p5, "exclusao-reason": "Conduta antidesportiva"})
    assert response.status_code == 302
    circuit.refresh_from_db()
    assert p5 not in {r.key for r in circuit_standing(circuit=circuit).rows}
    assert CircuitExclusion.objects.get(circuit=circuit).reason == "Conduta antidesportiva"
    page = c.get(desk(circuit))
    assert "Conduta antidesportiva" in page.content.decode()
    assert p5 not in dict(page.context["exclude"].fields["atleta"].choices)
    assert c.post(desk(circuit, f"exclusoes/{p5}/desfazer/")).status_code == 302
    circuit.refresh_from_db()
    assert p5 in {r.key for r in circuit_standing(circuit=circuit).rows}
    actions = list(CircuitAudit.objects.filter(circuit=circuit, user=organizer).values_list("action", flat=True))
    assert "exclude" in actions and "include" in actions


def test_the_sorteio_settles_a_tie_at_the_qualification_line(organizer, circuit, etapas):
    one, two = etapas
    circuit_etapa_attach(circuit=circuit, user=organizer, tournament=one)
    circuit_etapa_attach(circuit=circuit, user=organizer, tournament=two)
    c = client_for(organizer)
    c.post(
        desk(circuit),
        rules_post(key_2="3", points_2="60", key_3="4", points_3="50", qualify_top="2", qualify_alternates="2"),
    )
    circuit.refresh_from_db()
    # p1, p2, p3, p4 all have 175 points (one 1st and one 2nd each): a tie of four across the line at 2
    tied = [r for r in circuit_standing(circuit=circuit).rows if r.qualify == "tied"]
    assert len(tied) == 4 and {r.tied_line for r in tied} == {"qualified"}
    page = c.get(desk(circuit))
    (tie,) = page.context["ties"]
    assert "Sortear" in page.content.decode()
    # a stale page (another tie) draws nothing
    response = c.post(desk(circuit, "sorteio/"), {"line": "qualified", "atletas": tie["keys"].split(",", 1)[1]})
    assert "o empate mudou" in response.content.decode()
    assert not circuit.sorteios.exists()

    response = c.post(desk(circuit, "sorteio/"), {"line": "qualified", "atletas": tie["keys"]})
    assert response.status_code == 302 and response["Location"].endswith("#sorteio")
    circuit.refresh_from_db()
    states = {r.key: r.qualify for r in circuit_standing(circuit=circuit).rows if r.key in {x.key for x in tied}}
    assert sorted(states.values()) == ["alternate", "alternate", "qualified", "qualified"]
    (sorteio,) = circuit.sorteios.all()
    assert sorted(sorteio.atletas) == sorted(tie["keys"].split(","))
    assert [states[k] for k in sorteio.atletas] == ["qualified", "qualified", "alternate", "alternate"]
    audit = CircuitAudit.objects.get(circuit=circuit, action="sorteio")
    assert audit.user == organizer and audit.after == {"atletas": sorteio.atletas}
    assert tied[0].name in audit.summary  # the history names the atletas
    page = c.get(desk(circuit))
    assert not page.context["ties"]
    (made,) = page.context["sorteios"]
    assert made.user == "org" and len(made.atletas) == 4
    # nothing tied any more: a second draw is refused
    response = c.post(desk(circuit, "sorteio/"), {"line": "qualified", "atletas": tie["keys"]})
    assert "não há empate" in response.content.decode() and circuit.sorteios.count() == 1


# --- every circuit desk URL, walked ---------------------------------------------------------------------------------


def circuit_urls(circuit: Circuit) -> list[str]:
    """Every /organizar/circuitos/<slug>/… address of the circuit (its etapa, an atleta), from the resolver."""
    from django.urls import URLPattern, reverse

    from tournaments.desk import circuit_urls as urls

    etapa = circuit.etapas.first()
    out = []
    for pattern in urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        converters = pattern.pattern.converters
        if "slug" not in converters:
            continue
        kwargs = {"slug": circuit.slug, "etapa_id": etapa.pk if etapa else 1, "key": "a1"}
        out.append(reverse(f"desk:{pattern.name}", kwargs={k: v for k, v in kwargs.items() if k in converters}))
    return out


@pytest.mark.parametrize("who", ["anonymous", "stranger", "etapa_organizer"])
def test_nobody_but_its_organizer_changes_a_circuit(organizer, circuit, etapas, who):
    one, _two = etapas
    circuit_etapa_attach(circuit=circuit, user=organizer, tournament=one)
    urls = circuit_urls(circuit)
    assert len(urls) == 9  # with the season's page and its closing (test_archive.py)
    client = Client()
    if who == "stranger":
        client.force_login(make_user("estranho"))
    elif who == "etapa_organizer":
        client.force_login(make_user("coorganizador", one))
    version = Circuit.objects.get(pk=circuit.pk).version
    audits = CircuitAudit.objects.count()
    payload = {"name": "Invasão", "etapa-tournament": "etapa-2", "etapa-weight": "3", "line": "qualified"}
    payload["confirm"] = "on"  # the season's closing asks for it
    for url in urls:
        for response in (client.get(url), client.post(url, payload)):
            if who == "anonymous":
                assert response.status_code == 302 and response["Location"].startswith("/entrar/?next="), url
            else:
                assert response.status_code == 404, (url, response.status_code)
    assert Circuit.objects.get(pk=circuit.pk).version == version and CircuitAudit.objects.count() == audits


def test_no_tournament_takes_the_circuit_desk_address(db):
    from tournaments.services import slug_make

    assert slug_make(name="Circuitos") == "circuitos-2"
    assert slug_make(name="Copa", wanted="circuitos") == "copa"
    assert slug_make(name="Novo") == "novo-2"
