// Sequelize 6: data types NANOFLAKE, SCRU160, CODOKEY, CALORIOSA, UID60 for
// model attributes. Results arrive as chronoid values through Sequelize's
// own per-database type map (no driver registration needed): importing
// this module adds the types to Sequelize's PostgreSQL dialect, whose
// connection manager looks up their OIDs by name on its first connection.
// Values are written from values or their text; sync() creates columns of
// the chronoid type.
import { DataTypes } from 'sequelize';
import { Caloriosa, ChronoidValue, Codokey, Nanoflake, Scru160, Uid60 } from './values.js';

interface ValueClass<T extends ChronoidValue> {
  fromText(text: string): T;
}

/** A Sequelize data type for a chronoid type: use it as an attribute's `type`. */
export interface ChronoidDataType<T extends ChronoidValue> extends DataTypes.AbstractDataType {
  parse(text: string): T;
}

// DataTypes.ABSTRACT is a callable proxy whose `new` ignores subclasses;
// the class itself is behind it.
const Abstract = (DataTypes.ABSTRACT as unknown as { prototype: { constructor: new () => object } }).prototype.constructor;
const postgresTypes = (DataTypes as unknown as { postgres: Record<string, unknown> }).postgres;

function dataType<T extends ChronoidValue>(sqlType: string, cls: ValueClass<T>): ChronoidDataType<T> {
  const key = sqlType.toUpperCase();
  const toValue = (value: unknown): T => (value instanceof ChronoidValue ? (value as T) : cls.fromText(String(value)));
  class ChronoidType extends Abstract {
    static key = key;
    static types = { postgres: [sqlType] };
    static parse(text: string): T {
      return cls.fromText(text);
    }
    parse(text: string): T {
      return cls.fromText(text);
    }
    toSql(): string {
      return key;
    }
    // With typeValidation on: text that is not a value throws RangeError.
    validate(value: unknown): boolean {
      toValue(value);
      return true;
    }
    // Model setters: text becomes a value, so instances always hold values.
    _sanitize(value: unknown): unknown {
      return value == null ? value : toValue(value);
    }
    _isChanged(value: unknown, original: unknown): boolean {
      return String(value) !== String(original);
    }
    // Literals in WHERE clauses and bind parameters: the value's text, read
    // by the server as the column's type.
    _stringify(value: unknown): string {
      return toValue(value).toText();
    }
  }
  Object.defineProperty(ChronoidType, 'name', { value: key });
  (ChronoidType.prototype as { key?: string }).key = key;
  // The dialect's map, which the connection manager reads the type names and
  // parsers from (and attributes' types are made from).
  postgresTypes[key] = ChronoidType;
  return new ChronoidType() as unknown as ChronoidDataType<T>;
}

export const NANOFLAKE = dataType('nanoflake', Nanoflake);
export const SCRU160 = dataType('scru160', Scru160);
export const CODOKEY = dataType('codokey', Codokey);
export const CALORIOSA = dataType('caloriosa', Caloriosa);
export const UID60 = dataType('uid60', Uid60);
