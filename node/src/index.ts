export {
  ChronoidValue,
  Nanoflake,
  Scru160,
  Codokey,
  Caloriosa,
  Uid60,
  TYPES,
  DEFAULT_NANOFLAKE_EPOCH,
  DEFAULT_CODOKEY_CONTEXT,
  DEFAULT_CODOKEY_PRECISION,
} from './values.js';
export type { AnyValue, CodokeyContext, Kind } from './values.js';
