"""The probe's run: build the world, run the parts, print the counts (``probe/run`` and the test suite call it)."""

from __future__ import annotations

import time

from .core import Recorder, Tally

PARTS = ("matrix", "csrf", "fuzz", "schemathesis")


def probe_run(*, quick: bool = False, parts=PARTS, seed: int = 21, out=print) -> list[Tally]:
    """Run the chosen parts on the database Django is connected to; returns one Tally per part."""
    from .world import world_build

    started = time.monotonic()
    world = world_build()
    recorder = Recorder()
    tallies: list[Tally] = []
    try:
        for part in parts:
            began = time.monotonic()
            if part == "matrix":
                from .matrix import permission_matrix

                tally = permission_matrix(world, recorder, quick=quick)
            elif part == "csrf":
                from .matrix import csrf_set

                tally = csrf_set(world, recorder, quick=quick)
            elif part == "fuzz":
                from .fuzz import input_fuzz

                tally = input_fuzz(world, recorder, quick=quick, seed=seed)
            elif part == "schemathesis":
                from .schema import schemathesis_run

                tally = schemathesis_run(world, recorder, quick=quick, seed=seed)
            else:
                raise ValueError(f"unknown part {part!r}")
            tally.extra["seconds"] = round(time.monotonic() - began, 1)
            tallies.append(tally)
            out(tally_text(tally))
    finally:
        recorder.close()
    out(summary_text(tallies, time.monotonic() - started))
    return tallies


def tally_text(tally: Tally) -> str:
    lines = [
        f"== {tally.name}: {tally.requests} requests, {tally.server_errors} answers of 500, "
        f"{tally.escapes} escapes, {tally.csrf_accepted} CSRF accepted"
        + "".join(f", {k}: {v}" for k, v in tally.extra.items())
    ]
    for cause, count in tally.causes.most_common():
        lines.append(f"   500 x{count}: {cause}\n        e.g. {tally.samples[cause]}")
    for sample in tally.escape_samples[:20]:
        kind = {"CSRF set": "CSRF accepted", "schemathesis": "failed"}.get(tally.name, "ESCAPE")
        lines.append(f"   {kind}: {sample}")
    return "\n".join(lines)


def summary_text(tallies: list[Tally], seconds: float) -> str:
    total = sum(t.requests for t in tallies)
    errors = sum(t.server_errors for t in tallies)
    escapes = sum(t.escapes for t in tallies)
    csrf = sum(t.csrf_accepted for t in tallies)
    causes = len({c for t in tallies for c in t.causes})
    verdict = "OK" if failed(tallies) == 0 else "FAILED"
    return (
        f"probe {verdict}: {total} requests in {seconds:.0f} s; {errors} answers of 500 from {causes} causes, "
        f"{escapes} permission escapes, {csrf} CSRF accepted"
        + "".join(
            f"; schemathesis {t.extra.get('cases', 0)} cases, {t.extra.get('failures', 0)} failures"
            for t in tallies
            if t.name == "schemathesis"
        )
    )


def failed(tallies: list[Tally]) -> int:
    """What makes the probe fail: any 500, escape or CSRF acceptance, and any schemathesis failure."""
    return sum(t.server_errors + t.escapes + t.csrf_accepted + t.extra.get("failures", 0) for t in tallies)
