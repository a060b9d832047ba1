"""/ranking/ (the site-wide Nível of the atletas, with search and pages) and /atletas/<key>/ (an atleta's Nível and
history): public, names and results only (DOMAIN §7, INTERCHANGE "Circuits, atletas and rankings")."""

from django.http import Http404
from django.shortcuts import redirect, render

from tournaments import presenters
from tournaments.atletas.selectors import atleta_history, atleta_joined_into, atletas_apart, atletas_ranking
from tournaments.circuits.selectors import atleta_circuit_points
from tournaments.online.ranking import atleta_online
from tournaments.public.paging import page_link, page_number
from tournaments.web import read_only


@read_only
def ranking(request):
    q = request.GET.get("q") or ""
    page = atletas_ranking(q=q, page=page_number(request.GET.get("pagina")))
    links = {
        "prev_link": page_link(pagina=page.number - 1, q=page.query),
        "next_link": page_link(pagina=page.number + 1, q=page.query),
    }
    return render(request, "tournaments/ranking.html", {"page": page, **links})


@read_only
def atleta(request, key: str):
    history = atleta_history(key=key)
    if history is None:
        kept = atleta_joined_into(key=key)  # joined into another atleta on the desk: its page
        if kept is not None:
            return redirect("atleta", key=kept, permanent=True)
        raise Http404("atleta")
    points = atleta_circuit_points(atleta_key=key, tournament_ids=[e.tournament.pk for e in history.events])
    for event in history.events:
        event.circuit = points.get(event.tournament.pk)
        if event.jogos:  # each jogo's stage and round as people say them ("Quartas de final", "Grupo A · Rodada 2")
            place = presenters.jogo_place(event.state)
            for jogo in event.jogos:
                stage, group, round_title = place(jogo.row)
                jogo.stage = stage or jogo.stage
                jogo.round_title = " · ".join(p for p in (group, round_title) if p)
    apart = atletas_apart(atletas=[(history.atleta.key, history.atleta.name)]).get(history.atleta.key, "")
    online = atleta_online(atleta_id=history.atleta.pk)  # the linked account's online ranking (DOMAIN §9.5)
    return render(request, "tournaments/atleta.html", {"h": history, "apart": apart, "online": online})
