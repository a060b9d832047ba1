"""Part d: schemathesis against the súmula API's OpenAPI document (``tournaments.api.openapi``, the one the site
serves at /api/v1/schema/, made from the API's types).

Cases come from schemathesis's Hypothesis strategies for each operation, valid ("positive") and invalid
("negative") ones, half of them on the probe's real event and jogos (the rest on generated slugs and keys), sent
to ``config.wsgi.application`` in this process (no server) as the signed-in organizer with a CSRF token, each in
a transaction rolled back after it. Each answer is checked with ``not_a_server_error`` and the conformance of
its status, content type and body to the schema. A failed case counts once, with the first check it failed.
"""

from __future__ import annotations

from django.conf import settings

from .core import Recorder, Tally


def schema_load():
    import schemathesis

    from config.wsgi import application
    from tournaments.api.openapi import document

    schema = schemathesis.openapi.from_dict(document())
    schema.app = application
    return schema


def _session(world) -> tuple[dict, dict]:
    """The organizer's session and CSRF cookies, and the CSRF header."""
    client = world.client("organizer")
    client.get("/entrar/")  # sets the CSRF cookie
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    token = cookies.get(settings.CSRF_COOKIE_NAME, "")
    return cookies, {"X-CSRFToken": token}


def schemathesis_run(world, recorder: Recorder, *, quick: bool = False, seed: int = 21) -> Tally:
    tally = Tally("schemathesis")
    failures: dict = {}
    cases = _cases_run(world, recorder, tally, failures, quick=quick)
    tally.extra["cases"] = cases
    tally.extra["failures"] = sum(count for count, _ in failures.values())
    tally.extra["failure kinds"] = len(failures)
    for label, (count, sample) in sorted(failures.items(), key=lambda kv: -kv[1][0]):
        tally.escape_samples.append(f"x{count} {label}\n        e.g. {sample}")
    return tally


def _body(case) -> str:
    body = case.body
    return "" if type(body).__name__ == "NotSet" else f"body={str(body)[:200]}"


def _call(case, headers: dict, cookies: dict):
    """As Django's test client does: the request must not close the connection (the probe's transaction is on it)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        return case.call(headers=headers, cookies=cookies)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _cases_run(world, recorder: Recorder, tally: Tally, failures: dict, *, quick: bool) -> int:
    from hypothesis import HealthCheck, given
    from hypothesis import settings as hsettings
    from hypothesis import strategies as st
    from schemathesis import GenerationMode
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    schema = schema_load()
    cookies, headers = _session(world)
    checks = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    examples = 6 if quick else 300
    real_keys = list(world.jogos.values())
    cases = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        strategies = []
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies.append(operation.as_strategy(mode))
            for key in real_keys[:2] if quick else real_keys:
                path = {"slug": world.event, "key": key}
                if "id" in {p.name for p in operation.path_parameters}:
                    path["id"] = world.mao
                strategies.append(operation.as_strategy(mode, path_parameters=path))

        @hsettings(
            max_examples=examples,
            deadline=None,
            database=None,
            derandomize=True,
            print_blob=False,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=st.one_of(*strategies))
        def exercise(case):
            nonlocal cases
            cases += 1
            outcome = recorder.run(lambda: _call(case, headers, cookies))
            response = outcome.response
            tally.requests += 1
            if outcome.error:
                tally.server_error(
                    outcome.error, f"{case.method} {case.formatted_path} {_body(case)} -> {outcome.status}"
                )
            try:
                case.validate_response(response, checks=checks)
            except (Exception, BaseExceptionGroup) as failure:
                parts = getattr(failure, "exceptions", None) or (failure,)
                titles = sorted({getattr(p, "title", None) or type(p).__name__ for p in parts})
                label = f"{operation.label}: {', '.join(titles)}"[:200]
                count, sample = failures.get(label, (0, None))
                if sample is None:
                    body = getattr(response, "content", b"")[:200]
                    sample = f"{case.method} {case.formatted_path} {_body(case)} -> {outcome.status} {body!r}"
                failures[label] = (count + 1, sample)

        exercise()
    return cases
