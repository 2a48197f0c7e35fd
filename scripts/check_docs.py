#!/usr/bin/env python3
"""Fails (exit 1) where the docs and the code disagree on what a user reads:

- every message the code raises (an ERROR, a WARNING or FATAL it reports
  with a SQLSTATE, a RAISE in the extension's SQL) is a row of the error
  table in docs/reference.md ("## Errors"), with its SQLSTATE, and every
  row there is a message the code still raises;
- every reason a verdict refuses or waits for (the code marks each with
  `reason!`) is a row of the refusal table in docs/across-servers.md
  ("## Refusals"), and every row there is one the code still makes;
- every setting the code defines is a row of the settings table in
  docs/reference.md ("## Configuration parameters"), and every row there is
  defined;
- every figure the README quotes under "## Benchmarks" is in BENCHMARKS.md.

A row matches a message when each piece of the message's text between its
placeholders (`{...}` in Rust, `%` in SQL) is in the row's message, in
order; the row writes a placeholder as `…` or as an example value. So the
docs may say `gen_nanoflake()` where the code says `{function}`, but
cannot drop or reword a word of the message.

    python3 scripts/check_docs.py          # check
    python3 scripts/check_docs.py --list   # print what the code raises
    python3 scripts/check_docs.py --self-test   # each kind of drift, made
                                                # in a copy, must fail it
"""
import pathlib
import re
import sys

import os
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(os.environ.get("CHRONOID_CHECK_ROOT") or pathlib.Path(__file__).resolve().parent.parent)

# PostgreSQL's error codes chronoid uses (utils/errcodes.h), by name.
SQLSTATES = {
    "WARNING": "01000",
    "DATA_CORRUPTED": "XX001",
    "DATETIME_FIELD_OVERFLOW": "22008",
    "INSUFFICIENT_PRIVILEGE": "42501",
    "INTERNAL_ERROR": "XX000",
    "INVALID_BINARY_REPRESENTATION": "22P03",
    "INVALID_PARAMETER_VALUE": "22023",
    "INVALID_TEXT_REPRESENTATION": "22P02",
    "IO_ERROR": "58030",
    "NUMERIC_VALUE_OUT_OF_RANGE": "22003",
    "OBJECT_NOT_IN_PREREQUISITE_STATE": "55000",
    "PROGRAM_LIMIT_EXCEEDED": "54000",
    "READ_ONLY_SQL_TRANSACTION": "25006",
    "UNDEFINED_FILE": "58P01",
    "UNDEFINED_OBJECT": "42704",
    "PROTOCOL_VIOLATION": "08P01",
}
# Condition names a RAISE in sql/ uses (PostgreSQL's appendix A).
CONDITIONS = {
    "wrong_object_type": "42809",
    "undefined_column": "42703",
    "feature_not_supported": "0A000",
    "object_not_in_prerequisite_state": "55000",
    "numeric_value_out_of_range": "22003",
    "datatype_mismatch": "42804",
    "invalid_parameter_value": "22023",
    "null_value_not_allowed": "22004",
    "invalid_transaction_state": "25000",
    "insufficient_privilege": "42501",
}

# A raise whose message is not written where it is raised: where the text
# is (the bodies of these functions, each literal a message).
INDIRECT = {
    "T::recv_rejects(bits)": r"fn recv_rejects\(",
    "T::bigint_rejects(value)": r"fn bigint_rejects\(",
}
# Raises of text chronoid does not write (an operating system's error,
# which names the file): the row that documents them.
FOREIGN = {
    "e.to_string()": "could not write file",
}
# Helpers that raise with a fixed SQLSTATE: name -> SQLSTATE; and where the
# message is the helper's second argument (`shown(answer, "what")`, whose
# ERROR reads "what: why").
HELPERS = {"bad_marks_file(": "XX001"}
PREFIXED = {r"\bshown\(\s*answer,": "58030"}
# Messages whose text is all an operating system's error (`chronoid: {e}`,
# `{what}: {why}`): where they are raised, and what the row says instead.
NO_TEXT = {
    "src/durable/startup.rs": "chronoid: could not write file",
    "src/pg/guc.rs": None,  # its callers' texts come from PREFIXED
}


def rust_sources():
    for base in ("src", "formats/src"):
        for path in sorted((ROOT / base).rglob("*.rs")):
            text = path.read_text()
            # Test modules sit at the end of a file, after their cfg.
            cut = re.search(r"(?m)^#\[cfg\((any\()?test", text)
            if cut:
                text = text[: cut.start()]
            yield path.relative_to(ROOT).as_posix(), text


