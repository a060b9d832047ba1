#!/usr/bin/env python
"""Build the two demo tournament files kept in the repo (docs/contrato.md format).

    .venv/bin/python demo/build_demo.py

writes ``demo/aabb-2024.json`` and ``demo/fenacef-2023.json``. The output is
deterministic: every random choice comes from ``random.Random`` with a fixed
seed, and the draws, brackets and standings are computed with ``scoring`` (the
same rules the importer uses), so the files import cleanly and the results
are the ones the site will show. The builder also checks what each demo is
meant to show (a head-to-head tie, a sorteio, a walkover, medals…) and stops
with an error if a change breaks it.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring import draws as draw_rules  # noqa: E402
from scoring.jogo import JogoEntry, PartidaEntry, jogo_evaluate  # noqa: E402
from scoring.partida import MAO_DE_FERRO, MAO_DE_ONZE, Mao, mao_gain, situation  # noqa: E402
from scoring.rules import RuleSettings, settings_build, wins_needed  # noqa: E402
from scoring.tournament import (  # noqa: E402
    GROUPS,
    KNOCKOUT,
    PREVIOUS,
    DuplaInfo,
    GroupSpec,
    JogoRecord,
    StageSpec,
    knockout_draw,
    knockout_stage_compute,
    stage_entrants,
    tournament_compute,
)

DEMO_DIR = Path(__file__).resolve().parent

PENALTY_REASONS = ("falou durante a rodada", "mostrou as cartas ao parceiro", "jogou fora da vez")


# --- partidas and mãos ---------------------------------------------------------------


def _mao_record(m: dict) -> Mao:
    return Mao(to=m.get("to"), points=m.get("points"), how=m.get("how", "played"), reason=m.get("reason", ""))


def _next_mao(rng: random.Random, score: tuple[int, int], fav: int, p: float) -> dict:
    """One plausible mão at ``score``; ``fav`` wins a hand with probability ``p``."""
    w = fav if rng.random() < p else 1 - fav
    kind = situation(score)
    if kind == MAO_DE_FERRO:  # 11 x 11: no decision, no truco
        return {"to": w, "points": 1}
    if kind == MAO_DE_ONZE:
        on_eleven = 0 if score[0] == 11 else 1
        if rng.random() < 0.45:  # saw the cards and turned the mão down
            return {"to": 1 - on_eleven, "points": 1, "how": "refused"}
        if rng.random() < 0.02:  # three tied rounds: the other dupla gets 3
            return {"to": None}
        return {"to": on_eleven if rng.random() < 0.5 else 1 - on_eleven, "points": 3}
    r = rng.random()
    if r < 0.03:
        return {"to": None}  # three tied rounds
    if r < 0.04:
        return {"to": w, "points": 1, "how": "penalty", "reason": rng.choice(PENALTY_REASONS)}
    ladder = (1, 3, 6, 9, 12)
    # truco is called more often near the end, when 3 points close the partida
    raise_chance = (0.75 if max(score) >= 9 else 0.5 if max(score) >= 7 else 0.35, 0.3, 0.2, 0.12)
    level = 0
    while level < 4 and rng.random() < raise_chance[level]:
        raiser = w if rng.random() < 0.7 else 1 - w
        if rng.random() < 0.3:  # the other dupla runs: the raiser takes the value before the raise
            return {"to": raiser, "points": ladder[level], "how": "ran"}
        level += 1
    return {"to": w, "points": ladder[level]}


def partida_simulate(
    rng: random.Random, settings: RuleSettings, fav: int, p: float = 0.54
) -> tuple[list[dict], tuple[int, int]]:
    """A whole partida mão by mão; every mão is checked with the rules engine."""
    score = (0, 0)
    maos: list[dict] = []
    while max(score) < 12:
        m = _next_mao(rng, score, fav, p)
        gain, problem = mao_gain(score=score, mao=_mao_record(m), settings=settings)
        if problem:  # cannot happen with the generator above; keep the builder honest
            raise AssertionError(f"mão inválida em {score}: {m} ({problem})")
        maos.append(m)
        score = (score[0] + gain[0], score[1] + gain[1])
    return maos, score


def partida_won_by(
    rng: random.Random, settings: RuleSettings, winner: int, target: tuple[int, int] | None = None
) -> tuple[list[dict], tuple[int, int]]:
    """A partida that ``winner`` (0/1) wins, ending exactly at ``target`` when given."""
    for _ in range(200_000):
        maos, score = partida_simulate(rng, settings, winner)
        won = 0 if score[0] > score[1] else 1
        if won == winner and (target is None or score == target):
            return maos, score
    raise AssertionError(f"nenhuma sequência de mãos encontrada para {target}")


class Builder:
    """Collects the jogos of one file and keeps the records ``scoring`` needs."""

    def __init__(self, *, settings: RuleSettings, seed: int):
        self.settings = settings
        self.rng = random.Random(seed)
        self.jogos: list[dict] = []
        self.records: list[JogoRecord] = []

    def partida(self, winner: int, *, maos: bool, target: tuple[int, int] | None = None):
        """One partida won by ``winner`` (0/1): a mão list or a final score, ending at ``target`` if given."""
        if maos:
            seq, score = partida_won_by(self.rng, self.settings, winner, target)
            return {"maos": seq}, score
        if target is not None:
            return list(target), target
        _, score = partida_won_by(self.rng, self.settings, winner)
        return list(score), score

    def jogo(
        self,
        *,
        stage: str,
        duplas: tuple[str, str],
        partidas: list,
        group: str | None = None,
        walkover: str | None = None,
        slot=None,
    ) -> JogoRecord:
        row: dict = {"stage": stage}
        if group is not None:
            row["group"] = group
        row["duplas"] = list(duplas)
        if walkover is not None:
            row["walkover"] = walkover
        else:
            row["partidas"] = partidas
        best_of = slot.best_of if slot is not None else 3
        entry = entry_from_row(row, best_of)
        result, problems = jogo_evaluate(entry=entry, settings=self.settings)
        if problems or not result.finished:
            raise AssertionError(f"jogo inválido {duplas}: {[str(p) for p in problems]}")
        self.jogos.append(row)
        record = JogoRecord(
            stage=stage,
            group=group,
            duplas=duplas,
            result=result,
            round=slot.round if slot is not None else None,
            position=slot.position if slot is not None else None,
            third_place=slot.third_place if slot is not None else False,
        )
        self.records.append(record)
        return record

    def series(
        self, *, duplas: tuple[str, str], best_of: int, p_first: float, maos_chance: float, force_maos: bool = False
    ) -> list:
        """Partidas until one dupla wins ⌈N/2⌉; the first dupla wins a partida with ``p_first``."""
        need = wins_needed(best_of)
        won = [0, 0]
        partidas = []
        while max(won) < need:
            winner = 0 if self.rng.random() < p_first else 1
            use_maos = force_maos or self.rng.random() < maos_chance
            p, _ = self.partida(winner, maos=use_maos)
            partidas.append(p)
            won[winner] += 1
        return partidas

    def outcome(self, *, winner: int, loser_wins: int, best_of: int, maos_chance: float) -> list:
        """Partidas of a jogo won by ``winner`` (0/1) conceding ``loser_wins`` partidas."""
        need = wins_needed(best_of)
        order = [winner] * (need - 1) + [1 - winner] * loser_wins
        self.rng.shuffle(order)
        order.append(winner)  # the winner always takes the last partida
        return [self.partida(w, maos=self.rng.random() < maos_chance)[0] for w in order]


def entry_from_row(row: dict, best_of: int) -> JogoEntry:
    duplas = row["duplas"]
    if "walkover" in row:
        w = row["walkover"]
        return JogoEntry(best_of=best_of, walkover="both" if w == "both" else duplas.index(w))
    out = []
    for p in row["partidas"]:
        if isinstance(p, list):
            out.append(PartidaEntry(score=(p[0], p[1])))
        else:
            out.append(PartidaEntry(maos=tuple(_mao_record(m) for m in p["maos"])))
    return JogoEntry(best_of=best_of, partidas=tuple(out))


def win_chance(strength: dict[str, float], a: str, b: str) -> float:
    """Chance that ``a`` wins a partida against ``b``."""
    return 1 / (1 + math.exp(-0.6 * (strength[a] - strength[b])))


def knockout_play(
    b: Builder, *, spec: StageSpec, order: list, strength: dict[str, float], maos_chance: float, maos_rounds: set[int]
) -> None:
    """Play every jogo the bracket produces, round by round (third place before the final)."""
    while True:
        view = knockout_stage_compute(stage=spec, order=order, jogos=b.records, settings=b.settings)
        ready = [s for s in view.bracket.jogos() if s.ready]
        if not ready:
            assert view.bracket.finished, "a chave parou antes do fim"
            return
        first_round = min(s.round for s in ready)
        for slot in sorted((s for s in ready if s.round == first_round), key=lambda s: (not s.third_place, s.position)):
            a, c = slot.duplas
            partidas = b.series(
                duplas=(a, c),
                best_of=slot.best_of,
                p_first=win_chance(strength, a, c),
                maos_chance=maos_chance,
                force_maos=slot.round in maos_rounds,
            )
            b.jogo(stage=spec.key, duplas=(a, c), partidas=partidas, slot=slot)


# --- output --------------------------------------------------------------------------


def _dumps(value, indent: int = 0, width: int = 110) -> str:
    """JSON with small objects and lists on one line (a mão per line, a jogo per few lines)."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _dumps(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def write(name: str, data: dict) -> Path:
    path = DEMO_DIR / name
    path.write_text(_dumps(data) + "\n", encoding="utf-8")
    return path


