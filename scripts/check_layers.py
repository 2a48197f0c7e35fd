#!/usr/bin/env python3
"""Checks the extension crate's layers (src/), as ARCHITECTURE.md draws them.

    src/lib.rs, src/generators.rs,  composition and the views (top)
    src/node_verdicts.rs
    src/types/                      one adapter per SQL type
    src/node/                       which node this server is (node ids)
    src/durable/                    the server-wide generators' durable state
    src/pg/                         PostgreSQL plumbing (bottom)

A file may import files of its own layer and of the layers below it, never
one above; no files import one another in a loop, directly or round a
circle; no file is longer than MAX_LINES. "Import" is any path to another
file of the crate: a `use` (braced groups expanded), or a path written in
the code (`crate::pg::error::error(...)`, `super::fmgr::finfo!`,
`$crate::pg::datum::SqlDatum` in a macro, `pg::guc::define` in lib.rs). `mod x;` declarations are not
imports: a folder's mod.rs lists its files and imports none of them.

Run by `make test` (scripts/test.sh); exits 1 and says what is wrong.
"""

import re
import sys
from pathlib import Path

MAX_LINES = 500
# Lower number, lower layer; a file may import only layers at or below its own.
LAYERS = {"pg": 0, "durable": 1, "node": 2, "types": 3, "top": 4}


def layer_of(rel):
    parts = rel.parts
    if len(parts) > 1 and parts[0] in LAYERS:
        return parts[0]
    return "top"


def strip_comments_and_strings(text):
    # Comments and string literals could hold paths that are no imports.
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'c?b?r#+".*?"#+', '""', text, flags=re.S)
    text = re.sub(r'c?b?"(?:\\.|[^"\\])*"', '""', text, flags=re.S)
    return text


def expand_use_tree(tree):
    """`a::{b, c::{d, e}}` -> ["a::b", "a::c::d", "a::c::e"]."""
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        # split s at top-level commas
        depth, start, items = 0, 0, []
        for i, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(s[start:i])
                start = i + 1
        items.append(s[start:])
        for item in filter(None, items):
            brace = item.find("{")
            if brace >= 0 and item.endswith("}"):
                walk(prefix + item[:brace], item[brace + 1 : -1])
            else:
                out.append(prefix + re.sub(r"as\w+$", "", item))

    walk("", tree)
    return out


def module_of(rel):
    """src/durable/marks.rs -> ["durable", "marks"]; src/pg/mod.rs -> ["pg"]."""
    parts = list(rel.with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return parts


def resolve(path, here, modules):
    """The file a path names, or None (another crate, or an item of `here`)."""
    segs = [s for s in path.split("::") if s]
    if not segs:
        return None
    if segs[0] in ("crate", "$crate"):
        base, segs = [], segs[1:]
    elif segs[0] in ("super", "self"):
        base = list(here)
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
    else:
        return None
    # The longest module prefix that is a file of the crate.
    mod = base
    for s in segs:
        if tuple(mod + [s]) in modules:
            mod = mod + [s]
        else:
            break
    return modules.get(tuple(mod))


def main():
    root = Path(__file__).resolve().parent.parent
    src = root / "src"
    files = sorted(p.relative_to(root) for p in src.rglob("*.rs"))
    modules = {tuple(module_of(f.relative_to("src"))): f for f in files}
    problems = []
    edges = {f: set() for f in files}
    for f in files:
        text = (root / f).read_text()
        lines = text.count("\n")
        if lines > MAX_LINES:
            problems.append(f"{f}: {lines} lines (at most {MAX_LINES})")
        code = strip_comments_and_strings(text)
        here = module_of(f.relative_to("src"))
        paths = []
        for m in re.finditer(r"\buse\s+([^;]+);", code):
            paths += expand_use_tree(m.group(1))
        paths += re.findall(r"(?<![\w:])(\$?crate(?:::\w+)+|super(?:::\w+)+|self(?:::\w+)+)", code)
        # A relative path into a child module (`pg::guc::define` in lib.rs).
        for m in re.findall(r"(?<![\w:$])(\w+)(?:::\w+)+", code):
            if tuple(here + [m]) in modules:
                paths.append("self::" + m)
        for p in paths:
            target = resolve(p, here, modules)
            if target is not None and target != f:
                edges[f].add(target)

    for f, targets in edges.items():
        for t in sorted(targets):
            lf, lt = layer_of(f.relative_to("src")), layer_of(t.relative_to("src"))
            if LAYERS[lt] > LAYERS[lf]:
                problems.append(f"{f} imports {t}: the {lf} layer may not import the {lt} layer above it")

    # Circles: strongly connected components of more than one file (Tarjan).
    index, low, stack, on_stack, sccs = {}, {}, [], set(), []

    def strongconnect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in files:
        if v not in index:
            strongconnect(v)
    for comp in sccs:
        ties = [f"{a} -> {b}" for a in comp for b in sorted(edges[a]) if b in comp]
        problems.append("import circle: " + ", ".join(map(str, comp)) + " (" + "; ".join(ties) + ")")

    if problems:
        print("src/ breaks its layers (ARCHITECTURE.md):")
        for p in problems:
            print("  " + p)
        return 1
    count = sum(len(t) for t in edges.values())
    print(f"src/ layers hold: {len(files)} files, {count} imports, none upward, no circle, none over {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