STRING = re.compile(r'(?<![A-Za-z0-9_])c?"((?:[^"\\]|\\.)*)"', re.S)


def unescape(s: str) -> str:
    s = re.sub(r"\\\n\s*", "", s)
    return s.replace('\\"', '"').replace("\\\\", "\\").replace("\\n", "\n")


def template(s: str) -> str:
    """A Rust format string with its placeholders as `…`."""
    s = unescape(s).replace("{{", "\0").replace("}}", "\1")
    s = re.sub(r"\{[^{}]*\}", "…", s)
    return s.replace("\0", "{").replace("\1", "}")


def first_string(text: str, start: int, stop: int):
    m = STRING.search(text, start, stop)
    return m and template(m.group(1))


def statement_end(text: str, start: int) -> int:
    """Where the expression or statement starting near `start` ends: a `;`,
    or a `)`/`}` closing what was open before it, at depth 0."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == '"':
            m = STRING.match(text, i)
            if m:
                i = m.end()
                continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return i
        elif c == ";" and depth == 0:
            return i
        i += 1
    return i


def code_messages(problems):
    """(kind, sqlstate, template, where): kind "raise" or "reason"."""
    found = []
    sources = dict(rust_sources())
    for path, text in sources.items():
        for m in re.finditer(r"PgSqlErrorCode::ERRCODE_(\w+)\s*,\s*", text):
            name = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            where = f"{path}:{line}"
            if name not in SQLSTATES:
                problems.append(f"{where}: ERRCODE_{name}: add its SQLSTATE to check_docs.py")
                continue
            state = SQLSTATES[name]
            if "fn bad_marks_file" in text[max(0, m.start() - 200): m.start()]:
                continue  # a helper: its callers are read below
            end = statement_end(text, m.end())
            arg = re.sub(r"^\s*message:\s*", "", text[m.end(): end])
            head = arg.split("\n")[0].strip().rstrip(",")
            if arg.lstrip().startswith(('"', "format!(", "&format!(")):
                message = first_string(text, m.end(), end)
                if not pieces(message) and path in NO_TEXT:
                    if NO_TEXT[path]:
                        found.append(("raise", state, NO_TEXT[path], where))
                    continue
                found.append(("raise", state, message, where))
            elif head in INDIRECT:
                for p2, t2 in sources.items():
                    for f in re.finditer(INDIRECT[head], t2):
                        if t2.find(";", f.end()) < t2.find("{", f.end()):
                            continue  # a declaration
                        body_end = statement_end(t2, t2.index("{", f.end()) + 1)
                        for s in STRING.finditer(t2, f.end(), body_end):
                            found.append(("raise", state, template(s.group(1)), f"{p2}:{t2.count(chr(10), 0, f.start()) + 1}"))
            elif head in FOREIGN:
                if FOREIGN[head]:
                    found.append(("raise", state, FOREIGN[head], where))
            elif re.fullmatch(r"[a-z_]+", head):
                # A local variable: the `let` that wrote it, before the raise.
                lets = list(re.finditer(rf"let {head} = ", text[: m.start()]))
                if not lets:
                    problems.append(f"{where}: cannot find the message {head!r}")
                    continue
                s = first_string(text, lets[-1].end(), m.start())
                found.append(("raise", state, s, where))
            else:
                problems.append(f"{where}: cannot read the message ({head!r}): write it at the raise, or add it to check_docs.py's INDIRECT")
        for helper, state in HELPERS.items():
            for m in re.finditer(re.escape(helper), text):
                if text[max(0, m.start() - 7): m.start()].endswith("fn "):
                    continue
                line = text.count("\n", 0, m.start()) + 1
                s = first_string(text, m.end(), statement_end(text, m.end()))
                found.append(("raise", state, s, f"{path}:{line}"))
        for pattern, state in PREFIXED.items():
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                s = first_string(text, m.end(), statement_end(text, m.end()))
                found.append(("raise", state, s + ": …", f"{path}:{line}"))
        for m in re.finditer(r"pgrx::error!\(", text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(("raise", "XX000", first_string(text, m.end(), statement_end(text, m.end())), f"{path}:{line}"))
        for m in re.finditer(r"reason!\(", text):
            if text[max(0, m.start() - 14): m.start()].endswith("macro_rules! "):
                continue
            line = text.count("\n", 0, m.start()) + 1
            found.append(("reason", None, first_string(text, m.end(), statement_end(text, m.end())), f"{path}:{line}"))
    for path in sorted((ROOT / "sql").glob("*.sql")):
        if path.name.startswith("chronoid--"):
            continue  # released update scripts: what they raise is in adopt.sql
        text = path.read_text()
        for m in re.finditer(r"RAISE EXCEPTION\s+'((?:[^']|'')*)'(.*?);", text, re.S):
            cond = re.search(r"ERRCODE = '(\w+)'", m.group(2))
            state = "P0001"
            if cond:
                state = CONDITIONS.get(cond.group(1), cond.group(1) if re.fullmatch(r"[0-9A-Z]{5}", cond.group(1)) else "?")
                if state == "?":
                    problems.append(f"{path.name}: condition {cond.group(1)}: add its SQLSTATE to check_docs.py")
            line = text.count("\n", 0, m.start()) + 1
            found.append(("raise", state, m.group(1).replace("''", "'").replace("%", "…"), f"sql/{path.name}:{line}"))
    return found


def pieces(message: str):
    """The message's own text: what lies between its placeholders, each
    piece that holds a letter or a digit."""
    return [p.strip() for p in message.split("…") if re.search(r"\w", p)]


def matches(code: str, row: str) -> bool:
    """Whether the row's message shows the code's message: its pieces in order."""
    at = 0
    for p in pieces(code):
        i = row.find(p, at)
        if i < 0:
            return False
        at = i + len(p)
    return True


def table_rows(path: pathlib.Path, heading: str, every: bool = False):
    """The body rows of the first table under `heading` (of every table up
    to the next heading of its level, with `every`), as lists of cells."""
    text = path.read_text()
    m = re.search(rf"(?m)^{re.escape(heading)}\s*$", text)
    if not m:
        return None
    level = heading.split()[0] + " "
    rows, in_table, tables = [], False, 0
    for line in text[m.end():].splitlines():
        if line.startswith(level) or (not every and line.startswith("#")):
            break
        if not line.startswith("|"):
            if in_table:
                in_table = False
                if not every:
                    break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if not in_table:
            in_table, tables = True, tables + 1
            continue  # the header
        if all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        rows.append(cells)
    return rows


def code_text(cell: str) -> str:
    """The message in a cell: the text of its code spans, joined."""
    spans = re.findall(r"`([^`]*)`", cell)
    return " ".join(spans).replace("\\|", "|")


def check_messages(problems, found):
    errors = table_rows(ROOT / "docs/reference.md", "## Errors", every=True)
    reasons = table_rows(ROOT / "docs/across-servers.md", "## Refusals")
    if errors is None:
        problems.append("docs/reference.md has no '## Errors' table")
        return
    if reasons is None:
        problems.append("docs/across-servers.md has no '## Refusals' table")
        return
    error_rows = [(r[0].split()[0].strip("`*"), code_text(r[1]), r) for r in errors]
    # What PostgreSQL raises for chronoid's objects is listed, not raised here.
    foreign = {i for i, r in enumerate(errors) if "*PostgreSQL*" in r[0]}
    reason_rows = [(code_text(r[0]), r) for r in reasons]
    used_errors, used_reasons = set(), set()
    for kind, state, message, where in found:
        if message is None:
            problems.append(f"{where}: no message text found")
            continue
        if not pieces(message):
            problems.append(f"{where}: message {message!r} has no text of its own to find in the docs")
            continue
        if kind == "raise":
            hits = [i for i, (s, m, _) in enumerate(error_rows) if s == state and matches(message, m)]
            if not hits:
                problems.append(f"{where}: {state} {message!r} is not in docs/reference.md's error table")
            used_errors.update(hits)
        else:
            hits = [i for i, (m, _) in enumerate(reason_rows) if matches(message, m)]
            if not hits:
                problems.append(f"{where}: the reason {message!r} is not in docs/across-servers.md's refusal table")
            used_reasons.update(hits)
    for i, (state, message, _) in enumerate(error_rows):
        if i not in used_errors and i not in foreign:
            problems.append(f"docs/reference.md's error table lists {state} {message!r}, which the code does not raise")
    for i, (message, _) in enumerate(reason_rows):
        if i not in used_reasons:
            problems.append(f"docs/across-servers.md's refusal table lists {message!r}, which the code does not make")


def check_settings(problems):
    defined = set()
    for _, text in rust_sources():
        for m in re.finditer(r"names:\s*&\[([^\]]*)\]", text):
            defined.update(re.findall(r'c"(chronoid\.\w+)"', m.group(1)))
    rows = table_rows(ROOT / "docs/reference.md", "## Configuration parameters") or []
    listed = set()
    for r in rows:
        listed.update(re.findall(r"`(chronoid\.\w+)`", r[0]))
    for name in sorted(defined - listed):
        problems.append(f"the code defines {name}, which docs/reference.md's settings table lacks")
    for name in sorted(listed - defined):
        problems.append(f"docs/reference.md's settings table lists {name}, which the code does not define")
    if not defined:
        problems.append("found no setting in the code (names: &[...])")


def check_figures(problems):
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"(?ms)^## Benchmarks\n(.*?)(?=^## )", readme)
    if not m:
        problems.append("README.md has no '## Benchmarks' section")
        return
    bench = (ROOT / "BENCHMARKS.md").read_text()
    # A figure: a number with a decimal point or a unit, or a ratio (0.84×).
    for fig in re.findall(r"\d[\d,]*(?:\.\d+)?(?:[-–]\d[\d,]*(?:\.\d+)?)?\s?(?:×|ns|µs|ms|%)", m.group(1)):
        bare = re.sub(r"\s?(×|ns|µs|ms|%)$", "", fig)
        for part in re.split(r"[-–]", bare):
            if not re.search(rf"(?<![\d.]){re.escape(part)}(?![\d])", bench):
                problems.append(f"README.md quotes {fig!r} under Benchmarks, but {part!r} is not in BENCHMARKS.md")


# Each kind of drift the check must catch: (file, text, replacement, what
# its complaint must say).
DRIFTS = [
    ("src/durable/set_mark.rs", "permission denied to set a chronoid", "permission denied to move a chronoid",
     "is not in docs/reference.md's error table"),
    ("src/durable/set_mark.rs", "ERRCODE_INSUFFICIENT_PRIVILEGE", "ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE",
     "55000 'permission denied"),
    ("src/node/facts.rs", '"more than {} databases', '"over {} databases',
     "is not in docs/across-servers.md's refusal table"),
    ("src/node/handover.rs", 'names: &[c"chronoid.handover"]', 'names: &[c"chronoid.handover", c"chronoid.drift"]',
     "the code defines chronoid.drift"),
    ("docs/reference.md", "| 22004 | `chronoid_adopt_column() takes no NULL argument`", "| 22004 | `gone`",
     "22004 'chronoid_adopt_column() takes no NULL argument' is not in"),
    ("docs/reference.md", "| `chronoid.node_id_base` |", "| `chronoid.node_id_bases` |",
     "lists chronoid.node_id_bases, which the code does not define"),
    ("README.md", "## Benchmarks\n", "## Benchmarks\n\nA nanoflake costs 12.345 ns.\n",
     "'12.345' is not in BENCHMARKS.md"),
]


def self_test() -> int:
    failures = 0
    for path, old, new, complaint in DRIFTS:
        with tempfile.TemporaryDirectory() as tmp:
            for part in ("src", "formats/src", "sql", "docs"):
                shutil.copytree(ROOT / part, pathlib.Path(tmp) / part)
            for name in ("README.md", "BENCHMARKS.md"):
                shutil.copy(ROOT / name, pathlib.Path(tmp) / name)
            target = pathlib.Path(tmp) / path
            text = target.read_text()
            if old not in text:
                print(f"check_docs --self-test: {path} no longer holds {old!r}: update DRIFTS", file=sys.stderr)
                failures += 1
                continue
            target.write_text(text.replace(old, new, 1))
            run = subprocess.run([sys.executable, __file__], env={**os.environ, "CHRONOID_CHECK_ROOT": tmp},
                                 capture_output=True, text=True)
            if run.returncode == 0 or complaint not in run.stderr:
                print(f"check_docs --self-test: {path}: {old!r} -> {new!r} was not caught ({complaint!r})", file=sys.stderr)
                failures += 1
    print(f"check_docs --self-test: {len(DRIFTS) - failures} of {len(DRIFTS)} drifts caught")
    return 1 if failures else 0


def main() -> int:
    if "--self-test" in sys.argv:
        return self_test()
    problems = []
    found = code_messages(problems)
    if "--list" in sys.argv:
        for kind, state, message, where in found:
            print(f"{kind:6} {state or '':5} {where:38} {message}")
        return 0
    check_messages(problems, found)
    check_settings(problems)
    check_figures(problems)
    for p in problems:
        print(f"check_docs: {p}", file=sys.stderr)
    if problems:
        print(f"check_docs: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check_docs: {len(found)} messages, the settings and the README's figures agree with the docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
