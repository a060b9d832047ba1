"""Whatever a tournament file holds, the importer answers with a result or a list of placed problems.

Two fuzzers over the demo files: hypothesis (one value changed anywhere) and a seeded mutator that
stacks hostile changes (values beyond the columns, wrong types, lone surrogates, NUL, giant and deep
JSON, duplicate keys, broken bytes). Every outcome must be a clean import or a clean refusal whose
lines each name a place, with the row count of every model unchanged. ``ZAP_FUZZ_CASES`` sets how
many mutator cases run (``make fuzz`` runs thousands); ``ZAP_FUZZ_SEED`` picks another sequence.
"""

import copy
import io
import json
import os
import random

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from tests.support.files import DEMO_DIR
from tournaments.interchange.jsonfile import tournament_file_parse
from tournaments.interchange.writer import tournament_export
from tournaments.services import tournament_import

COMPUTED = ("standings", "bracket", "bracket_third_place", "classification", "waiting_list", "ranking")


def _demo(name: str) -> dict:
    data = json.loads((DEMO_DIR / name).read_text(encoding="utf-8"))
    for section in COMPUTED:
        data.pop(section, None)
    return data


BASE = _demo("fenacef-2023.json")
# A small file with every field the reader stores (seeds, mesas, reasons, contacts, penalties of each kind).
RICH = {
    "format": "truco-torneio",
    "version": 1,
    "tournament": {
        "name": "Copa Rica",
        "slug": "copa-rica",
        "date": "2024-04-27",
        "start_time": "14:00",
        "venue": "Bar do Zé",
        "category": "Livre",
        "min_age": 18,
        "max_duplas": 8,
        "preset": "online",
        "settings": {"third_place": "match", "class_points": {"clean_win": 3}},
        "regulation": "Art. 1",
    },
    "players": [
        {
            "key": f"p{i}",
            "name": f"Atleta {i}",
            "birth_date": "1990-01-01",
            "email": f"a{i}@x.com",
            "phone": "11 99999-0000",
        }
        for i in range(1, 15)
    ],
    "registrations": [{"players": ["p13", "p14"]}],
    "duplas": [
        {"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"], "name": f"Dupla {i}", "seed": i}
        for i in range(1, 6)
    ]
    + [{"key": "d6", "players": ["p11", "p12"], "disqualified": True, "disqualified_reason": "ausente"}],
    "stages": [
        {
            "key": "grupos",
            "name": "Grupos",
            "kind": "groups",
            "best_of": 3,
            "groups": [{"key": "A", "duplas": ["d1", "d2", "d3"]}, {"key": "B", "duplas": ["d4", "d5", "d6"]}],
            "qualify": {"per_group": 2, "best_others": 0},
        },
        {
            "key": "mata",
            "name": "Mata-mata",
            "kind": "knockout",
            "best_of": 3,
            "best_of_rounds": {"2": 5},
            "entrants": "previous",
            "draw": {"method": "random", "seed": 42},
        },
    ],
    "jogos": [
        {
            "stage": "grupos",
            "group": "A",
            "duplas": ["d1", "d2"],
            "mesa": 3,
            "partidas": [
                [12, 7],
                {"penalty": {"lost_by": "d1", "reason": "celular"}},
                {"maos": [{"to": 0, "points": 12}]},
            ],
        },
        {"stage": "grupos", "group": "A", "duplas": ["d1", "d3"], "penalty": {"lost_by": "d3", "reason": "briga"}},
        {"stage": "grupos", "group": "A", "duplas": ["d2", "d3"], "partidas": [[12, 0], [12, 5]]},
        {
            "stage": "grupos",
            "group": "B",
            "duplas": ["d4", "d5"],
            "partidas": [
                {
                    "maos": [
                        {"to": 0, "points": 3},
                        {"to": 1, "points": 1, "how": "penalty", "reason": "falou"},
                        {"to": None},
                        {"to": 0, "points": 9},
                    ]
                },
                [12, 3],
            ],
        },
        {"stage": "grupos", "group": "B", "duplas": ["d4", "d6"], "walkover": "d6"},
        {"stage": "grupos", "group": "B", "duplas": ["d5", "d6"], "walkover": "d6"},
    ],
}
BASES = [BASE, _demo("aabb-2024.json"), RICH]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "d1", "d2", "A", "grupos", "mata", "both", "played", "ran", "penalty", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["key", "to", "points", "maos", "order"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(BASE) if p]


def replaced(data, path, value):
    data = copy.deepcopy(data)
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


def row_counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in apps.get_app_config("tournaments").get_models()}


def assert_clean_refusal(lines: list[str]) -> None:
    """A refusal says why, one problem per line, each naming its place (a field path, or the file's line)."""
    assert lines, "a refusal must say why"
    for line in lines:
        assert "Traceback" not in line
        place, sep, message = line.partition(": ")
        assert sep and place and message.strip(), f"line without a place: {line!r}"