def age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def birth_dates(rng: random.Random, n: int, *, day: dt.date, youngest: int, oldest: int) -> list[str]:
    out = []
    for _ in range(n):
        age = rng.randint(youngest, oldest)
        birth = dt.date(day.year - age - 1, 1, 1) + dt.timedelta(days=rng.randint(0, 364))
        assert age_on(birth, day) >= youngest
        out.append(birth.isoformat())
    return out


def features_check(data: dict, settings: RuleSettings, name: str) -> None:
    """The mão-by-mão súmulas show every kind of entry (docs/regras.md §3)."""
    seen = set()
    for jogo in data["jogos"]:
        for p in jogo.get("partidas", []):
            if not isinstance(p, dict):
                continue
            score = (0, 0)
            for m in p["maos"]:
                kind = situation(score)
                how = m.get("how", "played")
                if m["to"] is None:
                    seen.add("tied")
                elif how in ("ran", "refused", "penalty"):
                    seen.add(how)
                    if how == "penalty" and m["reason"] == "falou durante a rodada":
                        seen.add("falou")
                elif kind == MAO_DE_ONZE:
                    seen.add("onze_accepted")
                elif kind == MAO_DE_FERRO:
                    seen.add("ferro")
                elif m["points"] >= 6:
                    seen.add("big")
                gain, problem = mao_gain(score=score, mao=_mao_record(m), settings=settings)
                assert problem is None, problem
                score = (score[0] + gain[0], score[1] + gain[1])
    wanted = {"tied", "ran", "refused", "penalty", "falou", "onze_accepted", "big"}
    missing = wanted - seen
    assert not missing, f"{name}: faltam mãos do tipo {missing}"


