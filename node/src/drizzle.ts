// Drizzle ORM (pg-core): column builders nanoflake(), scru160(), codokey(),
// caloriosa(), uid60(). They read chronoid values whether or not the driver
// has chronoid's parsers registered, and write values or their text.
import { customType } from 'drizzle-orm/pg-core';
import { Caloriosa, Codokey, Nanoflake, Scru160, Uid60, type ChronoidValue } from './values.js';

function column<T extends ChronoidValue>(sqlType: string, parse: (text: string) => T) {
  return customType<{ data: T; driverData: string | T }>({
    dataType() {
      return sqlType;
    },
    toDriver(value: T): string {
      return typeof value === 'string' ? parse(value).toText() : value.toText();
    },
    fromDriver(value: string | T): T {
      return typeof value === 'string' ? parse(value) : value;
    },
  });
}

export const nanoflake = column('nanoflake', Nanoflake.fromText);
export const scru160 = column('scru160', Scru160.fromText);
export const codokey = column('codokey', Codokey.fromText);
export const caloriosa = column('caloriosa', Caloriosa.fromText);
export const uid60 = column('uid60', Uid60.fromText);
