// The five value classes. Each holds its binary form (the bytes the
// server's send function writes); text goes through the formats crate
// (native.ts), fields are read from the bytes. Values of one class compare
// as the server's btree operator classes order them: by their bytes.
import * as native from './native.js';

export type Kind = native.Kind;
type Bytes = Uint8Array;

function compareBytes(a: Bytes, b: Bytes): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function int8(bytes: Bytes): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0);
}

function int8Bytes(n: bigint): Bytes {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt.asIntN(64, n));
  return out;
}

function millis(date: Date, what: string): bigint {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`${what}: invalid Date`);
  return BigInt(ms);
}

export abstract class ChronoidValue {
  /** The SQL type name. */
  abstract readonly sqlType: Kind;
  protected readonly bytes: Bytes;

  protected constructor(bytes: Bytes) {
    this.bytes = bytes;
  }

  /** The text PostgreSQL prints. */
  toText(): string {
    return native.toText(this.sqlType, this.bytes);
  }

  toString(): string {
    return this.toText();
  }

  toJSON(): string {
    return this.toText();
  }

  /** node-postgres sends a parameter's toPostgres(). */
  toPostgres(): string {
    return this.toText();
  }

  /** The binary form (the server's send/receive bytes); a copy. */
  toBinary(): Bytes {
    return this.bytes.slice();
  }

  equals(other: unknown): boolean {
    return other instanceof ChronoidValue && other.sqlType === this.sqlType && compareBytes(this.bytes, other.bytes) === 0;
  }

  /** -1, 0 or 1 as the server orders the two (values of one type). */
  compare(other: this): number {
    if (other.sqlType !== this.sqlType) throw new TypeError(`cannot compare ${this.sqlType} with ${other.sqlType}`);
    return compareBytes(this.bytes, other.bytes);
  }

  /** For Array.prototype.sort: `ids.sort(Nanoflake.compare)`. */
  static compare(a: ChronoidValue, b: ChronoidValue): number {
    return a.compare(b);
  }
}

abstract class Int8Value extends ChronoidValue {
  /** The bigint cast (`id::bigint`). */
  toBigInt(): bigint {
    return int8(this.bytes);
  }
}

/** 2020-01-01T00:00:00Z, chronoid.nanoflake_epoch's default. */
export const DEFAULT_NANOFLAKE_EPOCH = new Date(Date.UTC(2020, 0, 1));

export class Nanoflake extends Int8Value {
  readonly sqlType = 'nanoflake' as const;

  private constructor(bytes: Bytes) {
    super(bytes);
  }

  static fromText(text: string): Nanoflake {
    return new Nanoflake(native.fromText('nanoflake', text));
  }

  static fromBinary(bytes: Uint8Array): Nanoflake {
    const copy = Uint8Array.from(bytes);
    native.toText('nanoflake', copy);
    return new Nanoflake(copy);
  }

  /** `n::bigint::nanoflake`: never a JavaScript number (above 2^53 it loses digits). */
  static fromBigInt(n: bigint): Nanoflake {
    if (n < 0n || n > 0x7fffffffffffffffn) throw new RangeError(`${n} is out of range for type nanoflake`);
    return new Nanoflake(int8Bytes(n));
  }

  get msSinceEpoch(): number {
    return Number(this.toBigInt() >> 22n);
  }

  /** The generator (chronoid.node_id) that made it. */
  get nodeId(): number {
    return Number((this.toBigInt() >> 12n) & 1023n);
  }

  get sequence(): number {
    return Number(this.toBigInt() & 4095n);
  }

  /** Its instant at the default epoch (see dateAt for another). */
  get date(): Date {
    return this.dateAt(DEFAULT_NANOFLAKE_EPOCH);
  }

  dateAt(epoch: Date): Date {
    return new Date(epoch.getTime() + this.msSinceEpoch);
  }

  private static bound(date: Date, epoch: Date, low: boolean): Nanoflake {
    const ms = millis(date, 'nanoflake') - millis(epoch, 'epoch');
    if (ms < 0n || ms >= 1n << 41n) throw new RangeError('timestamp out of range for type nanoflake');
    return new Nanoflake(int8Bytes((ms << 22n) | (low ? 0n : 0x3fffffn)));
  }

  /** The smallest nanoflake of the date's millisecond (nanoflake_floor). */
  static floor(date: Date, epoch: Date = DEFAULT_NANOFLAKE_EPOCH): Nanoflake {
    return Nanoflake.bound(date, epoch, true);
  }

