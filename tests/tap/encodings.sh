#!/usr/bin/env bash
# Text that is not valid UTF-8 reaches chronoid's functions in SQL_ASCII and
# LATIN1 databases: every text argument and every input function answers
# 22P02 (or PostgreSQL's own 22021), echoing the bad bytes readably, never
# an internal error (XX000) or a crash; valid input works in every encoding.
source "$(dirname "$0")/lib.bash"

for enc in SQL_ASCII LATIN1 UTF8; do
    db=chronoid_enc_$(echo "$enc" | tr 'A-Z' 'a-z')
    TAP_DB=postgres sql "DROP DATABASE IF EXISTS $db"
    TAP_DB=postgres sql "CREATE DATABASE $db ENCODING '$enc' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0"
    TAP_DB=$db sql "CREATE EXTENSION chronoid"
    state() {
        "${PSQL[@]}" -p "$CHRONOID_PORT" -d "$db" -v VERBOSITY=verbose -c "$1" 2>&1 | sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): .*/\1/p' | head -1 || true
    }
    for q in "SELECT codokey(E'y\\xffj', 1970, 3265, 9)" \
             "SELECT codokey(convert_from('\\xe9'::bytea, 'LATIN1'), 1970, 3265, 9)" \
             "SELECT codokey(convert_from('\\x79c3a9'::bytea, 'UTF8'), 1970, 3265, 9)" \
             "SELECT E'yj\\xff'::codokey" "SELECT E'\\xe9'::nanoflake" "SELECT E'\\xe9\\xe9'::scru160" \
             "SELECT E'\\xff'::caloriosa" "SELECT E'\\xff'::uid60" \
             "SELECT convert_from('\\xe9'::bytea, 'LATIN1')::codokey"; do
        got=$(state "$q")
        case "$got" in
            22P02 | 22021) ok 0 "$enc: $q -> $got" ;;
            *) ok 1 "$enc: $q -> '$got' (want 22P02 or 22021)" ;;
        esac
    done
    is "$(TAP_DB=$db sql "SELECT codokey('YJBU', 1970, 3265, 9), 'yjbu'::codokey, '1'::nanoflake, codokey(date '2022-01-01', 0)")" \
        "yjbu|yjbu|1|yj" "$enc: valid text works"
done
# The message shows the bad byte as \xNN where the database is not UTF8.
got=$("${PSQL[@]}" -p "$CHRONOID_PORT" -d chronoid_enc_sql_ascii -c "SELECT codokey(E'y\\xffj', 1970, 3265, 9)" 2>&1 || true)
is "$got" 'ERROR:  invalid input syntax for type codokey: "y\xffj"' "SQL_ASCII: the message escapes the byte"
got=$("${PSQL[@]}" -p "$CHRONOID_PORT" -d chronoid_enc_utf8 -c "SELECT 'yjé'::codokey" 2>&1 || true)
is "$(echo "$got" | head -1)" 'ERROR:  invalid input syntax for type codokey: "yjé"' "UTF8: the message shows the text as typed"
for enc in sql_ascii latin1 utf8; do TAP_DB=postgres sql "DROP DATABASE chronoid_enc_$enc"; done
done_testing