# --- Olimpíada AABB-SP 2024 ------------------------------------------------------------

AABB_NAMES = [
    "José Carlos Pereira",
    "Maria Aparecida Santos",
    "Antônio Marcos Oliveira",
    "Luiz Fernando Ribeiro",
    "Sebastião Rodrigues",
    "Ana Lúcia Ferreira",
    "João Batista Almeida",
    "Benedito Gonçalves",
    "Cláudia Regina Barbosa",
    "Márcio Aurélio Costa",
    "Raimundo Nonato Silva",
    "Francisco de Assis Lima",
    "Rosângela Moreira",
    "Paulo Sérgio Cardoso",
    "Edson Araújo",
    "Vânia Cristina Teixeira",
    "Reginaldo Souza",
    "Joaquim Mendes",
    "Sônia Maria Carvalho",
    "Aparecido Donizete Rocha",
    "Fábio Henrique Martins",
    "Luciana Gomes",
    "Gérson Nogueira",
    "Valdir Fagundes",
    "Conceição Dias",
    "Rogério Camargo",
    "Patrícia Andrade",
    "Wellington Júnior Prado",
    "Tatiane Vieira",
    "Osvaldo Bueno",
    "Juliana Bragança",
    "Célio Ramos",
    "Irene Figueiredo",
    "Moacir Tavares",
    "Thiago Assunção",
]

