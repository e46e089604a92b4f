"""A PEP 517 build backend with the standard library alone, so `pip install ./clients/python` works offline.

It builds a pure-Python wheel of the `eagles` package and records where the eagles checkout is (`eagles/_home.py`),
so the installed client finds the engine it was installed from (EAGLES_HOME overrides it).
"""

from __future__ import annotations

import base64
import hashlib
import os
import tarfile
import zipfile
from pathlib import Path

NAME = "eagles"
VERSION = "0.1.0"
ROOT = Path(__file__).resolve().parent.parent  # clients/python
REPO = ROOT.parent.parent  # the eagles checkout
DIST = f"{NAME}-{VERSION}"
METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: The eagles wargame engines as PettingZoo/Gymnasium-shaped Python environments
Requires-Python: >=3.9
"""
WHEEL = """Wheel-Version: 1.0
Generator: eagles-backend
Root-Is-Purelib: true
Tag: py3-none-any
"""


def _files() -> list[tuple[str, bytes]]:
    out = []
    for p in sorted((ROOT / NAME).rglob("*.py")):
        if p.name == "_home.py":
            continue
        out.append((p.relative_to(ROOT).as_posix(), p.read_bytes()))
    out.append((f"{NAME}/_home.py", f'"""Written at install."""\nREPO = {str(REPO)!r}\n'.encode()))
    return out


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


get_requires_for_build_editable = get_requires_for_build_wheel


def _write_dist_info(directory: Path) -> str:
    info = directory / f"{DIST}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(METADATA)
    (info / "WHEEL").write_text(WHEEL)
    return info.name


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _write_dist_info(Path(metadata_directory))


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = f"{DIST}-py3-none-any.whl"
    files = _files() + [
        (f"{DIST}.dist-info/METADATA", METADATA.encode()),
        (f"{DIST}.dist-info/WHEEL", WHEEL.encode()),
        (f"{DIST}.dist-info/top_level.txt", f"{NAME}\n".encode()),
    ]
    record = [_record_line(n, d) for n, d in files] + [f"{DIST}.dist-info/RECORD,,"]
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files:
            z.writestr(n, d)
        z.writestr(f"{DIST}.dist-info/RECORD", "\n".join(record) + "\n")
    return name




def build_sdist(sdist_directory, config_settings=None):
    name = f"{DIST}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for p in ["pyproject.toml", "README.md", "_build/backend.py", *[f for f, _ in _files() if not f.endswith("_home.py")]]:
            if (ROOT / p).exists():
                t.add(ROOT / p, arcname=f"{DIST}/{p}")
    return name
