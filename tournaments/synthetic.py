"""Synthetic tournament files of any size, for benchmarks and scale tests.

``synthetic_tournament`` builds a complete event as a tournament file
(docs/contrato.md): players and duplas, a groups stage with every jogo played,
then a knockout stage drawn from the group qualifiers and played round by
round until the final (and the third-place jogo). The pure engine
(``scoring``) decides the bracket at each point, so the file holds exactly the
knockout jogos the importer expects. Deterministic for a given seed.
"""

import random
from typing import Any

from scoring.bracket_draw import bracket_size
from scoring.jogo import JogoEntry, JogoResult, PartidaEntry, jogo_evaluate
from scoring.partida import MAO_DE_FERRO, MAO_DE_ONZE, Mao, final_score_error, is_finished, mao_gain, situation
from scoring.rules import RuleSettings, settings_build, wins_needed
from scoring.tournament import (
    GROUPS,
    KNOCKOUT,
    PREVIOUS,
    DuplaInfo,
    GroupSpec,
    JogoRecord,
    StageSpec,
    groups_stage_compute,
    knockout_draw,
    knockout_stage_compute,
)

FIRST_NAMES = (
    "Ana",
    "Beatriz",
    "Camila",
    "Daniela",
    "Eduarda",
    "Fernanda",
    "Gabriela",
    "Helena",
    "Isabela",
    "Juliana",
    "Larissa",
    "Mariana",
    "Natália",
    "Patrícia",
    "Raquel",
    "Sílvia",
    "Tatiane",
    "Vanessa",
    "Aline",
    "Bruna",
    "Antônio",
    "Bruno",
    "Carlos",
    "Diego",
    "Eduardo",
    "Fábio",
    "Gustavo",
    "Henrique",
    "Igor",
    "João",
    "Leandro",
    "Marcelo",
    "Nelson",
    "Otávio",
    "Paulo",
    "Rafael",
    "Sérgio",
    "Thiago",
    "Vinícius",
    "Wagner",
    "José",
    "Luiz",
    "Francisco",
    "Sebastião",
    "Benedito",
    "Raimundo",
    "Márcia",
    "Cláudia",
    "Rosângela",
    "Zé",
)
SURNAMES = (
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Rodrigues",
    "Ferreira",
    "Alves",
    "Pereira",
    "Lima",
    "Gomes",
    "Costa",
    "Ribeiro",
    "Martins",
    "Carvalho",
    "Almeida",
    "Lopes",
    "Soares",
    "Fernandes",
    "Vieira",
    "Barbosa",
    "Rocha",
    "Dias",
    "Nascimento",
    "Andrade",
    "Moreira",
    "Nunes",
    "Marques",
    "Machado",
    "Mendes",
    "Freitas",
    "Cardoso",
    "Ramos",
    "Gonçalves",
    "Santana",
    "Teixeira",
    "Araújo",
    "Pinto",
    "Campos",
    "Correia",
    "Batista",
)
DUPLA_NAMES = (
    "Os Zapeiros",
    "Copas de Ouro",
    "Sete Belo",
    "Espadilha Afiada",
    "Pica-Fumo",
    "Truco Seco",
    "Mão de Ferro",
    "Os Blefadores",
    "Manilha Velha",
    "Dupla do Seis",
    "Os Corredores",
    "Vira e Mexe",
    "Quatro de Paus",
    "Zap Zap",
    "Os Marrecos",
    "Onze Pontos",
)

GROUP_STAGE, KNOCKOUT_STAGE = "grupos", "mata"
PRESET = "fenacef"
SETTINGS_OVERRIDES = {"third_place": "match"}  # a third-place jogo, so the bracket has one more jogo to play
GROUP_BEST_OF, KNOCKOUT_BEST_OF, FINAL_BEST_OF = 3, 3, 5
WALKOVER_RATE = 0.03  # share of group jogos decided by a walkover
MAX_REROLLS = 200


