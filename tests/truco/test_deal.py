"""The checkable deal (INTERCHANGE.md "A checkable deal") and the page that teaches a player to check one."""

import contextlib
import hashlib
import io
import random
import re
from pathlib import Path

from truco.cards import DECK
from truco.deal import commitment, deal, shuffled

PAGE = Path(__file__).resolve().parents[2] / "docs" / "conferir-embaralhamento.md"


def test_the_deck_starts_ranks_low_to_high_each_in_suits_p_c_e_o():
    assert DECK[:5] == ("4p", "4c", "4e", "4o", "5p") and DECK[-1] == "3o" and len(set(DECK)) == 40
    assert not any(card[0] in "89" or card.startswith("10") for card in DECK)


def test_the_shuffle_is_the_documented_one():
    seed = bytes(range(32))
    deck = list(DECK)
    for i in range(39, 0, -1):
        j = int.from_bytes(hashlib.sha256(seed + bytes([i])).digest(), "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert shuffled(seed) == deck
    assert sorted(shuffled(seed)) == sorted(DECK)
    assert shuffled(bytes(32)) != shuffled(bytes(31) + b"\x01")


def test_cards_go_one_by_one_from_the_first_seat_and_the_thirteenth_is_the_vira():
    seed = bytes(range(32))
    deck = shuffled(seed)
    dealt = deal(seed=seed, first=3, with_vira=True)
    assert dealt.hands[3] == (deck[0], deck[4], deck[8]) and dealt.hands[0] == (deck[1], deck[5], deck[9])
    assert dealt.vira == deck[12]
    assert deal(seed=seed, first=3, with_vira=False).vira is None
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()


def _page_code() -> str:
    return re.search(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S).group(1)


def _run(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {})
    return out.getvalue()


def _engine_says(seed: bytes, first: int) -> str:
    dealt = deal(seed=seed, first=first, with_vira=True)
    lines = [f"assento {s} : {' '.join(hand)}" for s, hand in enumerate(dealt.hands)]
    return "\n".join([*lines, f"vira: {dealt.vira}"]) + "\n"


def test_the_page_prints_what_it_says_it_prints():
    text = PAGE.read_text(encoding="utf-8")
    printed = re.search(r"```text\n(.*?)```", text, re.S).group(1)
    assert _run(_page_code()) == printed


def test_the_pages_code_checks_any_deal_of_the_engine():
    code = _page_code()
    rng = random.Random(7)
    for _ in range(25):
        seed, first = rng.randbytes(32), rng.randrange(4)
        mine = re.sub(r'bytes\.fromhex\("[0-9a-f]+"\)', f'bytes.fromhex("{seed.hex()}")', code)
        mine = re.sub(r'compromisso = "[0-9a-f]+"', f'compromisso = "{commitment(seed)}"', mine)
        mine = re.sub(r"first = \d", f"first = {first}", mine)
        assert _run(mine) == _engine_says(seed, first)


def test_the_pages_code_refuses_a_seed_that_does_not_match_its_commitment():
    code = _page_code().replace('semente = bytes.fromhex("00', 'semente = bytes.fromhex("01')
    try:
        _run(code)
    except AssertionError as problem:
        assert "não corresponde" in str(problem)
    else:
        raise AssertionError("a wrong seed passed the page's check")