AABB_REGULATION = """Olimpíada Recreativa da AABB-SP 2024 - Regulamento Específico Truco
Art. 1º Categoria única mista, a partir de 18 anos.
Art. 2º Limite de 16 duplas.
Art. 3º Inscrições individuais ou em dupla; as inscrições individuais formam duplas por sorteio.
Art. 4º Eliminatória simples, jogos definidos por sorteio após a confirmação das duplas; melhor de 5 partidas na primeira fase e melhor de 3 nas demais.
Art. 5º Regras da Federação Paulista de Truco (truco paulista, manilha variável, baralho sujo).
Art. 6º Reclamações são decididas pelo árbitro; cabe recurso à Comissão Organizadora.
Art. 7º Medalhas para os atletas das três primeiras colocações (disputa de 3º lugar).
Art. 8º Casos omissos são resolvidos pela Comissão Organizadora."""


def build_aabb() -> dict:
    day = dt.date(2024, 4, 27)
    settings, _ = settings_build(preset="aabb", overrides={"third_place": "match"})
    rng = random.Random(20240427)
    keys = [f"p{i}" for i in range(1, len(AABB_NAMES) + 1)]
    births = birth_dates(rng, len(keys), day=day, youngest=18, oldest=71)
    births[28] = "2006-02-11"  # Tatiane Vieira: 18 years old on the day (the category's minimum)
    players = [{"key": k, "name": n, "birth_date": b} for k, n, b in zip(keys, AABB_NAMES, births, strict=False)]

    # 32 registrations in order of arrival: 3 pairs and 29 individuals; the last 3 individuals
    # arrive after the 16 duplas are full and stay on the waiting list.
    pair_at = {3: ("p4", "p5"), 10: ("p12", "p13"), 19: ("p22", "p23")}
    registrations, used, k = [], set(), 0
    for index in range(32):
        if index in pair_at:
            registrations.append({"players": list(pair_at[index])})
            used.update(pair_at[index])
            continue
        while keys[k] in used:
            k += 1
        registrations.append({"players": [keys[k]]})
        used.add(keys[k])
    assert sum(len(r["players"]) for r in registrations) == len(keys) == 35

    pairing_seed = 2704
    pairing = draw_rules.pairing_draw(
        registrations=[r["players"] for r in registrations], seed=pairing_seed, max_duplas=16
    )
    assert len(pairing.duplas) == 16 and pairing.waiting_list == ("p33", "p34", "p35"), pairing.waiting_list
    duplas = [DuplaInfo(key=f"r{n}", players=tuple(pair)) for n, pair in enumerate(pairing.duplas, start=1)]
    keys16 = [d.key for d in duplas]

    spec = StageSpec(
        key="eliminatoria",
        kind=KNOCKOUT,
        best_of=3,
        best_of_rounds={1: 5},
        entrants=tuple(keys16),
        draw_method="random",
        draw_seed=1400,
    )
    order, problems = knockout_draw(stage=spec, entrants=[(d, None) for d in keys16], duplas={d.key: d for d in duplas})
    assert not problems

    strength = {d: rng.gauss(0, 1) for d in keys16}
    b = Builder(settings=settings, seed=427)
    knockout_play(b, spec=spec, order=order, strength=strength, maos_chance=0.2, maos_rounds={4})
    # the showcase súmula: the first partida of the first jogo, written mão by mão by the referee
    first = b.jogos[0]
    first["partidas"][0] = showcase_partida(winner=first_partida_winner(first, settings))

    data = {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Olimpíada AABB-SP 2024 - Truco",
            "slug": "aabb-2024",
            "date": day.isoformat(),
            "start_time": "14:00",
            "venue": "Bar Classe A",
            "city": "São Paulo/SP",
            "category": "Mista, a partir de 18 anos",
            "min_age": 18,
            "max_duplas": 16,
            "preset": "aabb",
            "settings": {"mao_de_onze_tie": "opponent", "mao_de_ferro_value": 1, "third_place": "match"},
            "regulation": AABB_REGULATION,
        },
        "players": players,
        "registrations": registrations,
        "pairing": {"seed": pairing_seed},
        "stages": [
            {
                "key": "eliminatoria",
                "kind": "knockout",
                "best_of": 3,
                "best_of_rounds": {"1": 5},
                "entrants": keys16,
                "draw": {"method": "random", "seed": 1400},
            }
        ],
        "jogos": b.jogos,
    }
    verify_aabb(data, settings, duplas, spec, order)
    features_check(data, settings, "aabb")
    return data


