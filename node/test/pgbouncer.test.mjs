// node-postgres and Postgres.js through PgBouncer in transaction mode
// (CHRONOID_PGBOUNCER_URL: PgBouncer 1.18, a pool of two server
// connections, tests/t/Chronoid.pm's start_pgbouncer). Each transaction
// may meet another server connection, and 1.18 does not carry prepared
// statements across: each driver writes and reads back all five types
// from clients that share the two server connections, and the one setting
// each needs is shown to matter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import postgres from 'postgres';
import { Caloriosa, Codokey, Nanoflake, Scru160, Uid60 } from 'chronoid';
import { registerTypes as registerPg } from 'chronoid/pg';
import { registerTypes as registerPostgres } from 'chronoid/postgres';

const URL = process.env.CHRONOID_PGBOUNCER_URL;
const CLIENTS = 6;
const TASKS = 24;
const TYPES = ['nanoflake', 'scru160', 'codokey', 'caloriosa', 'uid60'];
const CLASSES = [Nanoflake, Scru160, Codokey, Caloriosa, Uid60];
// Column c_<type> is written, g_<type> is the server's default, a_<type> an array.
const GENERATORS = ['gen_nanoflake()', 'gen_scru160()', 'codokey(now())', 'gen_caloriosa()', 'gen_uid60()'];
const DDL = (table) => `CREATE TABLE ${table} (n int PRIMARY KEY, `
  + TYPES.map((t, i) => `c_${t} ${t}, g_${t} ${t} DEFAULT ${GENERATORS[i]}, a_${t} ${t}[]`).join(', ') + ')';
const INSERT = (table) => `INSERT INTO ${table} (n, ${TYPES.map((t) => `c_${t}, a_${t}`).join(', ')}) VALUES ($1, `
  + TYPES.map((t, i) => `$${2 * i + 2}, $${2 * i + 3}`).join(', ') + ') RETURNING *, pg_backend_pid() AS pid';

// Five values for task n, different for each task.
const valuesOf = (n) => [Nanoflake.fromBigInt(1_000_000n + BigInt(n)), Scru160.generate(),
  Codokey.encode(new Date(Date.UTC(2020, 0, 1 + n))), Caloriosa.fromBigInt(-1_000_000n - BigInt(n)), Uid60.fromBigInt(5_000_000n + BigInt(n))];

function assertRow(row, values) {
  TYPES.forEach((t, i) => {
    assert.ok(row[`c_${t}`] instanceof CLASSES[i] && row[`c_${t}`].equals(values[i]), `c_${t}: ${row[`c_${t}`]}`);
    assert.ok(row[`g_${t}`] instanceof CLASSES[i], `g_${t} is a ${CLASSES[i].name}`);
    assert.equal(row[`a_${t}`].length, 2);
    assert.ok(row[`a_${t}`][0].equals(values[i]) && row[`a_${t}`][1] === null, `a_${t}`);
  });
}

// After `first` ran on a server connection, a transaction of another client
// takes that connection (PgBouncer hands out the most recently used one
// first), so the client's next statement runs on the other server
// connection of the pool.
async function onTheOtherServer(first, next) {
  const firstPid = await first();
  const holder = new pg.Client(URL);
  await holder.connect();
  try {
    await holder.query('BEGIN');
    const { rows: [{ pid }] } = await holder.query('SELECT pg_backend_pid() AS pid');
    assert.equal(pid, firstPid, 'the holder has the server connection the statement was prepared on');
    return await next();
  } finally {
    await holder.query('COMMIT');
    await holder.end();
  }
}