def _group_key(index: int) -> str:
    """A, B, … Z, AA, AB, … (spreadsheet column style)."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


def _group_sizes(duplas: int, group_size: int) -> list[int]:
    """Groups of ``group_size`` (or one less, spread evenly when the division is not exact)."""
    count = max(1, -(-duplas // group_size))
    base, extra = divmod(duplas, count)
    return [base + 1 if i < extra else base for i in range(count)]


# --- results -----------------------------------------------------------------------


def _final_score(rng: random.Random, winner: int, settings: RuleSettings) -> list[int]:
    """A final score the rules accept (docs/regras.md §3), winner side first in the pair's order."""
    while True:
        loser = rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11))
        if loser == 11:
            top = rng.choice((12, 12, 12, 13))
        else:
            top = rng.choice((12, 12, 12, 12, 13, 14, 15)) if loser >= 9 else rng.choice((12, 12, 12, 13, 15, 18))
        score = (top, loser) if winner == 0 else (loser, top)
        if final_score_error(score=score, settings=settings) is None:
            return list(score)


def _maos(rng: random.Random, settings: RuleSettings) -> tuple[list[dict], int]:
    """A partida entered mão by mão: a plausible sequence the rules accept, and its winner."""
    score = (0, 0)
    maos: list[dict] = []
    while not is_finished(score):
        kind = situation(score)
        side = rng.randrange(2)
        roll = rng.random()
        mao: dict[str, Any]
        if kind == MAO_DE_FERRO:
            mao = {"to": side}
        elif kind == MAO_DE_ONZE:
            on_eleven = 0 if score[0] == 11 else 1
            if roll < 0.25:
                mao = {"to": 1 - on_eleven, "points": 1, "how": "refused"}
            elif roll < 0.30:
                mao = {"to": None}
            else:
                mao = {"to": side, "points": 3}
        elif roll < 0.04:
            mao = {"to": None}
        elif roll < 0.30:
            mao = {"to": side, "points": rng.choice((1, 1, 1, 3, 3, 6)), "how": "ran"}
        elif roll < 0.31:
            mao = {"to": side, "points": 1, "how": "penalty", "reason": "falou durante a mão"}
        else:
            mao = {"to": side, "points": rng.choice((1, 1, 1, 1, 3, 3, 3, 6, 9, 12))}
        record = Mao(to=mao["to"], points=mao.get("points"), how=mao.get("how", "played"), reason=mao.get("reason", ""))
        gain, problem = mao_gain(score=score, mao=record, settings=settings)
        if problem:  # cannot happen with the choices above; keep the generator honest
            raise AssertionError(f"mão inválida gerada em {score}: {mao} ({problem})")
        assert gain is not None  # no problem: a gain
        score = (score[0] + gain[0], score[1] + gain[1])
        maos.append(mao)
    return maos, (0 if score[0] > score[1] else 1)


def _jogo_result(
    rng: random.Random,
    *,
    best_of: int,
    settings: RuleSettings,
    walkover_rate: float,
    as_maos: bool,
    duplas: tuple[str, str],
) -> tuple[dict, JogoResult]:
    """The result part of a jogo in the file, and the engine's reading of it."""
    if walkover_rate and rng.random() < walkover_rate:
        absent = rng.randrange(2)
        entry = JogoEntry(best_of=best_of, walkover=absent)
        result, errors = jogo_evaluate(entry=entry, settings=settings)
        assert not errors, errors
        return {"walkover": duplas[absent]}, result
    need = wins_needed(best_of)
    favourite = rng.randrange(2)
    strength = rng.uniform(0.5, 0.8)  # the better dupla wins each partida this often
    won = [0, 0]
    partidas: list[Any] = []
    entries: list[PartidaEntry] = []
    while max(won) < need:
        if as_maos:
            maos, winner = _maos(rng, settings)
            partidas.append({"maos": maos})
            entries.append(
                PartidaEntry(
                    maos=tuple(
                        Mao(to=m["to"], points=m.get("points"), how=m.get("how", "played"), reason=m.get("reason", ""))
                        for m in maos
                    )
                )
            )
        else:
            winner = favourite if rng.random() < strength else 1 - favourite
            score = _final_score(rng, winner, settings)
            partidas.append(score)
            entries.append(PartidaEntry(score=(score[0], score[1])))
        won[winner] += 1
    result, errors = jogo_evaluate(entry=JogoEntry(best_of=best_of, partidas=tuple(entries)), settings=settings)
    assert not errors and result.finished, errors
    return {"partidas": partidas}, result


