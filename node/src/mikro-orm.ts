// MikroORM 6: custom types NanoflakeType, Scru160Type, CodokeyType,
// CaloriosaType and Uid60Type for entity properties (decorators or
// EntitySchema). Columns are of the chronoid type (schema generator
// included); values are written as their text and read back as chronoid
// values, whether or not the driver has chronoid's parsers registered.
import { Type } from '@mikro-orm/core';
import { Caloriosa, ChronoidValue, Codokey, Nanoflake, Scru160, Uid60 } from './values.js';

/** The custom type of a chronoid type; its subclasses are the five below. */
export abstract class ChronoidType<T extends ChronoidValue> extends Type<T | null | undefined, string | null | undefined> {
  protected abstract readonly sqlType: string;
  protected abstract parse(text: string): T;

  private toValue(value: T | string): T {
    return typeof value === 'string' ? this.parse(value) : value;
  }
  override convertToDatabaseValue(value: T | string | null | undefined): string | null | undefined {
    return value == null ? value : this.toValue(value).toText();
  }
  override convertToJSValue(value: T | string | null | undefined): T | null | undefined {
    return value == null ? value : this.toValue(value);
  }
  override getColumnType(): string {
    return this.sqlType;
  }
  // Change tracking and the identity map compare values by their text.
  override compareAsType(): string {
    return 'string';
  }
}

export class NanoflakeType extends ChronoidType<Nanoflake> {
  protected readonly sqlType = 'nanoflake';
  protected parse(text: string): Nanoflake {
    return Nanoflake.fromText(text);
  }
}
export class Scru160Type extends ChronoidType<Scru160> {
  protected readonly sqlType = 'scru160';
  protected parse(text: string): Scru160 {
    return Scru160.fromText(text);
  }
}
export class CodokeyType extends ChronoidType<Codokey> {
  protected readonly sqlType = 'codokey';
  protected parse(text: string): Codokey {
    return Codokey.fromText(text);
  }
}
export class CaloriosaType extends ChronoidType<Caloriosa> {
  protected readonly sqlType = 'caloriosa';
  protected parse(text: string): Caloriosa {
    return Caloriosa.fromText(text);
  }
}
export class Uid60Type extends ChronoidType<Uid60> {
  protected readonly sqlType = 'uid60';
  protected parse(text: string): Uid60 {
    return Uid60.fromText(text);
  }
}
