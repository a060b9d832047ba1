"""/organizar/<slug>/sorteios/…, duplas, mesas and programação: pairing and competition draws, tables, schedule."""

from django.urls import path

from . import calls, draws_competition, draws_duplas, draws_pairing, draws_schedule

urlpatterns = [
    path("<slug:slug>/duplas/", draws_duplas.duplas, name="duplas"),
    path("<slug:slug>/duplas/trocar/", draws_duplas.duplas_swap, name="duplas_swap"),
    path("<slug:slug>/duplas/nova/", draws_duplas.dupla_add, name="dupla_add"),
    path("<slug:slug>/duplas/<int:dupla>/editar/", draws_duplas.dupla_edit, name="dupla_edit"),
    path("<slug:slug>/duplas/<int:dupla>/desclassificar/", draws_duplas.dupla_disqualify, name="dupla_disqualify"),
    path("<slug:slug>/sorteios/duplas/", draws_pairing.pairing, name="pairing"),
    path("<slug:slug>/sorteios/duplas/desfazer/", draws_pairing.pairing_undo, name="pairing_undo"),
    path("<slug:slug>/sorteios/competicao/", draws_competition.competition, name="competition"),
    path("<slug:slug>/sorteios/competicao/refazer/", draws_competition.competition_undo, name="competition_undo"),
    path("<slug:slug>/sorteios/desempate/", draws_competition.tiebreak, name="tiebreak"),
    path("<slug:slug>/mesas/", draws_schedule.mesas, name="mesas"),
    path("<slug:slug>/programacao/", draws_schedule.schedule, name="schedule"),
    path("<slug:slug>/programacao/<int:jogo>/arbitro/", draws_schedule.jogo_referee, name="jogo_referee"),
    path("<slug:slug>/programacao/<int:jogo>/online/", draws_schedule.jogo_online, name="jogo_online"),
    path("<slug:slug>/programacao/horario/", draws_schedule.round_time, name="round_time"),
    path("<slug:slug>/chamadas/", calls.calls, name="calls"),
    path("<slug:slug>/chamadas/rodada/", calls.round_call, name="round_call"),
    path("<slug:slug>/chamadas/<int:jogo>/", calls.jogo_call, name="jogo_call"),
    path("<slug:slug>/chamadas/<int:jogo>/whatsapp/", calls.whatsapp, name="call_whatsapp"),
]
