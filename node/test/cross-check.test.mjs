// The package and the server agree: 100,000 random values per type made by
// the server read here to the same text and bytes, values made here read
// there to the same text and bytes, and both sort them alike.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { Caloriosa, Codokey, Nanoflake, Scru160, Uid60 } from 'chronoid';

const N = Number(process.env.CHRONOID_CROSS_CHECK_N ?? 100_000);
const SERVER_RANDOM = {
  nanoflake: '(floor(random() * 9223372036854775807::numeric))::bigint::nanoflake',
  caloriosa: '(-1 - floor(random() * 9223372036854775807::numeric))::bigint::caloriosa',
  uid60: '(floor(random() * 1152921504606846976::numeric))::bigint::uid60',
  scru160: "decode(md5(random()::text) || substr(md5(random()::text), 1, 8), 'hex')::scru160",
  codokey: "codokey(timestamptz '1970-01-01 00:00:00+00' + random() * interval '1295 years', (random() * 6)::int, 1970, 3265, (ARRAY[9, 99, 999, 9999, 999999])[1 + (random() * 4)::int])",
};
const CLASSES = { nanoflake: Nanoflake, caloriosa: Caloriosa, uid60: Uid60, scru160: Scru160, codokey: Codokey };
const random64 = () => randomBytes(8).readBigUInt64BE();
const MADE_HERE = {
  nanoflake: () => Nanoflake.fromBigInt(random64() >> 1n),
  caloriosa: () => Caloriosa.fromBigInt(BigInt.asIntN(64, random64() | (1n << 63n))),
  uid60: () => Uid60.fromBigInt(random64() >> 4n),
  scru160: () => Scru160.fromBinary(randomBytes(20)),
  codokey: () => Codokey.encode(new Date(Date.UTC(1970, 0, 1) + randomInt(0, 2 ** 47) % (1295 * 365 * 86_400_000)), randomInt(0, 7)),
};

const client = new pg.Client(process.env.DATABASE_URL);
before(() => client.connect());
after(() => client.end());

for (const [name, cls] of Object.entries(CLASSES)) {
  test(`${name}: ${N} values made by the server read the same here`, async () => {
    const { rows } = await client.query(`SELECT v::text AS text, ${name}_send(v) AS sent FROM (SELECT ${SERVER_RANDOM[name]} AS v FROM generate_series(1, $1)) r`, [N]);
    assert.equal(rows.length, N);
    for (const { text, sent } of rows) {
      assert.equal(cls.fromBinary(sent).toText(), text);
      assert.deepEqual(Buffer.from(cls.fromText(text).toBinary()), sent);
    }
  });

  test(`${name}: ${N} values made here read the same there, and sort alike`, async () => {
    const values = Array.from({ length: N }, MADE_HERE[name]);
    const { rows: [{ bad }] } = await client.query(
      `SELECT count(*)::int AS bad FROM unnest($1::text[], $2::bytea[]) AS m(t, b)
       WHERE t::${name}::text <> t OR ${name}_send(t::${name}) <> b`,
      [values.map(String), values.map((v) => Buffer.from(v.toBinary()))]);
    assert.equal(bad, 0);
    const { rows } = await client.query(
      `SELECT (n - 1)::int AS n FROM unnest($1::text[]) WITH ORDINALITY AS m(t, n) ORDER BY t::${name}, n`, [values.map(String)]);
    const here = values.map((v, n) => [v, n]).sort((a, b) => a[0].compare(b[0]) || a[1] - b[1]).map(([, n]) => n);
    assert.deepEqual(rows.map((r) => r.n), here);
  });
}
