/**
 * The oracle of the FHIR JSON reader's properties (src/adapters/ehr-fhir/fhir-json.ts): a text read by
 * JSON.parse with a reviver of the tests' own, which notes the source text of every number, so what
 * the reader gives (with or without its reviver, whole or in slices) is held to what JSON.parse saw.
 */
import { writtenNumber } from '../../../../src/adapters/ehr-fhir/fhir-json.js';

type Tree = unknown;

/**
 * The oracle: the text read by JSON.parse with a reviver of the test's own, each number beside the
 * source text JSON.parse saw for it (Node 22 and 24 hand a reviver the source of every number).
 */
export function readBesideSources(text: string): { value: Tree; sources: WeakMap<object, Map<string, string>> } {
  const sources = new WeakMap<object, Map<string, string>>();
  const value = JSON.parse(text, function (this: object, key: string, v: unknown, context?: { source?: string }) {
    if (typeof v === 'number' && context?.source !== undefined) {
      if (!sources.has(this)) sources.set(this, new Map());
      sources.get(this)?.set(key, context.source);
    }
    return v;
  } as (key: string, value: unknown) => unknown) as Tree;
  return { value, sources };
}

/** Each number of `read` as writtenNumber gives it, beside its source in the oracle's parallel `oracle`, in document order. */
export function numbersBeside(read: Tree, oracle: Tree, sources: WeakMap<object, Map<string, string>>, out: [string | undefined, string | undefined][] = []) {
  if (read === null || typeof read !== 'object') return out;
  for (const key of Object.keys(read)) {
    const [x, y] = [(read as Record<string, unknown>)[key], (oracle as Record<string, unknown>)[key]];
    if (typeof x === 'number') out.push([writtenNumber(read, key), sources.get(oracle as object)?.get(key)]);
    else numbersBeside(x, y, sources, out);
  }
  return out;
}
