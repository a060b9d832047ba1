"""A knockout round's name (issue 41 item 13): one helper, ``presenters.knockout_round_title``, for every page,
sheet and screen that names a round of a knockout to a person."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments.presenters import knockout_round_title

NAMED = {1: "Final", 2: "Semifinais", 3: "Quartas de final", 4: "Oitavas de final", 5: "16-avos de final"}


@given(total=st.integers(1, 12), data=st.data())
def test_a_round_is_named_by_its_distance_from_the_final(total, data):
    number = data.draw(st.integers(1, total))
    name = knockout_round_title(round_number=number, total_rounds=total)
    assert name == NAMED.get(total - number + 1, f"{number}ª rodada")
    assert knockout_round_title(round_number=number, total_rounds=total, third_place=True) == "Disputa de 3º lugar"


def test_without_its_bracket_or_its_round():
    assert knockout_round_title(round_number=2, total_rounds=None) == "2ª rodada"
    assert knockout_round_title(round_number=None, total_rounds=4) == ""
    assert knockout_round_title(round_number=None, total_rounds=None, third_place=True) == "Disputa de 3º lugar"
