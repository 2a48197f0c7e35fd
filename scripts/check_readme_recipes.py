#!/usr/bin/env python3
"""Checks that every code block in README.md and docs/*.md marked
`<!-- recipe: PATH -->` on the line before its opening fence appears, line
for line, in PATH (a recipe that tests/t/021_clients.pl runs), so the docs
show executed code."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
text = "".join(p.read_text() for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))])
blocks = re.findall(r"<!-- recipe: (\S+) -->\n```\w*\n(.*?)```", text, re.S)
if not blocks:
    sys.exit("README.md and docs/ have no recipe snippets")
bad = 0
for path, block in blocks:
    source = (root / path).read_text()
    if block.strip("\n") not in source:
        print(f"README snippet for {path} is not an excerpt of it:\n{block}")
        bad += 1
print(f"{len(blocks)} snippets checked (README.md, docs/)")
sys.exit(1 if bad else 0)
