"""The wheel ships the locales and the front end: build it, install it in a fresh virtual
environment (no access to the source tree) and load every locale and the JS from there."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

CHECK = """
import json, sys
from pathlib import Path
import klondike_widget
from klondike_widget import i18n
pkg = Path(klondike_widget.__file__).parent
assert "site-packages" in str(pkg), pkg
codes = i18n.available_locales()
for code in codes:
    bundle = i18n.strings_for(code)
    assert bundle["strings"]["app.title"], code
print(json.dumps({"codes": sorted(codes), "js": sorted(p.name for p in (pkg / "js").iterdir()),
                  "locales_dir": str(pkg / "locales")}))
"""


@pytest.mark.slow
def test_wheel_installs_with_locales_and_js(tmp_path: Path, repo_root: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(dist),
            str(repo_root),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = dist.glob("klondike_widget-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    out = subprocess.run(
        [str(python), "-c", CHECK],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    import json

    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["codes"] == ["ar", "en", "pl", "tr"]
    assert {"widget.js", "widget.css"} <= set(result["js"])
    assert str(tmp_path) in result["locales_dir"]