test('CHRONOID_PGBOUNCER_URL names PgBouncer', () => {
  assert.match(URL ?? '', /^postgres(ql)?:\/\//, 'CHRONOID_PGBOUNCER_URL: run through tests/t/025_node_package.pl');
});

test('node-postgres: named statements fail when the server connection changes', { skip: !URL }, async () => {
  const client = new pg.Client(URL);
  await client.connect();
  try {
    // A name of this run: the statement stays on its server connection after
    // the client leaves, and the next client to prepare that name there
    // would fail with 42P05 "already exists" (the other face of the issue).
    const name = `chronoid_nanoflake_by_id_${process.pid}_${Date.now()}`;
    const byId = { name, text: 'SELECT pg_backend_pid() AS pid, $1::nanoflake AS id', values: ['3kgeoqm2h3'] };
    await assert.rejects(
      onTheOtherServer(async () => (await client.query(byId)).rows[0].pid, () => client.query(byId)),
      { code: '26000', message: `prepared statement "${name}" does not exist` });
  } finally {
    await client.end();
  }
});

test('node-postgres Pool: all five types written and read back by clients sharing two server connections', { skip: !URL }, async () => {
  const pool = new pg.Pool({ connectionString: URL, max: CLIENTS });
  try {
    await registerPg(pool);
    await pool.query('DROP TABLE IF EXISTS pgbouncer_node_pg');
    await pool.query(DDL('pgbouncer_node_pg'));
    const pids = new Set();
    const clients = new Set();
    pool.on('acquire', (c) => clients.add(c));
    await Promise.all(Array.from({ length: TASKS }, async (_, n) => {
      const values = valuesOf(n);
      const params = [n, ...values.flatMap((v) => [v, [v, null]])];
      const { rows: [inserted] } = await pool.query(INSERT('pgbouncer_node_pg'), params);
      assertRow(inserted, values);
      pids.add(inserted.pid);
      // Parameters in the WHERE clause, read in text.
      const { rows: [read] } = await pool.query(`SELECT *, pg_backend_pid() AS pid FROM pgbouncer_node_pg WHERE n = $1 AND ${TYPES.map((t, i) => `c_${t} = $${i + 2}`).join(' AND ')}`, [n, ...values]);
      assertRow(read, values);
      pids.add(read.pid);
      // Binary results (node-postgres reads them only without parameters).
      const { rows: [binary] } = await pool.query({ text: `SELECT * FROM pgbouncer_node_pg WHERE n = ${n}`, binary: true });
      assertRow(binary, values);
      // A range query: the generated ids of this task and earlier ones.
      const { rows: range } = await pool.query('SELECT g_nanoflake FROM pgbouncer_node_pg WHERE g_nanoflake <= $1 ORDER BY g_nanoflake', [read.g_nanoflake]);
      assert.ok(range.length >= 1 && range.at(-1).g_nanoflake.equals(read.g_nanoflake));
    }));
    assert.ok(clients.size > 2, `${clients.size} clients`);
    assert.ok(pids.size <= 2, `server connections: ${[...pids]}`);
    const { rows: [{ count }] } = await pool.query('SELECT count(DISTINCT g_nanoflake)::int AS count FROM pgbouncer_node_pg');
    assert.equal(count, TASKS);
    await pool.query('DROP TABLE pgbouncer_node_pg');
  } finally {
    await pool.end();
  }
});

test('Postgres.js: its prepared statements (the default) fail in a transaction on another server connection', { skip: !URL }, async () => {
  const sql = postgres(URL, { max: 1, onnotice: () => {} });
  try {
    await registerPostgres(sql);
    const id = Nanoflake.fromText('3kgeoqm2h3');
    const byId = (q) => q`SELECT pg_backend_pid() AS pid, ${id}::nanoflake AS id`;
    // Outside a transaction, Postgres.js prepares again once on that error;
    // inside one, the transaction is aborted by then.
    await assert.rejects(
      onTheOtherServer(async () => (await byId(sql))[0].pid, () => sql.begin((tx) => byId(tx))),
      { code: '26000', message: /^prepared statement ".+" does not exist$/ });
  } finally {
    await sql.end();
  }
});

test('Postgres.js with prepare: false: all five types written and read back by clients sharing two server connections', { skip: !URL }, async () => {
  const sql = postgres(URL, { max: CLIENTS, prepare: false, onnotice: () => {} });
  try {
    await registerPostgres(sql);
    await sql.unsafe('DROP TABLE IF EXISTS pgbouncer_node_postgres');
    await sql.unsafe(DDL('pgbouncer_node_postgres'));
    const pids = new Set();
    // Where the demonstration above fails: the same statement prepared, then
    // run in a transaction on the other server connection.
    const id = Nanoflake.fromText('3kgeoqm2h3');
    const byId = (q) => q`SELECT pg_backend_pid() AS pid, ${id}::nanoflake AS id`;
    const [again] = await onTheOtherServer(async () => (await byId(sql))[0].pid, () => sql.begin((tx) => byId(tx)));
    assert.ok(again.id.equals(id));
    await Promise.all(Array.from({ length: TASKS }, async (_, n) => {
      const values = valuesOf(n);
      const params = [n, ...values.flatMap((v) => [v, [v, null]])];
      const [inserted] = await sql.unsafe(INSERT('pgbouncer_node_postgres'), params);
      assertRow(inserted, values);
      pids.add(inserted.pid);
      const [read] = await sql`SELECT *, pg_backend_pid() AS pid FROM pgbouncer_node_postgres
        WHERE n = ${n} AND c_nanoflake = ${values[0]} AND c_scru160 = ${values[1]} AND c_codokey = ${values[2]}
        AND c_caloriosa = ${values[3]} AND c_uid60 = ${values[4]}`;
      assertRow(read, values);
      pids.add(read.pid);
      // In a transaction, and a range query over the generated ids.
      const range = await sql.begin((tx) => tx`SELECT g_nanoflake FROM pgbouncer_node_postgres
        WHERE g_nanoflake <= ${read.g_nanoflake} ORDER BY g_nanoflake`);
      assert.ok(range.length >= 1 && range.at(-1).g_nanoflake.equals(read.g_nanoflake));
    }));
    assert.ok(pids.size <= 2, `server connections: ${[...pids]}`);
    const [{ count }] = await sql`SELECT count(DISTINCT g_nanoflake)::int AS count FROM pgbouncer_node_postgres`;
    assert.equal(count, TASKS);
    await sql.unsafe('DROP TABLE pgbouncer_node_postgres');
  } finally {
    await sql.end();
  }
});