def first_partida_winner(row: dict, settings: RuleSettings) -> int:
    p = row["partidas"][0]
    if isinstance(p, list):
        return 0 if p[0] > p[1] else 1
    score = (0, 0)
    for m in p["maos"]:
        gain, _ = mao_gain(score=score, mao=_mao_record(m), settings=settings)
        score = (score[0] + gain[0], score[1] + gain[1])
    return 0 if score[0] > score[1] else 1


def showcase_partida(*, winner: int) -> dict:
    """A hand-written súmula: truco, a run, a tied mão, a 6, a penalty, mão de onze refused, mão de ferro."""
    w, l = winner, 1 - winner
    maos = [
        {"to": w, "points": 1},  # 1 x 0
        {"to": l, "points": 3},  # truco aceito: 1 x 3
        {"to": w, "points": 1, "how": "ran"},  # correram do truco: 2 x 3
        {"to": None},  # três rodadas empatadas
        {"to": w, "points": 6},  # pediu seis, aceito: 8 x 3
        {"to": l, "points": 3, "how": "ran"},  # correram do seis: 8 x 6
        {"to": l, "points": 1},  # 8 x 7
        {"to": w, "points": 1, "how": "penalty", "reason": "falou durante a rodada"},  # 9 x 7
        {"to": l, "points": 3},  # 9 x 10
        {"to": w, "points": 1},  # 10 x 10
        {"to": l, "points": 1},  # 10 x 11: mão de onze
        {"to": w, "points": 1, "how": "refused"},  # recusada: 11 x 11
        {"to": w, "points": 1},  # mão de ferro: 12 x 11
    ]
    return {"maos": maos}


def showcase_partida_onze(*, winner: int) -> dict:
    """A hand-written súmula: a run from 6, a penalty, a tied mão de onze (+3 to the other dupla), one accepted."""
    w, l = winner, 1 - winner
    maos = [
        {"to": l, "points": 1},  # 0 x 1
        {"to": w, "points": 3},  # truco aceito: 3 x 1
        {"to": w, "points": 1},  # 4 x 1
        {"to": l, "points": 3, "how": "ran"},  # correram do seis: 4 x 4
        {"to": None},  # três rodadas empatadas
        {"to": l, "points": 1, "how": "penalty", "reason": "falou durante a rodada"},  # 4 x 5
        {"to": w, "points": 6},  # seis aceito: 10 x 5
        {"to": l, "points": 1},  # 10 x 6
        {"to": w, "points": 1},  # 11 x 6: mão de onze
        {"to": None},  # empatada na mão de onze: +3 à outra (Art. 21)
        {"to": w, "points": 3},  # mão de onze aceita e vencida: 14 x 9
    ]
    return {"maos": maos}


def verify_aabb(data: dict, settings: RuleSettings, duplas: list[DuplaInfo], spec: StageSpec, order: list) -> None:
    # replay the file in order against the bracket, as the importer does
    records: list[JogoRecord] = []
    for row in data["jogos"]:
        view = knockout_stage_compute(stage=spec, order=order, jogos=records, settings=settings)
        slot = next(s for s in view.bracket.jogos() if s.ready and list(s.duplas) == row["duplas"])
        result, problems = jogo_evaluate(entry=entry_from_row(row, slot.best_of), settings=settings)
        assert not problems and result.finished
        records.append(
            JogoRecord(
                stage=spec.key,
                duplas=tuple(row["duplas"]),
                result=result,
                round=slot.round,
                position=slot.position,
                third_place=slot.third_place,
            )
        )
    view = tournament_compute(settings=settings, duplas=duplas, stages=[spec], jogos=records)
    assert view.finished
    bracket = view.stages[0].bracket
    assert len(bracket.rounds) == 4 and bracket.third_place.decided
    medals = [c.medal for c in view.classification if c.medal]
    assert medals == ["gold", "silver", "bronze"], medals


# --- XII Jogos FENACEF 2023 -------------------------------------------------------------

