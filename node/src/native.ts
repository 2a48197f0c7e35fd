// The formats crate compiled to WebAssembly (node/wasm), loaded once from
// the bytes embedded at build time: no file to find, the same in ESM and
// CommonJS builds, Node and browsers alike.
import { WASM_BASE64 } from './wasm-bytes.js';

interface Exports {
  memory: WebAssembly.Memory;
  alloc(len: number): number;
  dealloc(ptr: number, len: number): void;
  out_ptr(): number;
  from_text(kind: number, ptr: number, len: number): number;
  to_text(kind: number, ptr: number, len: number): number;
  codokey_encode(micros: bigint, precision: number, yearZero: number, maxYear: number, fractionMax: number): number;
  codokey_bounds(micros: bigint, precision: number, yearZero: number, maxYear: number, fractionMax: number): number;
  codokey_decode(ptr: number, len: number, yearZero: number, maxYear: number, fractionMax: number): number;
  scru160_generate(nowMs: number, ptr: number, len: number): number;
  caloriosa_from_core_name(ptr: number, len: number): number;
  caloriosa_to_core_name(ptr: number, len: number): number;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const wasm = new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(WASM_BASE64)), {})
  .exports as unknown as Exports;

export const KIND = { nanoflake: 0, scru160: 1, codokey: 2, caloriosa: 3, uid60: 4 } as const;
export type Kind = keyof typeof KIND;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Runs an export over input bytes; the result bytes, or the error code. */
function call(input: Uint8Array, run: (ptr: number, len: number) => number): Uint8Array | number {
  const ptr = wasm.alloc(input.length);
  new Uint8Array(wasm.memory.buffer, ptr, input.length).set(input);
  const n = run(ptr, input.length);
  wasm.dealloc(ptr, input.length);
  if (n < 0) return n;
  return new Uint8Array(wasm.memory.buffer, wasm.out_ptr(), n).slice();
}

function result(r: Uint8Array | number, message: () => string): Uint8Array {
  if (typeof r === 'number') throw new RangeError(message());
  return r;
}

export function fromText(kind: Kind, text: string): Uint8Array {
  return result(call(encoder.encode(text), (p, n) => wasm.from_text(KIND[kind], p, n)),
    () => `invalid input syntax for type ${kind}: "${text}"`);
}

export function toText(kind: Kind, binary: Uint8Array): string {
  return decoder.decode(result(call(binary, (p, n) => wasm.to_text(KIND[kind], p, n)),
    () => `invalid binary ${kind} value`));
}

export interface CodokeyContextArgs { yearZero: number; maxYear: number; fractionMax: number }

export function codokeyEncode(micros: bigint, precision: number, c: CodokeyContextArgs): string {
  const n = wasm.codokey_encode(BigInt.asIntN(64, micros), precision, c.yearZero, c.maxYear, c.fractionMax);
  if (n < 0) throw new RangeError(`codokey: cannot encode ${micros} µs at precision ${precision} in this context (error ${n})`);
  return decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.out_ptr(), n));
}

export function codokeyBounds(micros: bigint, precision: number, c: CodokeyContextArgs): [string, string] {
  const n = wasm.codokey_bounds(BigInt.asIntN(64, micros), precision, c.yearZero, c.maxYear, c.fractionMax);
  if (n < 0) throw new RangeError(`codokey: no bounds for ${micros} µs at precision ${precision} in this context (error ${n})`);
  const [lo, hi] = decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.out_ptr(), n)).split(' ');
  return [lo, hi];
}

export function codokeyDecode(text: string, c: CodokeyContextArgs): { micros: bigint; precision: number } {
  const r = result(call(encoder.encode(text), (p, n) => wasm.codokey_decode(p, n, c.yearZero, c.maxYear, c.fractionMax)),
    () => `codokey "${text}" does not decode in this context`);
  const view = new DataView(r.buffer, r.byteOffset, r.byteLength);
  return { micros: view.getBigInt64(0, true), precision: r[8] };
}

export function scru160Generate(nowMs: number): Uint8Array {
  const random = new Uint8Array(64);
  globalThis.crypto.getRandomValues(random);
  return result(call(random, (p, n) => wasm.scru160_generate(nowMs, p, n)), () => 'scru160: the clock is out of range');
}

export function caloriosaFromCoreName(name: string): Uint8Array {
  return result(call(encoder.encode(name), (p, n) => wasm.caloriosa_from_core_name(p, n)),
    () => `invalid Caloriosa/core name (11 characters of 0-9A-Za-z): "${name}"`);
}

export function caloriosaToCoreName(binary: Uint8Array): string {
  return decoder.decode(result(call(binary, (p, n) => wasm.caloriosa_to_core_name(p, n)),
    () => 'invalid binary caloriosa value'));
}
