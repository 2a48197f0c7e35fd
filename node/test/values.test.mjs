// The values without a server: the shared vectors, errors, order, fields,
// floor/ceil, generation; the ESM and CommonJS builds alike.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Caloriosa, Codokey, Nanoflake, Scru160, Uid60, DEFAULT_NANOFLAKE_EPOCH } from 'chronoid';

const vectors = (name) => JSON.parse(readFileSync(`${process.env.CHRONOID_VECTORS}/${name}.json`, 'utf8'));

test('the package is the installed one, in both module systems', () => {
  const require = createRequire(import.meta.url);
  assert.match(require.resolve('chronoid'), /node_modules\/chronoid\/dist\/index\.cjs$/);
  const cjs = require('chronoid');
  assert.equal(String(cjs.Nanoflake.fromText('3KGEOQM2H3')), String(Nanoflake.fromText('3kgeoqm2h3')));
});

test('the shared vectors', () => {
  for (const v of vectors('nanoflake').vectors) {
    const n = Nanoflake.fromText(v.text);
    assert.deepEqual([n.toBigInt(), n.msSinceEpoch, n.nodeId, n.sequence], [BigInt(v.int64), v.ms_since_epoch, v.generator, v.sequence]);
  }
  for (const v of vectors('caloriosa').vectors) {
    if (v.note) {
      assert.throws(() => Caloriosa.fromText(v.text), RangeError); // the seed's old layout, refused as by the server
      continue;
    }
    const c = Caloriosa.fromText(v.text);
    assert.equal(BigInt.asUintN(64, c.toBigInt()), BigInt(v.uint64));
    assert.deepEqual([c.random, c.increment, c.date.getTime()], [v.random12, v.increment10, Date.UTC(2017, 0, 1) + v.ms_since_2017]);
  }
  for (const v of vectors('uid60').vectors) {
    const u = Uid60.fromText(v.display);
    assert.deepEqual([u.toBigInt(), u.sequence, u.random], [BigInt(v.storage), v.seq, v.rand]);
  }
  const s160 = vectors('scru160');
  for (const v of s160.authoritative_inspect) {
    const s = Scru160.fromText(v.input);
    assert.deepEqual([String(s), s.timestampMs, s.counter, s.random16, s.random80],
      [v.canonical, v.timestamp, v.counter, v.random16, BigInt(v.random80)]);
  }
  for (const v of [...s160.spec_examples_decoded, ...s160.python_readme_examples_decoded, ...s160.boundary_derived]) {
    assert.equal(String(Scru160.fromText(v.hex)), v.b32);
    assert.equal(Scru160.fromText(v.b32).toHex(), v.hex);
  }
  const precisions = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'SPLIT'];
  let codokeys = 0;
  for (const v of vectors('codokey').vectors) {
    const context = { yearZero: 1970, maxYear: 3265, fractionMax: v.untilSplit };
    const t = v.input ?? v.timestamp;
    const ms = v.input_ms ?? v.time_ms ?? t.value * 1000 + t.split;
    if (!Number.isInteger(ms)) continue; // sub-millisecond instants: a Date holds milliseconds
    const precision = precisions.indexOf(v.precision);
    if (v.kind === 'encode') {
      assert.equal(String(Codokey.encode(new Date(ms), precision, context)), v.key);
    } else {
      assert.deepEqual(Codokey.fromText(v.key).decode(context), { date: new Date(ms), precision });
    }
    codokeys++;
  }
  assert.ok(codokeys >= 280, `${codokeys} codokey vectors`);
});

test('bad text and bytes throw RangeError', () => {
  for (const cls of [Nanoflake, Scru160, Codokey, Caloriosa, Uid60]) {
    for (const bad of ['', '!', 'é', 'z'.repeat(60)]) assert.throws(() => cls.fromText(bad), RangeError, `${cls.name} ${bad}`);
    for (const bad of [new Uint8Array(0), new Uint8Array(7).fill(255), new Uint8Array(21).fill(255)]) {
      assert.throws(() => cls.fromBinary(bad), RangeError);
    }
  }
  assert.throws(() => Nanoflake.fromBigInt(-5n), RangeError);
  assert.throws(() => Caloriosa.fromBigInt(5n), RangeError);
  assert.throws(() => Uid60.fromBigInt(1n << 60n), RangeError);
});

test('64-bit values are BigInts: no digit lost above 2^53', () => {
  const big = Nanoflake.fromBigInt(2n ** 62n + 1n);
  assert.equal(Nanoflake.fromText(String(big)).toBigInt(), 2n ** 62n + 1n);
});

test('floor and ceil bound the millisecond; dates and epochs', () => {
  const at = new Date(Date.UTC(2026, 10, 25, 12, 0, 0, 123));
  for (const cls of [Nanoflake, Scru160, Caloriosa, Uid60]) {
    const lo = cls.floor(at), hi = cls.ceil(at);
    assert.equal(lo.compare(hi), -1);
    assert.deepEqual([lo.date, hi.date], [at, at]);
  }
  assert.throws(() => Nanoflake.floor(new Date(Date.UTC(2019, 0, 1))), RangeError);
  const epoch = new Date(Date.UTC(2024, 0, 1));
  assert.deepEqual(Nanoflake.floor(at, epoch).dateAt(epoch), at);
  assert.equal(Nanoflake.floor(at).date.getTime() - Nanoflake.floor(at).dateAt(epoch).getTime(), DEFAULT_NANOFLAKE_EPOCH.getTime() - epoch.getTime());
});

test('Scru160.generate: 100,000 increasing, unique, now', () => {
  const ids = Array.from({ length: 100_000 }, () => Scru160.generate());
  for (let i = 1; i < ids.length; i++) assert.equal(ids[i - 1].compare(ids[i]), -1);
  assert.ok(Math.abs(ids.at(-1).date.getTime() - Date.now()) < 5000);
});

test("Caloriosa's own spelling (Caloriosa/core, alphabet 0-9A-Za-z): read and written explicitly", () => {
  const names = vectors('caloriosa_core_names');
  assert.ok(names.vectors.length >= 20);
  for (const v of names.vectors) {
    const c = Caloriosa.fromCoreName(v.core_name);
    assert.deepEqual([BigInt.asUintN(64, c.toBigInt()), String(c), c.toCoreName()], [BigInt(v.uint64), v.text, v.core_name]);
    // the type's own text refuses it rather than reading another device
    assert.throws(() => Caloriosa.fromText(v.core_name), /invalid input syntax for type caloriosa/);
  }
  for (const bad of names.invalid_core_names) {
    assert.throws(() => Caloriosa.fromCoreName(bad), /invalid Caloriosa\/core name/, JSON.stringify(bad));
  }
});