  /** The largest (nanoflake_ceil). */
  static ceil(date: Date, epoch: Date = DEFAULT_NANOFLAKE_EPOCH): Nanoflake {
    return Nanoflake.bound(date, epoch, false);
  }
}

const CALORIOSA_EPOCH_MS = 1_483_228_800_000n;

export class Caloriosa extends Int8Value {
  readonly sqlType = 'caloriosa' as const;

  private constructor(bytes: Bytes) {
    super(bytes);
  }

  static fromText(text: string): Caloriosa {
    return new Caloriosa(native.fromText('caloriosa', text));
  }

  static fromBinary(bytes: Uint8Array): Caloriosa {
    const copy = Uint8Array.from(bytes);
    native.toText('caloriosa', copy);
    return new Caloriosa(copy);
  }

  /** `n::bigint::caloriosa` (always negative: the top bit is set). */
  static fromBigInt(n: bigint): Caloriosa {
    if (n >= 0n || n < -(1n << 63n)) throw new RangeError(`${n} is out of range for type caloriosa`);
    return new Caloriosa(int8Bytes(n));
  }

  private get bits(): bigint {
    return BigInt.asUintN(64, this.toBigInt());
  }

  get date(): Date {
    return new Date(Number(CALORIOSA_EPOCH_MS + ((this.bits >> 22n) & ((1n << 41n) - 1n))));
  }

  get random(): number {
    return Number((this.bits >> 10n) & 4095n);
  }

  get increment(): number {
    return Number(this.bits & 1023n);
  }

  private static bound(date: Date, low: boolean): Caloriosa {
    const ms = millis(date, 'caloriosa') - CALORIOSA_EPOCH_MS;
    if (ms < 0n || ms >= 1n << 41n) throw new RangeError('timestamp out of range for type caloriosa');
    return new Caloriosa(int8Bytes((1n << 63n) | (ms << 22n) | (low ? 0n : 0x3fffffn)));
  }

  static floor(date: Date): Caloriosa {
    return Caloriosa.bound(date, true);
  }

  static ceil(date: Date): Caloriosa {
    return Caloriosa.bound(date, false);
  }

  /**
   * A name as Caloriosa's own code (`Caloriosa/core`) writes it: the same
   * digits in the alphabet `0-9A-Za-z`, the case-swap of this type's text
   * (`caloriosa_from_core_name` in SQL).
   */
  static fromCoreName(name: string): Caloriosa {
    return new Caloriosa(native.caloriosaFromCoreName(name));
  }

  /** The name as `Caloriosa/core` writes it (`caloriosa_to_core_name`). */
  toCoreName(): string {
    return native.caloriosaToCoreName(this.bytes);
  }
}

const UID60_EPOCH_MS = 1_519_862_400_000n;

export class Uid60 extends Int8Value {
  readonly sqlType = 'uid60' as const;

  private constructor(bytes: Bytes) {
    super(bytes);
  }

  static fromText(text: string): Uid60 {
    return new Uid60(native.fromText('uid60', text));
  }

  static fromBinary(bytes: Uint8Array): Uid60 {
    const copy = Uint8Array.from(bytes);
    native.toText('uid60', copy);
    return new Uid60(copy);
  }

  static fromBigInt(n: bigint): Uid60 {
    if (n < 0n || n >= 1n << 60n) throw new RangeError(`${n} is out of range for type uid60`);
    return new Uid60(int8Bytes(n));
  }

  get date(): Date {
    return new Date(Number(UID60_EPOCH_MS + (this.toBigInt() >> 18n)));
  }

  get sequence(): number {
    return Number((this.toBigInt() >> 9n) & 511n);
  }

  get random(): number {
    return Number(this.toBigInt() & 511n);
  }

  private static bound(date: Date, low: boolean): Uid60 {
    const ms = millis(date, 'uid60') - UID60_EPOCH_MS;
    if (ms < 0n || ms >= 1n << 42n) throw new RangeError('timestamp out of range for type uid60');
    return new Uid60(int8Bytes((ms << 18n) | (low ? 0n : 0x3ffffn)));
  }

  static floor(date: Date): Uid60 {
    return Uid60.bound(date, true);
  }

  static ceil(date: Date): Uid60 {
    return Uid60.bound(date, false);
  }
}

export class Scru160 extends ChronoidValue {
  readonly sqlType = 'scru160' as const;

  private constructor(bytes: Bytes) {
    super(bytes);
  }

