#!/usr/bin/env python3
"""Fails (exit 1) unless META.json (or the file given) follows the PGXN Meta
Spec 1.0.0 (https://pgxn.org/spec/): the required keys, their types, semantic
versions, known licences, phases and relationships, and x_-prefixed custom
keys only. PGXN Manager rejects an upload whose META.json fails these.

    python3 scripts/check_meta_json.py [path/to/META.json]
"""
import json
import pathlib
import re
import sys

SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$")
# "version ranges" in prereqs: a version, optionally with an operator, comma-separated.
RANGE = re.compile(r"^\s*(([<>]=?|==|!=)\s*)?(0|[1-9]\d*)(\.(0|[1-9]\d*)){0,2}(-[0-9A-Za-z-]+)?\s*$")
LICENSES = {
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
    "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1",
    "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source",
    "restricted", "unrestricted", "unknown",
}
KNOWN = {
    "name", "abstract", "description", "version", "maintainer", "license", "provides", "prereqs",
    "resources", "generated_by", "meta-spec", "tags", "no_index", "release_status",
}
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONSHIPS = {"requires", "recommends", "suggests", "conflicts"}


def problems_of(meta: dict) -> list:
    out = []
    for key in ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"):
        if key not in meta:
            out.append(f"missing required key {key!r}")
    for key in meta:
        if key not in KNOWN and not key.lower().startswith("x_"):
            out.append(f"unknown key {key!r} (custom keys start with x_)")
    name = meta.get("name", "")
    if not isinstance(name, str) or len(name) < 2 or re.search(r"[/\\:\s\x00-\x1f]", name):
        out.append(f"name {name!r}: at least two characters, no slash, backslash, colon or space")
    for key in ("abstract", "description", "generated_by"):
        if key in meta and not (isinstance(meta[key], str) and meta[key].strip()):
            out.append(f"{key} must be a non-empty string")
    if not SEMVER.match(str(meta.get("version", ""))):
        out.append(f"version {meta.get('version')!r} is not a semantic version")
    maintainers = meta.get("maintainer")
    maintainers = [maintainers] if isinstance(maintainers, str) else maintainers
    if not maintainers or not all(isinstance(m, str) and m.strip() for m in maintainers):
        out.append("maintainer: a string or a list of strings")
    licenses = meta.get("license")
    if isinstance(licenses, str):
        licenses = [licenses]
    if isinstance(licenses, dict):
        pass  # {"name": "url"} is allowed
    elif not licenses or any(lic not in LICENSES for lic in licenses):
        out.append(f"license {meta.get('license')!r}: values from the spec's list")
    provides = meta.get("provides")
    if not isinstance(provides, dict) or not provides:
        out.append("provides: an object naming at least one extension")
    else:
        for ext, spec in provides.items():
            if not isinstance(spec, dict) or "file" not in spec or "version" not in spec:
                out.append(f"provides.{ext}: needs file and version")
            elif not SEMVER.match(str(spec["version"])):
                out.append(f"provides.{ext}.version {spec['version']!r} is not a semantic version")
    for phase, rels in meta.get("prereqs", {}).items():
        if phase not in PHASES:
            out.append(f"prereqs: unknown phase {phase!r}")
            continue
        for rel, reqs in rels.items():
            if rel not in RELATIONSHIPS:
                out.append(f"prereqs.{phase}: unknown relationship {rel!r}")
                continue
            for what, ver in reqs.items():
                if not all(RANGE.match(part) for part in str(ver).split(",")):
                    out.append(f"prereqs.{phase}.{rel}.{what}: {ver!r} is not a version range")
    spec = meta.get("meta-spec", {})
    if spec.get("version") != "1.0.0":
        out.append("meta-spec.version must be 1.0.0")
    if "release_status" in meta and meta["release_status"] not in ("stable", "testing", "unstable"):
        out.append("release_status: stable, testing or unstable")
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and 0 < len(t) < 256 for t in tags):
        out.append("tags: a list of strings shorter than 256 characters")
    resources = meta.get("resources", {})
    for key in resources:
        if key not in ("homepage", "bugtracker", "repository") and not key.lower().startswith("x_"):
            out.append(f"resources: unknown key {key!r}")
    no_index = meta.get("no_index", {})
    for key, value in no_index.items():
        if key not in ("file", "directory") or not isinstance(value, (list, str)):
            out.append(f"no_index.{key}: file or directory, a string or a list")
    return out


def main() -> int:
    path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent / "META.json")
    problems = problems_of(json.loads(path.read_text()))
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
