"""Group sizing and the format checks before the competition draw (scoring/format.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.draws import groups_draw
from scoring.format import format_check, format_notes, group_sizes, qualifiers_count, sizes_text

GK = {
    "kind": "groups_knockout",
    "group_size": 4,
    "per_group": 2,
    "best_others": 0,
    "best_of_rounds": {},
    "bracket_method": "seeded",
}


def test_thirteen_in_groups_of_four_is_three_of_three_and_one_of_four():
    assert sorted(group_sizes(13, 4)) == [3, 3, 3, 4]
    assert sizes_text(group_sizes(13, 4)) == "3 grupos de 3 e 1 de 4"
    assert format_check(GK, 13) == []
    assert format_notes(GK, 13)[0] == "13 duplas não formam grupos iguais de 4. Proposta: 3 grupos de 3 e 1 de 4."


def test_known_sizes():
    assert group_sizes(16, 4) == [4, 4, 4, 4]
    assert group_sizes(5, 4) == [5]
    assert group_sizes(9, 4) == [3, 3, 3]
    assert group_sizes(2, 4) is None
    assert group_sizes(5, 3) is None
    assert sizes_text([4, 4, 4]) == "3 grupos de 4"
    assert sizes_text([5]) == "1 grupo de 5"
    assert sizes_text([4, 4, 3, 5]) == "1 grupo de 3, 2 de 4 e 1 de 5"


def _most_fours(n: int) -> int:
    """Brute force: most groups of 4 in a split of n into groups of 3 and 4 (-1 when there is none)."""
    return max((a for a in range(n // 4 + 1) if (n - 4 * a) % 3 == 0), default=-1)


@given(st.integers(min_value=3, max_value=3000))
def test_sizes_sum_to_n_stay_between_3_and_5_with_as_many_fours_as_possible(n):
    sizes = group_sizes(n, 4)
    assert sizes is not None and sum(sizes) == n
    assert all(3 <= s <= 5 for s in sizes)
    assert max(sizes) - min(sizes) <= 1  # even: what groups_draw deals for that many groups
    if n == 5:
        assert sizes == [5]  # the only case that needs a 5
    else:
        assert 5 not in sizes
        assert sizes.count(4) == _most_fours(n)


@given(st.integers(min_value=0, max_value=500), st.sampled_from([3, 4, 5, 6]))
def test_any_preferred_size_gives_an_even_split_near_it_or_none(n, preferred):
    sizes = group_sizes(n, preferred)
    if sizes is None:
        assert n < 3 or (preferred == 3 and n == 5)
        return
    assert sum(sizes) == n and min(sizes) >= 3 and max(sizes) - min(sizes) <= 1
    assert max(sizes) <= preferred + 1


@given(st.integers(min_value=6, max_value=200), st.integers(min_value=0, max_value=2**31 - 1))
def test_groups_draw_deals_exactly_the_proposed_sizes(n, seed):
    sizes = group_sizes(n, 4)
    groups = groups_draw(
        duplas=[f"d{i}" for i in range(n)],
        group_count=len(sizes),
        seed=seed,
        seeded=[f"d{i}" for i in range(min(n, 5))],
    )
    assert sorted(len(g) for g in groups) == sorted(sizes)


def test_problems_name_the_field_and_propose():
    assert format_check(GK | {"per_group": 3}, 13) == [
        "Classificadas por grupo: 3, mas o menor grupo terá 3 duplas (3 grupos de 3 e 1 de 4); use no máximo 2."
    ]
    problems = format_check(GK | {"group_size": 3, "per_group": 1}, 5)
    assert problems and problems[0].startswith("Duplas por grupo: 5 duplas não se dividem em grupos de 3")
    assert "Proposta: 1 grupo de 5" in problems[0]
    assert format_check(GK, 2)[0].startswith("Duplas: grupos precisam de pelo menos 3 duplas; há 2")
    assert format_check({"kind": "knockout"}, 1) == ["Duplas: o mata-mata precisa de pelo menos 2 duplas; há 1."]
    assert format_check({"kind": "liga"}, 8)[0].startswith("Formato: tipo 'liga' desconhecido")
    assert format_check({"kind": "knockout", "best_of_knockout": 4}, 8)[0].startswith("Melhor de, no mata-mata:")
    assert format_check({"kind": "knockout", "best_of_rounds": {"4": 3}}, 8) == [
        "Melhor de por rodada: a rodada 4 não existe; com 8 duplas a chave tem 3 rodadas."
    ]
    assert format_check(GK | {"bracket_method": "fixed"}, 16)[0].startswith("Posições na chave: a ordem fixa")
    assert format_check(GK | {"best_others": 9}, 16) == [
        "Melhores demais colocadas: 9, mas só 8 duplas ficam fora das vagas diretas; use no máximo 8."
    ]
    assert format_check(GK | {"per_group": 1}, 3) == [
        (
            "Classificadas: só 1 dupla passaria ao mata-mata; são precisas pelo menos 2 (aumente as classificadas "
            "por grupo ou as melhores demais)."
        )
    ]
    assert format_check({"kind": "round_robin"}, 65)[0].startswith("Formato: todos contra todos com 65 duplas")


def test_the_format_alone_is_checked_without_a_count():
    assert format_check(GK, None) == []
    assert format_check(GK | {"group_size": 7}, None) == ["Duplas por grupo: 7 não serve; use 3, 4, 5 ou 6."]


def test_qualifiers_and_byes_in_the_notes():
    assert qualifiers_count([4, 3, 3, 3], 2, 1) == 9
    notes = format_notes({"kind": "knockout", "bracket_method": "seeded"}, 13)
    assert notes == [
        ("13 duplas no mata-mata; chave de 16 com 3 folgas para os cabeças de chave (passam direto à 2ª rodada).")
    ]
    assert format_notes({"kind": "round_robin"}, 5) == ["5 duplas num grupo só: 10 jogos em 5 rodadas."]


@pytest.mark.parametrize(
    ("fmt", "n", "note"),
    [
        (
            {"kind": "knockout", "bracket_method": "seeded"},
            8,
            "8 duplas no mata-mata; chave de 8, sem folgas: todas as duplas jogam a 1ª rodada.",
        ),
        (
            {"kind": "knockout", "bracket_method": "seeded"},
            7,
            "7 duplas no mata-mata; chave de 8 com 1 folga para o 1º cabeça de chave (passa direto à 2ª rodada).",
        ),
        (
            {"kind": "knockout", "bracket_method": "random"},
            6,
            "6 duplas no mata-mata; chave de 8 com 2 folgas sorteadas (passam direto à 2ª rodada).",
        ),
        (
            {"kind": "knockout", "bracket_method": "fixed"},
            7,
            "7 duplas no mata-mata; chave de 8 com 1 folga (passa direto à 2ª rodada).",
        ),
    ],
)
def test_the_notes_say_folga_in_portuguese_never_bye(fmt, n, note):
    """A bye is a "folga" in Portuguese, as the bracket shows it ("— folga —"; walk review #21)."""
    notes = format_notes(fmt, n)
    assert notes == [note]
    assert "bye" not in " ".join(notes).lower()