  /** The 32 base32hex characters, or 40 hex digits, in any case. */
  static fromText(text: string): Scru160 {
    return new Scru160(native.fromText('scru160', text));
  }

  static fromBinary(bytes: Uint8Array): Scru160 {
    const copy = Uint8Array.from(bytes);
    native.toText('scru160', copy);
    return new Scru160(copy);
  }

  /**
   * A new scru160 from this process's clock by the spec's counter rules:
   * IDs made in one process increase; other processes' and servers' IDs
   * differ by their random bits.
   */
  static generate(): Scru160 {
    return new Scru160(native.scru160Generate(Date.now()));
  }

  private get prefix(): bigint {
    return new DataView(this.bytes.buffer, this.bytes.byteOffset, 8).getBigUint64(0);
  }

  get timestampMs(): number {
    return Number(this.prefix >> 16n);
  }

  get date(): Date {
    return new Date(this.timestampMs);
  }

  get counter(): number {
    return Number(this.prefix & 0xffffn);
  }

  get random16(): number {
    return (this.bytes[8] << 8) | this.bytes[9];
  }

  get random80(): bigint {
    let v = 0n;
    for (const b of this.bytes.subarray(10)) v = (v << 8n) | BigInt(b);
    return v;
  }

  toHex(): string {
    return Array.from(this.bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  private static bound(date: Date, low: boolean): Scru160 {
    const ms = millis(date, 'scru160');
    if (ms < 0n || ms > (1n << 48n) - 1n) throw new RangeError('timestamp out of range for type scru160');
    const out = new Uint8Array(20).fill(low ? 0 : 0xff);
    new DataView(out.buffer).setBigUint64(0, (ms << 16n) | (low ? 0n : 0xffffn));
    return new Scru160(out);
  }

  static floor(date: Date): Scru160 {
    return Scru160.bound(date, true);
  }

  static ceil(date: Date): Scru160 {
    return Scru160.bound(date, false);
  }
}

/** What a codokey's instant depends on: the server's chronoid.codokey_* settings. */
export interface CodokeyContext {
  yearZero: number;
  maxYear: number;
  fractionMax: number;
}

export const DEFAULT_CODOKEY_CONTEXT: Readonly<CodokeyContext> = Object.freeze({ yearZero: 1970, maxYear: 3265, fractionMax: 9 });
/** chronoid.codokey_precision's default: down to the day. */
export const DEFAULT_CODOKEY_PRECISION = 2;

function micros(date: Date): bigint {
  return millis(date, 'codokey') * 1000n;
}

export class Codokey extends ChronoidValue {
  readonly sqlType = 'codokey' as const;

  private constructor(bytes: Bytes) {
    super(bytes);
  }

  /** Any key some context can make, as the server's input accepts. */
  static fromText(text: string): Codokey {
    return new Codokey(native.fromText('codokey', text));
  }

  static fromBinary(bytes: Uint8Array): Codokey {
    const copy = Uint8Array.from(bytes);
    native.toText('codokey', copy);
    return new Codokey(copy);
  }

  /** `codokey(date, precision)`: the date's UTC calendar, in the context. */
  static encode(date: Date, precision = DEFAULT_CODOKEY_PRECISION, context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT): Codokey {
    return Codokey.fromText(native.codokeyEncode(micros(date), precision, context));
  }

  /** The instant (truncated to the precision) and the precision, in the context. */
  decode(context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT): { date: Date; precision: number } {
    const d = native.codokeyDecode(this.toText(), context);
    return { date: new Date(Number(d.micros / 1000n)), precision: d.precision };
  }

  dateIn(context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT): Date {
    return this.decode(context).date;
  }

  precisionIn(context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT): number {
    return this.decode(context).precision;
  }

  /** The smallest key of the period (codokey_floor). */
  static floor(date: Date, precision = DEFAULT_CODOKEY_PRECISION, context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT): Codokey {
    return Codokey.fromText(native.codokeyBounds(micros(date), precision, context)[0]);
  }

  /** The largest key of the period (codokey_ceil). */
  static ceil(date: Date, precision = DEFAULT_CODOKEY_PRECISION, context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT): Codokey {
    return Codokey.fromText(native.codokeyBounds(micros(date), precision, context)[1]);
  }
}

/** Every class by its SQL type name. */
export const TYPES = { nanoflake: Nanoflake, scru160: Scru160, codokey: Codokey, caloriosa: Caloriosa, uid60: Uid60 } as const;
export type AnyValue = Nanoflake | Scru160 | Codokey | Caloriosa | Uid60;
