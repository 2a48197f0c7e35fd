// PostgreSQL's array forms of a chronoid type, one-dimensional: the text
// form ({a,b,NULL}; an element spelt like NULL comes quoted) and the binary
// form (array_send).
export function parseTextArray<T>(text: string, parse: (element: string) => T): (T | null)[] {
  const inner = text.slice(1, -1);
  if (inner === '') return [];
  return inner.split(',').map((e) => (e === 'NULL' ? null : parse(e.startsWith('"') ? e.slice(1, -1) : e)));
}

export function parseBinaryArray<T>(bytes: Uint8Array, parse: (element: Uint8Array) => T): (T | null)[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims = view.getInt32(0);
  if (dims === 0) return [];
  if (dims !== 1) throw new RangeError(`a ${dims}-dimensional array: only one dimension is supported`);
  const count = view.getInt32(12);
  const out: (T | null)[] = [];
  let at = 20;
  for (let i = 0; i < count; i++) {
    const len = view.getInt32(at);
    at += 4;
    if (len < 0) {
      out.push(null);
    } else {
      out.push(parse(bytes.subarray(at, at + len)));
      at += len;
    }
  }
  return out;
}
