#!/usr/bin/env python3
"""Fails (exit 1) unless every place that names chronoid's version agrees:
Cargo.toml (the extension crate, which pgrx writes into the control file),
chronoid.control (its default_version is that placeholder, or the same
number), META.json (the distribution and the extension it provides), the
formats crate, and the SQL files (an update script ends at this version, and
the previous version's install script is kept in sql/versions/), and the
Python and Node packages.

    python3 scripts/check_versions.py
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cargo_version(path: pathlib.Path) -> str:
    match = re.search(r'(?m)^version = "([^"]+)"', path.read_text())
    return match.group(1) if match else "?"


def main() -> int:
    version = cargo_version(ROOT / "Cargo.toml")
    problems = []

    def expect(what: str, got: str) -> None:
        if got != version:
            problems.append(f"{what} says {got!r}, Cargo.toml says {version!r}")

    control = (ROOT / "chronoid.control").read_text()
    default = re.search(r"(?m)^default_version = '([^']+)'", control)
    if not default or default.group(1) not in ("@CARGO_VERSION@", version):
        problems.append(f"chronoid.control default_version is {default and default.group(1)!r}")
    meta = json.loads((ROOT / "META.json").read_text())
    expect("META.json version", meta.get("version", "?"))
    expect("META.json provides.chronoid.version", meta.get("provides", {}).get("chronoid", {}).get("version", "?"))
    expect("formats/Cargo.toml", cargo_version(ROOT / "formats" / "Cargo.toml"))
    dep = re.search(r'chronoid-formats = \{[^}]*version = "([^"]+)"', (ROOT / "Cargo.toml").read_text())
    expect("the chronoid-formats dependency", dep.group(1) if dep else "?")
    # The Python package (python/): its crate, pyproject.toml and __version__.
    expect("python/Cargo.toml", cargo_version(ROOT / "python" / "Cargo.toml"))
    expect("python/pyproject.toml", cargo_version(ROOT / "python" / "pyproject.toml"))
    init = re.search(r'(?m)^__version__ = "([^"]+)"', (ROOT / "python" / "chronoid" / "__init__.py").read_text())
    expect("python/chronoid/__init__.py __version__", init.group(1) if init else "?")
    # The Node package (node/) and its WebAssembly crate.
    expect("node/package.json", json.loads((ROOT / "node" / "package.json").read_text()).get("version", "?"))
    expect("node/wasm/Cargo.toml", cargo_version(ROOT / "node" / "wasm" / "Cargo.toml"))
    updates = sorted(p.name for p in (ROOT / "sql").glob(f"chronoid--*--{version}.sql"))
    if not updates:
        problems.append(f"no sql/chronoid--OLD--{version}.sql update script")
    for name in updates:
        old = name.split("--")[1]
        if not (ROOT / "sql" / "versions" / f"chronoid--{old}.sql").exists():
            problems.append(f"{name} updates from {old}, but sql/versions/chronoid--{old}.sql is missing")
    if f"## {version}" not in (ROOT / "CHANGELOG.md").read_text():
        problems.append(f"CHANGELOG.md has no '## {version}' section")
    for p in problems:
        print(f"version mismatch: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