@pytest.mark.django_db
@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(path=st.sampled_from(ALL_PATHS), value=json_values)
def test_any_single_change_imports_or_is_reported(path, value):
    data = replaced(BASE, path, value)
    before = row_counts()
    try:
        tournament_import(data=data)
    except RuleViolation as exc:
        assert exc.errors, "a refusal must say why"
        assert all(e.message for e in exc.errors)
        assert row_counts() == before  # nothing half-written


# --- the seeded mutator ------------------------------------------------------------------

HOSTILE = [
    "k" * 61,
    "r" * 301,
    "n" * 201,
    "t" * 20_001,
    "",
    " ",
    "\ud800",
    "a\udfffb",
    "a\x00b",
    "\x00",
    2**15 - 1,
    2**15,
    2**16,
    2**31 - 1,
    2**31,
    2**32,
    2**63 - 1,
    2**63,
    -(2**63) - 1,
    -(2**31) - 1,
    10**30,
    -1,
    0,
    1,
    2,
    3,
    12,
    13,
    15,
    17,
    99,
    1.5,
    -0.0,
    1e300,
    True,
    False,
    None,
    [],
    {},
    [[]],
    [{}],
    ["d1"],
    ["d1", None],
    [["d1"], {"k": 1}],
    {"a": 1},
    {"key": ["x"]},
    "14:00+03:00",
    "14:00Z",
    "14:00:00.5",
    "25:00",
    "T14:00",
    "2024-02-30",
    "2024-04-27T10:00",
    "27/04/2024",
    "d1",
    "d2",
    "r1",
    "A",
    "B",
    "both",
    "previous",
    "fixed",
    "random",
    "seeded",
    "groups",
    "knockout",
    "played",
    "ran",
    "refused",
    "penalty",
    "fenacef",
    "aabb",
    "online",
    "opponent",
    "nobody",
    "shared",
]


def _nodes(data, place=()):
    """Every (path, value) below the root."""
    stack = [(data, ())]
    while stack:
        node, path = stack.pop()
        if path:
            yield path, node
        if isinstance(node, dict):
            stack.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(node))


def _parent(data, path):
    node = data
    for step in path[:-1]:
        node = node[step]
    return node


def _hostile(rng: random.Random):
    if rng.random() < 0.15:  # something of the same shape as the file's own values, deeper
        return {"key": rng.choice(HOSTILE), "duplas": [rng.choice(HOSTILE)], "maos": [{"to": rng.choice(HOSTILE)}]}
    return copy.deepcopy(rng.choice(HOSTILE))


# fields the reader stores or acts on, aimed at directly (a random node is most often a mão)
FIELDS = [
    "key",
    "name",
    "slug",
    "venue",
    "category",
    "regulation",
    "email",
    "phone",
    "birth_date",
    "date",
    "start_time",
    "min_age",
    "max_duplas",
    "preset",
    "settings",
    "seed",
    "disqualified",
    "disqualified_reason",
    "players",
    "duplas",
    "groups",
    "qualify",
    "per_group",
    "best_others",
    "sorteios",
    "order",
    "group",
    "best_of",
    "best_of_rounds",
    "entrants",
    "draw",
    "method",
    "stage",
    "mesa",
    "walkover",
    "penalty",
    "lost_by",
    "reason",
    "partidas",
    "maos",
    "to",
    "points",
    "how",
    "pairing",
    "registrations",
    "kind",
]


def _pick(data, rng: random.Random):
    """A node: a random field by name, or a random top-level section, then a random depth, then a node."""
    nodes = list(_nodes(data))
    if rng.random() < 0.5:
        name = rng.choice(FIELDS)
        named = [(p, v) for p, v in nodes if p[-1] == name]
        if named:
            return rng.choice(named)
    section = rng.choice(list(data))
    by_depth: dict[int, list] = {}
    for path, value in nodes:
        if path[0] == section:
            by_depth.setdefault(len(path), []).append((path, value))
    return rng.choice(by_depth[rng.choice(list(by_depth))])


def mutate(data, rng: random.Random):
    """One change: replace, delete, duplicate, grow or insert somewhere in ``data`` (in place)."""
    if not data:
        return
    path, value = _pick(data, rng)
    parent, last = _parent(data, path), path[-1]
    op = rng.random()
    if op < 0.45:
        parent[last] = _hostile(rng)
    elif op < 0.55:
        del parent[last]
    elif op < 0.65 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(value))  # a repeated player, dupla, jogo, mão…
    elif op < 0.72 and isinstance(value, list) and value:
        value.extend([copy.deepcopy(item) for item in value] * rng.choice([1, 3, 20]))  # longer lists
    elif op < 0.80 and isinstance(value, dict):
        value[rng.choice(["key", "name", "reason", "seed", "mesa", "order", "extra", "penalty"])] = _hostile(rng)
    elif op < 0.90 and isinstance(value, str):
        parent[last] = value + rng.choice(["\x00", "\ud800", "x" * 300, " " * 70])
    elif isinstance(value, int) and not isinstance(value, bool):
        parent[last] = value + rng.choice([2**31, 2**63, 10**19, -(2**31)])
    else:
        parent[last] = _hostile(rng)


