"""A name as people read it (``scoring.text.name_clean``): no bidi control survives, nothing else is lost."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.text import BIDI_CONTROLS, name_clean

bidi = st.sampled_from(sorted(BIDI_CONTROLS))
visible = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zs", "Zl", "Zp"))


@given(st.lists(st.one_of(bidi, visible, st.sampled_from(" \t\n\u00a0")), max_size=40))
def test_no_bidi_control_survives_and_cleaning_twice_changes_nothing(parts):
    name = name_clean("".join(parts))
    assert not BIDI_CONTROLS & set(name)
    assert name_clean(name) == name
    assert name == name.strip() and "  " not in name


@given(st.lists(st.text(visible, min_size=1, max_size=8), min_size=1, max_size=5), st.lists(bidi, max_size=6))
def test_the_words_stay_in_their_order(words, controls):
    """Bidi controls anywhere (each before a word, the rest at the end) go; the words stay, one space apart."""
    typed = "".join(c + w + " " for c, w in zip(controls, words, strict=False))
    typed += " ".join(words[len(controls) :]) + "".join(controls[len(words) :])
    assert name_clean(typed) == " ".join(words)


def test_the_override_that_disguises_a_name():
    assert name_clean("\u202eogeiD\u202c Souza") == "ogeiD Souza"
    assert name_clean("\u2067Ana\u2069  \u200fLima\u200e") == "Ana Lima"
    assert name_clean("\u202e\u202d\u061c") == ""
    assert name_clean("Zé 👨\u200d👩\u200d👧") == "Zé 👨\u200d👩\u200d👧"  # a joiner is no bidi control
