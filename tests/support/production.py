"""Reading the settings in a fresh process, with the environment a server would have."""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def settings_run(code: str, **env: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "ZAP_DEV", "SITE_URL", "CSRF_TRUSTED_ORIGINS"}
        and not k.startswith(("SECURE_", "SESSION_", "CSRF_"))
    }
    return subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env={**base, **env}, capture_output=True, text=True, timeout=120
    )