FENACEF_NAMES = [
    "Adalberto Cunha",
    "Lúcia Helena Pacheco",
    "Élcio Magalhães",
    "Marlene Queiroz",
    "Geraldo Magela Coutinho",
    "Iolanda Brandão",
    "Sérgio Luís Fontes",
    "Rita de Cássia Monteiro",
    "Jurandir Peixoto",
    "Neusa Aparecida Lopes",
    "Wagner Antunes",
    "Márcia Valéria Duarte",
    "Ênio Batista Freitas",
    "Cícero Romão Bezerra",
    "Ivone Sampaio",
    "Otávio Sá Leitão",
    "Heloísa Marinho",
    "Djalma Rezende",
    "Vera Lúcia Siqueira",
    "Ademir Custódio",
    "Nélson Guimarães",
    "Terezinha de Jesus Morais",
    "Jailson Barros",
    "Solange Medeiros",
    "Ubiratan Lacerda",
    "Cristiane Falcão",
    "Hélio Xavier",
    "Elaine Cordeiro",
    "Raul Pimentel",
    "Zuleica Amaral",
    "Manoel Messias Farias",
    "Dalva Nascimento",
    "Gilberto Vasconcelos",
    "Edileuza Matos",
    "Cássio Borges",
    "Ivanildo Meireles",
]

FENACEF_DUPLA_NAMES = {
    "d1": "Os Zapeiros",
    "d2": "Dupla Espadilha",
    "d3": "Pica-Fumo FC",
    "d5": "Copeta de Ouro",
    "d6": "Manilha Velha",
    "d8": "Truco na Veia",
    "d11": "Os Cangueiros",
    "d12": "Seis Pra Mim",
    "d13": "Mão de Ferro",
    "d15": "Zap & Copas",
    "d17": "Bate na Mesa",
    "d18": "Os Sem-Manilha",
}
FENACEF_SEEDS = {"d1": 1, "d6": 2, "d11": 3, "d15": 4}
FENACEF_GROUPS = {
    "A": ["d1", "d2", "d3", "d4", "d5"],
    "B": ["d6", "d7", "d8", "d9", "d10"],
    "C": ["d11", "d12", "d13", "d14"],
    "D": ["d15", "d16", "d17", "d18"],
}

# Group A: d2 and d3 finish level on points (6) and partidas vencidas (5); d2 won their jogo,
# so confronto direto puts d2 second (qualified) and d3 third.
# Group C: d11 -> d12 -> d13 -> d11 all 2 x 1 and each beats d14 2 x 0: 6 points, 5 partidas,
# 3 points in the mini-table and saldo +11 for all three, so a sorteio decides the places.
# Scores are written from the winner's side: (winner, loser, [(winner pts, loser pts), ...]).
FIXED_RESULTS = {
    "A": [
        ("d1", "d2", [(12, 9), (7, 12), (13, 11)]),
        ("d1", "d3", [(12, 4), (12, 10)]),
        ("d1", "d4", [(12, 6), (15, 8)]),
        ("d1", "d5", [(12, 7), (12, 9)]),
        ("d2", "d3", [(12, 10), (9, 12), (12, 8)]),
        ("d2", "d4", [(12, 3), (12, 7)]),
        ("d5", "d2", [(12, 11), (12, 10)]),
        ("d3", "d4", [(12, 8), (12, 5)]),
        ("d3", "d5", [(12, 6), (10, 12), (12, 9)]),
        ("d4", "d5", [(12, 10), (8, 12), (13, 11)]),
    ],
    "C": [
        ("d11", "d12", [(12, 9), (10, 12), (13, 11)]),
        ("d12", "d13", [(12, 7), (8, 12), (12, 10)]),
        ("d13", "d11", [(12, 6), (11, 13), (12, 10)]),
        ("d11", "d14", [(12, 7), (12, 3)]),
        ("d12", "d14", [(12, 8), (12, 5)]),
        ("d13", "d14", [(12, 9), (12, 7)]),
    ],
}
SORTEIO_C = ["d13", "d11", "d12"]
# Groups B and D: who won each jogo and how (scores drawn at random). In B, d6 beats d7 but d7
# goes first on partidas vencidas (8 points each, 7 partidas to 6).
OUTCOMES = {
    "B": [
        ("d6", "d7", 1),
        ("d6", "d8", 0),
        ("d9", "d6", 0),
        ("d6", "d10", 0),
        ("d7", "d10", 0),
        ("d7", "d8", 1),
        ("d7", "d9", 1),
        ("d9", "d8", 1),
        ("d10", "d9", 1),
        ("d8", "d10", 0),
    ],
    "D": [("d15", "d16", 1), ("d15", "d17", 0), ("d15", "d18", 0), ("d16", "d17", 1), ("d17", "d18", 1)],
}
WALKOVER_D = ("d16", "d18")  # (present, absent): Os Sem-Manilha did not show up for round 1

