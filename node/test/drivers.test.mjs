// Each driver after its one call: all five types as parameters and results,
// in arrays, through COPY where the driver has it (Postgres.js), in text:
// node-postgres's `binary: true` corrupts values with
// bytes above 0x7f when a query has parameters (bigint's too: its
// pg-protocol says "Binary mode not supported yet"), and the other drivers
// read text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import postgres from 'postgres';
import { Kysely, PostgresDialect, sql as ksql } from 'kysely';
import { drizzle } from 'drizzle-orm/node-postgres';
import { eq, gte } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { Caloriosa, Codokey, Nanoflake, Scru160, Uid60 } from 'chronoid';
import { registerTypes as registerPg } from 'chronoid/pg';
import { registerTypes as registerPostgres } from 'chronoid/postgres';
import { caloriosa, codokey, nanoflake, scru160, uid60 } from 'chronoid/drizzle';

const URL = process.env.DATABASE_URL;
const VALUES = [Nanoflake.fromText('3kgeoqm2h3'), Scru160.fromText('05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51'),
  Codokey.fromText('yla0'), Caloriosa.fromText('b8MpZ6ZrkE9'), Uid60.fromText('xinaS8QBh')];
const TYPES = ['nanoflake', 'scru160', 'codokey', 'caloriosa', 'uid60'];
const same = (got, want) => { assert.deepEqual(got.map(String), want.map(String)); got.forEach((g, i) => assert.ok(g.equals(want[i]), `${g} is a ${want[i].constructor.name}`)); };

test('node-postgres: results, parameters, arrays', async () => {
  const client = new pg.Client(URL);
  await client.connect();
  try {
    await registerPg(client);
    const params = TYPES.map((t, i) => `$${i + 1}::${t} AS c${i}`).join(', ');
    {
      const binary = false;
      const { rows: [row] } = await client.query({ text: `SELECT ${params}`, values: VALUES, binary });
      same(Object.values(row), VALUES);
      const arrays = TYPES.map((t, i) => `ARRAY[$${i + 1}::${t}, NULL] AS c${i}`).join(', ');
      const { rows: [arow] } = await client.query({ text: `SELECT ${arrays}`, values: VALUES, binary });
      Object.values(arow).forEach((a, i) => { assert.ok(a[0].equals(VALUES[i])); assert.equal(a[1], null); });
      const { rows: [g] } = await client.query({ text: "SELECT gen_nanoflake() n, gen_scru160() s, codokey(now()) k, gen_caloriosa() c, gen_uid60() u", binary });
      assert.deepEqual(Object.values(g).map((v) => v.constructor.name), ['Nanoflake', 'Scru160', 'Codokey', 'Caloriosa', 'Uid60']);
    }
    // An element spelt like NULL comes quoted in an array's text
    const tricky = Uid60.fromText('NULL');
    const { rows: [t] } = await client.query('SELECT ARRAY[$1::uid60] AS a', [tricky]);
    assert.ok(t.a[0].equals(tricky));
  } finally {
    await client.end();
  }
});

test('node-postgres Pool: OIDs once, every client registered', async () => {
  const pool = new pg.Pool({ connectionString: URL, max: 3 });
  try {
    await registerPg(pool);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => pool.query('SELECT gen_nanoflake() AS id')));
    for (const r of results) assert.ok(r.rows[0].id instanceof Nanoflake);
  } finally {
    await pool.end();
  }
});

test('Postgres.js: results, parameters, arrays', async () => {
  const sql = postgres(URL, { max: 2, onnotice: () => {} });
  try {
    await registerPostgres(sql);
    const [row] = await sql`SELECT ${VALUES[0]}::nanoflake AS a, ${VALUES[1]}::scru160 AS b, ${VALUES[2]}::codokey AS c, ${VALUES[3]}::caloriosa AS d, ${VALUES[4]}::uid60 AS e`;
    same(Object.values(row), VALUES);
    const [arow] = await sql`SELECT ARRAY[${VALUES[0]}::nanoflake, NULL] AS a, ${sql.array(VALUES.slice(0, 1).map(String))}::nanoflake[] AS b`;
    assert.ok(arow.a[0].equals(VALUES[0]) && arow.a[1] === null && arow.b[0].equals(VALUES[0]));
    const [g] = await sql`SELECT gen_nanoflake() AS id`;
    assert.ok(g.id instanceof Nanoflake);
    // COPY: values written as their text
    await sql`CREATE TABLE IF NOT EXISTS js_five (nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60)`;
    await pipeline(Readable.from([VALUES.map(String).join('\t') + '\n']), await sql`COPY js_five FROM STDIN`.writable());
    const [copied] = await sql`SELECT * FROM js_five`;
    same(Object.values(copied), VALUES);
    await sql`DROP TABLE js_five`;
  } finally {
    await sql.end();
  }
});

test('Kysely over node-postgres', async () => {
  const pool = new pg.Pool({ connectionString: URL, max: 2 });
  await registerPg(pool);
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  try {
    await ksql`CREATE TABLE IF NOT EXISTS k_event (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), upload scru160, what text)`.execute(db);
    const { id } = await db.insertInto('k_event').values({ upload: Scru160.generate(), what: 'hello' }).returning('id').executeTakeFirstOrThrow();
    assert.ok(id instanceof Nanoflake);
    const row = await db.selectFrom('k_event').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.ok(row.upload instanceof Scru160 && row.what === 'hello');
    assert.equal((await db.selectFrom('k_event').select('id').where('id', '>=', Nanoflake.floor(id.date)).execute()).length, 1);
    await ksql`DROP TABLE k_event`.execute(db);
  } finally {
    await db.destroy();
  }
});

test('Drizzle over node-postgres (with and without registered parsers)', async () => {
  const events = pgTable('d_event', {
    id: nanoflake('id').primaryKey(), upload: scru160('upload'), day: codokey('day'),
    device: caloriosa('device'), ticket: uid60('ticket'), what: text('what'),
  });
  for (const registered of [false, true]) {
    const pool = new pg.Pool({ connectionString: URL, max: 2 });
    if (registered) await registerPg(pool);
    const db = drizzle(pool);
    try {
      await pool.query('DROP TABLE IF EXISTS d_event; CREATE TABLE d_event (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), upload scru160, day codokey, device caloriosa, ticket uid60, what text)');
      const [{ id }] = await db.insert(events).values({ id: VALUES[0], upload: VALUES[1], day: VALUES[2], device: VALUES[3], ticket: VALUES[4], what: 'x' }).returning({ id: events.id });
      assert.ok(id.equals(VALUES[0]));
      const [row] = await db.select().from(events).where(eq(events.id, id));
      same([row.id, row.upload, row.day, row.device, row.ticket], VALUES);
      assert.equal((await db.select().from(events).where(gte(events.id, Nanoflake.floor(new Date(0 + Date.UTC(2020, 0, 1)))))).length, 1);
      await pool.query('DROP TABLE d_event');
    } finally {
      await pool.end();
    }
  }
});
