/** `ResultCode ! (OK | ERROR | INFO)`: any other value is malformed, never guessed. */
import { malformed } from './malformed-document-error.js';
import { textOf } from './leaves.js';
import { leaf, req, type Field } from './shape.js';

export type ResultCodeValue = 'OK' | 'ERROR' | 'INFO';

const isResultCode = (v: string): v is ResultCodeValue => v === 'OK' || v === 'ERROR' || v === 'INFO';

export const RESULT_CODE: Field = req(leaf((raw, name) => {
  const code = textOf(raw, name);
  if (code === undefined) return undefined;
  if (!isResultCode(code)) throw malformed(`bad ${name}`);
  return code;
}));