FENACEF_REGULATION = """XII Jogos FENACEF 2023 - Regulamento Técnico de Truco (resumo)
Art. 4º Fase classificatória em grupos (jogos em melhor de 3 partidas) e fase eliminatória simples (melhor de 5).
Vitória por 2 x 0: 3 pontos classificatórios; vitória por 2 x 1: 2 pontos ao vencedor e 1 ao perdedor.
Art. 5º WO: 3 pontos para a dupla presente e 0 para a ausente.
Art. 6º Classificam-se as 2 melhores duplas de cada grupo. Desempate no grupo: partidas vencidas, confronto direto, saldo de pontos-partida, sorteio. Entre grupos de tamanhos diferentes: average de pontos-partida, sorteio.
Art. 7º Classificação geral pelo avanço na fase eliminatória; empates (e o 3º lugar) pelo average.
Art. 8º-9º Baralho sujo, manilhas fixas: zap (4 de paus), copeta (7 de copas), espadilha (ás de espadas), pica-fumo (7 de ouros).
Art. 21 Mão de onze: a dupla com 11 vê as cartas e decide; três rodadas empatadas dão 3 pontos à adversária."""


def build_fenacef() -> dict:
    day = dt.date(2023, 10, 14)
    settings, _ = settings_build(preset="fenacef")
    rng = random.Random(20231014)
    keys = [f"p{i}" for i in range(1, len(FENACEF_NAMES) + 1)]
    births = birth_dates(rng, len(keys), day=day, youngest=24, oldest=72)
    players = [{"key": k, "name": n, "birth_date": bd} for k, n, bd in zip(keys, FENACEF_NAMES, births, strict=False)]
    duplas_rows, infos = [], []
    for n in range(1, 19):
        key = f"d{n}"
        members = [keys[2 * n - 2], keys[2 * n - 1]]
        row = {"key": key, "players": members}
        if key in FENACEF_DUPLA_NAMES:
            row["name"] = FENACEF_DUPLA_NAMES[key]
        if key in FENACEF_SEEDS:
            row["seed"] = FENACEF_SEEDS[key]
        duplas_rows.append(row)
        infos.append(DuplaInfo(key=key, players=tuple(members), name=row.get("name", ""), seed=row.get("seed")))

    # how strong each dupla plays in the knockout (the group results are written above)
    strength = {d.key: rng.gauss(0, 1) for d in infos}
    strength |= {
        "d1": 1.5,
        "d2": 0.7,
        "d3": 0.6,
        "d6": 1.4,
        "d7": 0.6,
        "d8": 0.3,
        "d9": -0.4,
        "d10": -1.1,
        "d11": 0.9,
        "d12": 0.5,
        "d13": 0.8,
        "d15": 1.1,
        "d16": 0.5,
        "d17": -0.2,
        "d18": -0.9,
    }

    b = Builder(settings=settings, seed=1014)
    for group, members in FENACEF_GROUPS.items():
        fixed = {frozenset((w, l)): (w, l, sc) for w, l, sc in FIXED_RESULTS.get(group, [])}
        for pairs in draw_rules.round_robin(duplas=members):  # in the order of the schedule
            for a, c in pairs:
                if group == "D" and {a, c} == set(WALKOVER_D):
                    b.jogo(stage="classificatoria", group=group, duplas=(a, c), partidas=[], walkover=WALKOVER_D[1])
                    continue
                if frozenset((a, c)) in fixed:
                    w, _, scores = fixed[frozenset((a, c))]
                    partidas = []
                    use_maos = b.rng.random() < 0.35
                    for ws, ls in scores:
                        side = 0 if (ws > ls) == (w == a) else 1
                        target = (ws, ls) if w == a else (ls, ws)
                        maos_ok = use_maos and max(target) <= 15
                        p, _ = b.partida(side, maos=maos_ok, target=target)
                        partidas.append(p)
                else:
                    w, _, loser_wins = next(o for o in OUTCOMES[group] if {o[0], o[1]} == {a, c})
                    partidas = b.outcome(winner=0 if w == a else 1, loser_wins=loser_wins, best_of=3, maos_chance=0.25)
                b.jogo(stage="classificatoria", group=group, duplas=(a, c), partidas=partidas)

    groups_spec = StageSpec(
        key="classificatoria",
        kind=GROUPS,
        best_of=3,
        groups=tuple(GroupSpec(key=g, duplas=tuple(m)) for g, m in FENACEF_GROUPS.items()),
        per_group=2,
        sorteios=(("C", tuple(SORTEIO_C)),),
    )
    ko_spec = StageSpec(key="eliminatoria", kind=KNOCKOUT, best_of=5, entrants=PREVIOUS, draw_method="seeded")
    view = tournament_compute(settings=settings, duplas=infos, stages=[groups_spec, ko_spec], jogos=b.records)
    entrants = stage_entrants(stage=ko_spec, previous=view.stages[0])
    assert entrants is not None and len(entrants) == 8
    order, problems = knockout_draw(stage=ko_spec, entrants=entrants, duplas={d.key: d for d in infos})
    assert not problems
    knockout_play(b, spec=ko_spec, order=order, strength=strength, maos_chance=0.15, maos_rounds={3})
    final = b.jogos[-1]
    final["partidas"][0] = showcase_partida_onze(winner=first_partida_winner(final, settings))

    data = {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "XII Jogos FENACEF 2023 - Truco",
            "slug": "fenacef-2023",
            "date": day.isoformat(),
            "start_time": "09:00",
            "venue": "Ginásio da APCEF",
            "city": "Brasília/DF",
            "category": "Mista, a partir de 18 anos",
            "min_age": 18,
            "max_duplas": 20,
            "preset": "fenacef",
            "settings": {"mao_de_onze_tie": "opponent", "mao_de_ferro_value": 1, "third_place": "average"},
            "regulation": FENACEF_REGULATION,
        },
        "players": players,
        "duplas": duplas_rows,
        "stages": [
            {
                "key": "classificatoria",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": g, "duplas": m} for g, m in FENACEF_GROUPS.items()],
                "qualify": {"per_group": 2, "best_others": 0},
                "sorteios": [{"group": "C", "order": SORTEIO_C}],
            },
            {
                "key": "eliminatoria",
                "kind": "knockout",
                "best_of": 5,
                "entrants": "previous",
                "draw": {"method": "seeded"},
            },
        ],
        "jogos": b.jogos,
    }
    verify_fenacef(settings, infos, groups_spec, ko_spec, b.records)
    features_check(data, settings, "fenacef")
    return data


