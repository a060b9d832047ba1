"""Names of atletas (scoring.atleta): the edit distance behind the desk's "talvez erro de digitação" (issue 41
item 11) and the Portuguese order of names for people (item 13)."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.atleta import name_distance, name_normalize, name_sort_key, names_look_alike

letters = st.text(alphabet="abcdeéíoãrs ", min_size=0, max_size=14)


def plain_levenshtein(a: str, b: str) -> int:
    """Edit distance without swaps, the textbook way (an upper bound of ``name_distance``)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (ca != cb)))
        row = current
    return row[-1]


def test_the_issues_typo_is_one_swap():
    assert name_distance("Marcos Antônio Ribeiro", "Marcos Antonio Riberio") == 1
    assert names_look_alike("Marcos Antônio Ribeiro", "Marcos  Antonio Riberio")
    assert not names_look_alike("Marcos Antônio Ribeiro", "MARCOS ANTONIO RIBEIRO")  # the same name: not a typo
    assert not names_look_alike("Ana Lima", "Ana Luz")  # two letters in a short name: other people
    assert not names_look_alike("Maria da Silva", "Mariana Souza")


@given(letters, letters)
def test_distance_is_symmetric_and_zero_only_for_the_same_name(a, b):
    d = name_distance(a, b)
    assert d == name_distance(b, a)
    assert (d == 0) == (name_normalize(a) == name_normalize(b))
    assert d <= plain_levenshtein(name_normalize(a), name_normalize(b))
    assert d >= abs(len(name_normalize(a)) - len(name_normalize(b)))


@given(letters, st.data())
def test_one_edit_is_distance_one(name, data):
    base = name_normalize(name) or "ana"
    i = data.draw(st.integers(0, len(base) - 1))
    kind = data.draw(st.sampled_from(["replace", "delete", "insert", "swap"]))
    if kind == "replace":
        edited = base[:i] + ("x" if base[i] != "x" else "y") + base[i + 1 :]
    elif kind == "delete":
        edited = base[:i] + base[i + 1 :]
    elif kind == "insert":
        edited = base[:i] + "x" + base[i:]
    else:
        if i + 1 >= len(base) or base[i] == base[i + 1]:
            return
        edited = base[:i] + base[i + 1] + base[i] + base[i + 2 :]
    if name_normalize(edited) != edited:  # an edit next to a space that normalizing takes back or folds
        return
    assert name_distance(base, edited) == 1


@given(st.lists(st.text(alphabet="aAáÁbBcçCÇeéEÉfFiI ", min_size=1, max_size=8), min_size=2, max_size=8))
def test_names_sort_the_portuguese_way(names):
    ordered = sorted(names, key=name_sort_key)
    keys = [name_normalize(n) for n in ordered]
    assert keys == sorted(keys)  # accents and case do not decide
    backwards = list(reversed(names))
    assert sorted(backwards, key=name_sort_key) == ordered  # a total order: ties broken the same way


def test_fabio_before_fernanda():
    names = ["Fernanda Lima", "fabiana Reis", "Fábio Nunes", "Érica Dias", "Eduardo Melo", "Zé", "Ângela"]
    assert sorted(names, key=name_sort_key) == [
        "Ângela",
        "Eduardo Melo",
        "Érica Dias",
        "fabiana Reis",
        "Fábio Nunes",
        "Fernanda Lima",
        "Zé",
    ]
    assert sorted(names) != sorted(names, key=name_sort_key)  # code points put "Fábio" after "Fernanda"
