// TypeORM: value transformers for columns of the five types. TypeORM's
// PostgreSQL driver refuses column types it does not know, so a chronoid
// column is declared `type: 'text'` with the transformer (create the table
// with the chronoid type in SQL or a migration; synchronize would make it
// text). Parameters go as text, read by the server as the column's type;
// results become chronoid values whether or not the driver has chronoid's
// parsers registered. Find operators (MoreThanOrEqual, In, ...) pass their
// values through the transformer too.
import { Caloriosa, ChronoidValue, Codokey, Nanoflake, Scru160, Uid60 } from './values.js';

/** TypeORM's ValueTransformer, for a chronoid type. */
export interface ChronoidTransformer<T extends ChronoidValue> {
  to(value: T | string | null | undefined): string | null | undefined;
  from(value: T | string | null | undefined): T | null | undefined;
}

function transformer<T extends ChronoidValue>(cls: { fromText(text: string): T }): ChronoidTransformer<T> {
  const toValue = (value: T | string): T => (typeof value === 'string' ? cls.fromText(value) : value);
  return {
    to: (value) => (value == null ? value : toValue(value).toText()),
    from: (value) => (value == null ? value : toValue(value)),
  };
}

export const nanoflake = transformer(Nanoflake);
export const scru160 = transformer(Scru160);
export const codokey = transformer(Codokey);
export const caloriosa = transformer(Caloriosa);
export const uid60 = transformer(Uid60);
