// node-postgres: what works as is, and the base-36 trap for numbers.
const { Client, types } = require('pg');

async function main() {
  const client = new Client({ connectionString: process.env.CHRONOID_TEST_URL });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS chronoid');
  await client.query('DROP TABLE IF EXISTS node_event');
  await client.query('CREATE TABLE node_event (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), what text)');

  // As is: results are strings (the text form), parameters are sent as text.
  const { rows } = await client.query("INSERT INTO node_event (what) VALUES ('hello') RETURNING id");
  const id = rows[0].id;
  if (typeof id !== 'string') throw new Error('expected the text form');
  const found = await client.query('SELECT what FROM node_event WHERE id = $1', [id]);
  if (found.rows[0].what !== 'hello') throw new Error('lookup by id');

  // The trap: a JS number is sent as text, and nanoflake text is base 36.
  const trap = await client.query('SELECT $1::nanoflake::bigint AS n', [12345]);
  if (trap.rows[0].n !== '1776965') throw new Error('expected base 36: ' + trap.rows[0].n);
  // A decimal id goes through bigint.
  const decimal = await client.query('SELECT $1::bigint::nanoflake AS id', [12345]);
  if (decimal.rows[0].id !== '9ix') throw new Error('decimal id: ' + decimal.rows[0].id);
  // Or compare with a bigint: nanoflake = bigint compares the number (0.4.0).
  const compared = await client.query("SELECT '9ix'::nanoflake = $1::bigint AS same", [12345]);
  if (compared.rows[0].same !== true) throw new Error('nanoflake = bigint');

  // Optional: parse a type's results yourself (here nanoflake as BigInt).
  const oid = (await client.query("SELECT 'nanoflake'::regtype::oid AS oid")).rows[0].oid;
  types.setTypeParser(oid, (text) => BigInt(parseInt(text, 36)) /* exact below 2^53 */);
  const parsed = await client.query("SELECT '9ix'::nanoflake AS id");
  if (parsed.rows[0].id !== 12345n) throw new Error('type parser');

  await client.end();
  console.log('ok - node-postgres: text as is, base-36 trap, $1::bigint::nanoflake, setTypeParser');
}

main().catch((e) => { console.error('not ok - node-postgres:', e.message); process.exit(1); });
