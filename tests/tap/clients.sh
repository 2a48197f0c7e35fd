#!/usr/bin/env bash
# Client libraries against a real cluster, as applications use them: the
# formats crate's tokio-postgres, sqlx and serde integrations
# (tests/clients/rust), and the recipes the README shows for psycopg 3,
# asyncpg, SQLAlchemy + alembic, Django (tests/clients/python), node-postgres
# (tests/clients/node) and JDBC (tests/clients/java). Each recipe is a program
# that asserts what it claims; the README's snippets are checked to be
# excerpts of these files.
source "$(dirname "$0")/lib.bash"

DB=chronoid_clients
sql "DROP DATABASE IF EXISTS $DB" && sql "CREATE DATABASE $DB"
TAP_DB=$DB sql "CREATE EXTENSION chronoid"
export CHRONOID_TEST_DSN="host=127.0.0.1 port=$CHRONOID_PORT user=postgres dbname=$DB"
export CHRONOID_TEST_URL="postgresql://postgres@127.0.0.1:$CHRONOID_PORT/$DB"
export CHRONOID_TEST_JDBC="jdbc:postgresql://127.0.0.1:$CHRONOID_PORT/$DB?user=postgres"
VENV=$CHRONOID_VENV

# runs NAME COMMAND...: one TAP line; the command's output as comments when it fails.
runs() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then ok 0 "$name"; else echo "$out" | tail -40 | sed 's/^/# /'; ok 1 "$name"; fi
}

runs "Rust: tokio-postgres, sqlx and serde through chronoid-formats' features" \
    cargo test -q -p chronoid-client-tests
for recipe in psycopg asyncpg sqlalchemy django; do
    runs "Python recipe: $recipe" bash -c "cd tests/clients/python && '$VENV/bin/python' recipe_$recipe.py"
done
runs "node-postgres recipe" bash -c "cd tests/clients/node && npm install --no-audit --no-fund --silent >/dev/null && node recipe.js"
classes=$CHRONOID_TEST_WORK/java-classes
runs "JDBC recipe" bash -c "mkdir -p '$classes' && javac -d '$classes' tests/clients/java/Recipe.java \
    && java -cp '$classes:/usr/share/java/postgresql.jar' Recipe"
runs "every README snippet is an excerpt of a recipe that ran here" python3 scripts/check_readme_recipes.py

sql "DROP DATABASE $DB WITH (FORCE)"
done_testing