def verify_fenacef(settings, infos, groups_spec, ko_spec, records) -> None:
    view = tournament_compute(settings=settings, duplas=infos, stages=[groups_spec, ko_spec], jogos=records)
    tables = {t.key: t for t in view.stages[0].tables}
    assert view.stages[0].unused_sorteios == [], "o sorteio do grupo C não foi usado"
    a = [(r.dupla, r.decided_by) for r in tables["A"].rows]
    assert a[1] == ("d2", "head_to_head") and a[2][0] == "d3", a
    c = [(r.dupla, r.decided_by) for r in tables["C"].rows]
    assert c[:3] == [("d13", "draw"), ("d11", "draw"), ("d12", "points")], c
    for key in ("B", "D"):
        rows = tables[key].rows
        assert not any(r.tied for r in rows) and not any(r.decided_by in ("head_to_head", "draw") for r in rows), (
            key,
            [(r.dupla, r.points, r.decided_by) for r in rows],
        )
    assert view.finished
    medals = [(c.dupla, c.medal) for c in view.classification if c.medal]
    assert [m for _, m in medals] == ["gold", "silver", "bronze"], medals
    semis = view.stages[1].bracket.rounds[-2]
    losers = [s.loser for s in semis]
    avgs = {d: view.stats[d].average_key() for d in losers}
    assert len(set(avgs.values())) == 2, "os semifinalistas empataram no average"


def main() -> None:
    for name, data in (("aabb-2024.json", build_aabb()), ("fenacef-2023.json", build_fenacef())):
        path = write(name, data)
        print(f"{path.relative_to(ROOT)}: {len(data['jogos'])} jogos")


if __name__ == "__main__":
    main()