def text_mutate(text: str, rng: random.Random) -> str | bytes:
    """A change only the file's text can carry: JSON that parses badly, or bytes that are no UTF-8."""
    op = rng.randrange(10)
    if op == 0:
        return text.replace('"version": 1', '"version": 1' + "0" * rng.choice([20, 4_400, 6_000]), 1)
    if op == 1:
        depth = rng.choice([65, 1_000, 5_000, 100_000])
        return text.replace('"players":', '"extra": ' + "[" * depth + "]" * depth + ', "players":', 1)
    if op == 2:
        return text.replace('"format": "truco-torneio"', '"format": "truco-torneio", "format": "truco-torneio"', 1)
    if op == 3:
        return text.replace('"key": ', '"key": "dup", "key": ', rng.randint(1, 5))
    if op == 4:
        return text.replace('"name": "', rng.choice(['"name": "\\u0000', '"name": "\\ud800', '"name": "\\udc00x']), 3)
    if op == 5:
        return text.replace(
            '"version": 1', rng.choice(['"version": NaN', '"version": Infinity', '"version": 1e999']), 1
        )
    if op == 6:
        return text[: rng.randrange(len(text))]
    if op == 7:
        raw = bytearray(("\ufeff" + text).encode("utf-8", "surrogatepass"))
        raw[rng.randrange(len(raw))] = rng.choice([0xFF, 0xC3, 0xED, 0x00, 0x22, 0x5B])
        return bytes(raw)
    if op == 8:
        return text.replace('"start_time": "', '"start_time": "' + rng.choice(["T", "x", "1"]), 1).replace(
            '"min_age": ', '"min_age": -', 1
        )
    return text.replace('"duplas": [', '"duplas": [' + '"d1", ' * rng.choice([17, 300]), 1)


def _service_outcome(data_or_raw, from_text: bool) -> list[str] | None:
    """Import through the service (parsing first when given text); the refusal's lines, or None."""
    try:
        data = tournament_file_parse(raw=data_or_raw) if from_text else data_or_raw
        tournament_import(data=data)
    except RuleViolation as exc:
        return [str(e) for e in exc.errors]
    return None


def _command_outcome(tmp_path, raw: str | bytes, n: int) -> list[str] | None:
    """Import through the real command; the refusal's lines, or None."""
    path = tmp_path / f"case{n}.json"
    if isinstance(raw, bytes):
        path.write_bytes(raw)
    else:
        path.write_bytes(raw.encode("utf-8", "surrogatepass"))
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_tournament", str(path), stdout=out, stderr=err)
    except CommandError as exc:  # the file could not be parsed
        return str(exc).splitlines()
    except SystemExit as exc:
        assert exc.code == 1
        return err.getvalue().splitlines()
    assert out.getvalue().strip(), "a clean import prints its slug"
    return None


@pytest.mark.django_db
def test_seeded_mutations_import_or_are_refused_cleanly(tmp_path):
    cases = int(os.environ.get("ZAP_FUZZ_CASES", "300"))
    rng = random.Random(int(os.environ.get("ZAP_FUZZ_SEED", "20240427")))
    # the exports of the bases too: fixed bracket orders, statuses, registrations as the site writes them
    exported = [
        {
            k: v
            for k, v in tournament_export(tournament=tournament_import(data=copy.deepcopy(b))).items()
            if k not in COMPUTED
        }
        for b in BASES
    ]
    bases = BASES + exported
    outcomes = {"imported": 0, "refused": 0}
    for n in range(cases):
        data = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.choice([1, 1, 2, 3, 5])):
            mutate(data, rng)
        via = rng.random()
        before = row_counts()
        try:
            if via < 0.6:
                lines = _service_outcome(data, from_text=False)
            else:
                text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
                if rng.random() < 0.5:
                    text = text_mutate(text, rng)
                if via < 0.85:
                    lines = _service_outcome(text, from_text=True)
                else:
                    lines = _command_outcome(tmp_path, text, n)
        except Exception as exc:
            raise AssertionError(f"case {n} crashed: {type(exc).__name__}: {exc}"[:2000]) from exc
        if lines is None:
            outcomes["imported"] += 1
            assert row_counts()["Tournament"] == before["Tournament"] + 1
        else:
            outcomes["refused"] += 1
            assert_clean_refusal(lines)
            assert row_counts() == before, f"case {n}: a refused file wrote rows"
    # the mutator must exercise both outcomes, or it tests nothing
    assert outcomes["imported"] and outcomes["refused"], outcomes
