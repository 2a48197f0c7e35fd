import { TYPES, type Kind } from './values.js';

export interface TypeOids {
  kind: Kind;
  oid: number;
  arrayOid: number;
}

/** The query that finds the five types (and their arrays) where chronoid is installed. */
export const OIDS_QUERY =
  "SELECT k AS kind, t.oid::int AS oid, t.typarray::int AS \"arrayOid\" FROM unnest(ARRAY['" +
  Object.keys(TYPES).join("','") +
  "']) k LEFT JOIN pg_type t ON t.oid = to_regtype(k)";

export function checkOids(rows: { kind: string; oid: number | null; arrayOid: number | null }[]): TypeOids[] {
  const missing = rows.filter((r) => r.oid == null).map((r) => r.kind);
  if (missing.length > 0 || rows.length === 0) {
    throw new Error(`type ${missing.join(', ')} not found: run CREATE EXTENSION chronoid in this database (or put its schema on search_path)`);
  }
  return rows as TypeOids[];
}
