import type { TSchema } from 'typebox';

/**
 * The schema with a title: the OpenAPI document lists every titled schema once, by that title, in
 * `components.schemas` (what a client generator names its types after). A title the schema already
 * has wins. A copy, so the schema shared with the serialisers is left as it is.
 */
export function named<S extends TSchema>(schema: S, title: string): S {
  const own = (schema as { title?: unknown }).title;
  return { ...schema, title: typeof own === 'string' ? own : title };
}
