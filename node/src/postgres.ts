// Postgres.js: `await registerTypes(sql)` makes results of the five types
// (and their arrays) arrive as chronoid values; values are parameters as
// they are (sent as text, read as the column's or cast's type).
import { parseTextArray } from './arrays.js';
import { OIDS_QUERY, checkOids } from './oids.js';
import { TYPES } from './values.js';

interface Sql {
  unsafe(query: string): PromiseLike<any[]>;
  options: { parsers: Record<number, (value: string) => unknown>; serializers: Record<number, (value: unknown) => string> };
}

export async function registerTypes(sql: Sql): Promise<void> {
  const oids = checkOids(Array.from(await sql.unsafe(OIDS_QUERY)));
  for (const { kind, oid, arrayOid } of oids) {
    const cls = TYPES[kind];
    sql.options.parsers[oid] = (text: string) => cls.fromText(text);
    sql.options.serializers[oid] = (value: unknown) => String(value);
    // (Not marked `.array`, which would make Postgres.js cut the brace off.)
    sql.options.parsers[arrayOid] = (text: string) => parseTextArray(text, (e) => cls.fromText(e));
    sql.options.serializers[arrayOid] = (values: unknown) =>
      '{' + (values as unknown[]).map((v) => (v == null ? 'NULL' : `"${String(v)}"`)).join(',') + '}';
  }
}