# --- the file ------------------------------------------------------------------------


def synthetic_tournament(
    *, duplas: int, group_size: int = 4, per_group: int = 2, seed: int = 0, maos_every: int = 0
) -> dict:
    """A complete, valid tournament file of ``duplas`` duplas (docs/contrato.md), deterministic for ``seed``.

    Groups of ``group_size`` (sizes spread evenly when ``duplas`` does not
    divide), best of 3, ``per_group`` qualifying from each; a knockout stage
    with ``entrants: "previous"`` (seeded draw, crossed by group) played to the
    final, plus the third-place jogo. Every group jogo has a result (final
    scores, a few walkovers); when ``maos_every`` > 0 every ``maos_every``-th
    jogo is entered mão by mão. A group whose results leave a tie at the
    qualifying cut (which would need a sorteio) is played again with fresh
    results.
    """
    if duplas < 2:
        raise ValueError("um torneio precisa de pelo menos 2 duplas")
    if group_size < 2:
        raise ValueError("um grupo precisa de pelo menos 2 duplas")
    sizes = _group_sizes(duplas, group_size)
    if not 1 <= per_group <= min(sizes):
        raise ValueError(f"per_group deve estar entre 1 e {min(sizes)} (o menor grupo)")
    if len(sizes) * per_group < 2:
        raise ValueError("a fase eliminatória precisa de pelo menos 2 classificados")
    rng = random.Random(seed)
    settings, errors = settings_build(preset=PRESET, overrides=SETTINGS_OVERRIDES)
    assert settings is not None, errors

    # people
    players: list[dict] = []
    dupla_rows: list[dict] = []
    infos: list[DuplaInfo] = []
    for n in range(1, duplas + 1):
        keys = []
        for _ in range(2):
            key = f"p{len(players) + 1}"
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}"
            if rng.random() < 0.3:
                name = f"{name} {rng.choice(SURNAMES)}"
            birth = f"{rng.randint(1950, 2004)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            players.append({"key": key, "name": name, "birth_date": birth})
            keys.append(key)
        row: dict[str, Any] = {"key": f"d{n}", "players": keys}
        if rng.random() < 0.25:
            row["name"] = f"{rng.choice(DUPLA_NAMES)} {n}"
        dupla_rows.append(row)
        infos.append(DuplaInfo(key=row["key"], players=tuple(keys), name=row.get("name", "")))

    # groups: a shuffled draw into groups of the given sizes
    order = [d["key"] for d in dupla_rows]
    rng.shuffle(order)
    groups: list[GroupSpec] = []
    start = 0
    for i, size in enumerate(sizes):
        groups.append(GroupSpec(key=_group_key(i), duplas=tuple(order[start : start + size])))
        start += size
    group_stage = StageSpec(
        key=GROUP_STAGE, kind=GROUPS, best_of=GROUP_BEST_OF, groups=tuple(groups), per_group=per_group
    )

    jogos: list[dict] = []
    records: list[JogoRecord] = []
    counter = 0  # jogos generated so far (for maos_every)

    def play(
        stage: str, group: str | None, pair: tuple[str, str], best_of: int, walkover_rate: float
    ) -> tuple[dict[str, Any], JogoResult]:
        nonlocal counter
        counter += 1
        as_maos = maos_every > 0 and counter % maos_every == 0
        result_part, result = _jogo_result(
            rng, best_of=best_of, settings=settings, walkover_rate=walkover_rate, as_maos=as_maos, duplas=pair
        )
        row: dict[str, Any] = {"stage": stage}
        if group is not None:
            row["group"] = group
        row["duplas"] = list(pair)
        row.update(result_part)
        return row, result

    for g in groups:
        pairs = [(g.duplas[a], g.duplas[b]) for a in range(len(g.duplas)) for b in range(a + 1, len(g.duplas))]
        one_group = StageSpec(key=GROUP_STAGE, kind=GROUPS, best_of=GROUP_BEST_OF, groups=(g,), per_group=per_group)
        saved = counter
        for _attempt in range(MAX_REROLLS):
            counter = saved
            rows, recs = [], []
            for a, b in pairs:
                if rng.random() < 0.5:
                    a, b = b, a
                row, result = play(GROUP_STAGE, g.key, (a, b), GROUP_BEST_OF, WALKOVER_RATE)
                rows.append(row)
                recs.append(JogoRecord(stage=GROUP_STAGE, group=g.key, duplas=(a, b), result=result))
            if groups_stage_compute(stage=one_group, jogos=recs, settings=settings).decided:
                break
        else:
            raise RuntimeError(f"grupo {g.key}: empate na vaga após {MAX_REROLLS} tentativas")
        jogos.extend(rows)
        records.extend(recs)

    view = groups_stage_compute(stage=group_stage, jogos=records, settings=settings)
    assert view.decided, "a fase de grupos deveria estar decidida"

    # knockout: drawn from the qualifiers, played round by round as the bracket produces the jogos
    rounds_total = bracket_size(len(view.qualifiers)).bit_length() - 1
    best_of_rounds = {rounds_total: FINAL_BEST_OF} if rounds_total > 1 else {}
    knockout = StageSpec(
        key=KNOCKOUT_STAGE,
        kind=KNOCKOUT,
        best_of=KNOCKOUT_BEST_OF,
        best_of_rounds=best_of_rounds,
        entrants=PREVIOUS,
        draw_method="seeded",
    )
    bracket_order, problems = knockout_draw(stage=knockout, entrants=view.qualifiers, duplas={d.key: d for d in infos})
    assert bracket_order is not None, problems
    while True:
        bracket = knockout_stage_compute(stage=knockout, order=bracket_order, jogos=records, settings=settings).bracket
        assert bracket is not None  # built from the order drawn
        ready = [slot for slot in bracket.jogos() if slot.ready]
        if not ready:
            break
        for slot in ready:
            first, second = slot.duplas
            assert first is not None and second is not None  # a ready jogo has both duplas
            pair = (first, second)
            row, result = play(KNOCKOUT_STAGE, None, pair, slot.best_of, 0.0)
            jogos.append(row)
            records.append(
                JogoRecord(
                    stage=KNOCKOUT_STAGE,
                    duplas=pair,
                    result=result,
                    round=slot.round,
                    position=slot.position,
                    third_place=slot.third_place,
                )
            )
    assert bracket.finished, "a chave deveria ter terminado"

    knockout_row: dict[str, Any] = {"key": KNOCKOUT_STAGE, "kind": "knockout", "best_of": KNOCKOUT_BEST_OF}
    if best_of_rounds:
        knockout_row["best_of_rounds"] = {str(r): n for r, n in best_of_rounds.items()}
    knockout_row |= {"entrants": PREVIOUS, "draw": {"method": "seeded"}}
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": f"Torneio sintético de {duplas} duplas (semente {seed})",
            "slug": f"sintetico-{duplas}-s{seed}",
            "date": "2024-04-27",
            "start_time": "14:00",
            "venue": "Clube de Truco Sintético",
            "category": "Mista, a partir de 18 anos",
            "min_age": 18,
            "max_duplas": duplas,
            "preset": PRESET,
            "settings": dict(SETTINGS_OVERRIDES),
        },
        "players": players,
        "duplas": dupla_rows,
        "stages": [
            {
                "key": GROUP_STAGE,
                "kind": "groups",
                "best_of": GROUP_BEST_OF,
                "groups": [{"key": g.key, "duplas": list(g.duplas)} for g in groups],
                "qualify": {"per_group": per_group, "best_others": 0},
            },
            knockout_row,
        ],
        "jogos": jogos,
    }
