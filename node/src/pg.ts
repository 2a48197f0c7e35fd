// node-postgres: `await registerTypes(clientOrPool)` makes results of the
// five types (and their arrays), in text and binary format, arrive as
// chronoid values; values are parameters as they are (toPostgres).
import { parseBinaryArray, parseTextArray } from './arrays.js';
import { OIDS_QUERY, checkOids, type TypeOids } from './oids.js';
import { TYPES } from './values.js';

interface Queryable {
  query(text: string): Promise<{ rows: any[] }>;
}
interface TypeParserTarget extends Queryable {
  setTypeParser(oid: number, format: 'text' | 'binary', parse: (value: any) => unknown): void;
}
interface PoolLike extends Queryable {
  connect(): Promise<TypeParserTarget & { release(): void }>;
  on(event: 'connect', listener: (client: TypeParserTarget) => void): unknown;
}

function apply(client: TypeParserTarget, oids: TypeOids[]): void {
  for (const { kind, oid, arrayOid } of oids) {
    const cls = TYPES[kind];
    client.setTypeParser(oid, 'text', (text: string) => cls.fromText(text));
    client.setTypeParser(oid, 'binary', (bytes: Uint8Array) => cls.fromBinary(bytes));
    client.setTypeParser(arrayOid, 'text', (text: string) => parseTextArray(text, (e) => cls.fromText(e)));
    client.setTypeParser(arrayOid, 'binary', (bytes: Uint8Array) => parseBinaryArray(bytes, (e) => cls.fromBinary(e)));
  }
}

/**
 * Registers the types on a Client, or on a Pool: its clients now and to
 * come (call it before the pool is shared). The OIDs are looked up once.
 */
export async function registerTypes(target: TypeParserTarget | PoolLike): Promise<void> {
  if ('setTypeParser' in target) {
    apply(target, checkOids((await target.query(OIDS_QUERY)).rows));
    return;
  }
  const client = await target.connect();
  try {
    const oids = checkOids((await client.query(OIDS_QUERY)).rows);
    apply(client, oids);
    target.on('connect', (c) => apply(c, oids));
  } finally {
    client.release();
  }
}
