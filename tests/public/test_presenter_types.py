"""The presenters' fast constructor (``presenters/types.py``): the same frozen value as the class makes, at the
cost of a dict."""

import dataclasses
import pickle

import pytest

from tournaments.presenters.duplas import DuplaRef, _dupla_ref, unknown_dupla
from tournaments.presenters.jogo import JogoItem
from tournaments.presenters.types import fast_constructor


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Line:
    cls: str  # a field may be called like the constructor's own names
    row: int
    note: str = "—"


def test_it_makes_the_value_the_class_makes():
    make = fast_constructor(Line)
    made = make(cls="x", row=3)
    assert type(made) is Line
    assert made == Line(cls="x", row=3) and hash(made) == hash(Line(cls="x", row=3))
    assert made.note == "—" and repr(made) == repr(Line(cls="x", row=3))
    assert make(cls="x", row=3, note="n") == Line(cls="x", row=3, note="n")
    with pytest.raises(TypeError):
        make("x", 3)  # keyword-only, as the class
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.row = 4  # type: ignore[misc]
    assert dataclasses.replace(made, row=5) == Line(cls="x", row=5)


def test_a_dupla_ref_made_fast_is_a_dupla_ref():
    ref = _dupla_ref(
        key="d1",
        name="Os Zaps",
        short="Os Zaps",
        players="Ana e Bia",
        player_names=("Ana", "Bia"),
        has_name=True,
        seed=1,
        disqualified=False,
        filter_url="?dupla=d1",
        url="/torneios/t/duplas/d1/",
    )
    assert type(ref) is DuplaRef and not hasattr(ref, "__dict__")
    assert pickle.loads(pickle.dumps(ref)) == ref
    assert dataclasses.replace(
        ref,
        key="",
        name="—",
        short="—",
        players="",
        player_names=(),
        has_name=False,
        seed=None,
        filter_url="?dupla=",
        url="",
    ) == unknown_dupla(None)


def test_it_refuses_what_it_cannot_make():
    @dataclasses.dataclass
    class Plain:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Listed:
        a: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):
        fast_constructor(Plain)  # no slots: nothing to store in
    with pytest.raises(TypeError):
        fast_constructor(Listed)
    with pytest.raises(TypeError):
        fast_constructor(dict)
    assert fast_constructor(JogoItem)  # the page's own rows
