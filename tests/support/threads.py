"""Code run in threads released together (concurrency tests: each thread its own database connection)."""

import threading
import traceback

from django.db import connections


def run_together(workers: list) -> list:
    """Run each callable in its own thread, released together; re-raise the first failure."""
    barrier = threading.Barrier(len(workers))
    results: list = [None] * len(workers)
    failures: list[str] = []

    def one(i):
        try:
            barrier.wait(timeout=60)
            results[i] = workers[i]()
        except BaseException:
            failures.append(traceback.format_exc())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread is still running after 5 minutes"
    assert not failures, failures[0]
    return results
