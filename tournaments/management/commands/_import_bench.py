"""The import of the largest event a file may hold (limits.MAX_DUPLAS duplas) in the benchmark, against issue 41's
target: a bare knockout (duplas and a bracket, nothing played) and a whole event (groups of 4 with every result,
one jogo in ten mão by mão, the knockout to the final), each imported on a site where its atletas are new and again
where they all exist (the atletas matched, DOMAIN §7.1). Each import is timed whole, ``tournament_import`` as the
command runs it: reading, checking, writing, the engine and the atletas' Nível once it commits. Wall time, and the
process's CPU time beside it (on a busy machine the wall time says more about the other processes)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from tournaments.models import Tournament
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament

TARGET_BIG_IMPORT_S = 5.0


@dataclass
class ImportTiming:
    label: str
    jogos: int
    wall_s: float
    cpu_s: float


@dataclass
class ImportBench:
    duplas: int
    timings: list[ImportTiming] = field(default_factory=list)


def bare_knockout(*, duplas: int, seed: int) -> dict[str, Any]:
    """The synthetic event's people and duplas in one seeded bracket, nothing played."""
    data = synthetic_tournament(duplas=duplas, seed=seed)
    keys = [d["key"] for d in data["duplas"]]
    data["tournament"]["name"] = f"Mata-mata {duplas}"
    data["stages"] = [{"key": "mata", "kind": "knockout", "best_of": 3, "entrants": keys, "draw": {"method": "seeded"}}]
    data["jogos"] = []
    return data


def import_bench(*, duplas: int, seed: int, created: list[Tournament]) -> ImportBench:
    """Each file imported twice (atletas new, then found), from its JSON text as the command reads it."""
    out = ImportBench(duplas=duplas)
    files = (
        ("mata-mata, nada jogado", bare_knockout(duplas=duplas, seed=seed)),
        ("grupos + mata-mata, tudo jogado", synthetic_tournament(duplas=duplas, seed=seed, maos_every=10)),
    )
    for label, data in files:
        text = json.dumps(data, ensure_ascii=False)
        for when in ("atletas novos", "atletas já no site"):
            payload = json.loads(text)
            wall, cpu = time.perf_counter(), time.process_time()
            created.append(tournament_import(data=payload))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            out.timings.append(ImportTiming(f"{label} ({when})", len(data["jogos"]), wall, cpu))
        # the next file's atletas are new again: its people are another draw of names and birth dates
        seed += 1
    return out
