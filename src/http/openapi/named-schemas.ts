/**
 * Every titled schema of the document moved to `components.schemas` under its title and referred to
 * from where it was, so a client generator gets named types (`BookedAppointmentsResult`, not an
 * anonymous inline type or `def-0`). Two different schemas under one title would make one of them a
 * lie, so that fails loudly instead.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A schema's name in the document: its title, or the last part of a namespaced `$id` (`pdas.JournalNote.ArchetypeRecord`). */
export function nameOf(schema: Json): string | undefined {
  if (typeof schema.title === 'string') return schema.title;
  if (typeof schema.$id === 'string') return schema.$id.split('.').at(-1);
  return undefined;
}

function hoist(value: unknown, found: Map<string, Json>, root: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => hoist(v, found, false));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) out[key] = hoist(child, found, false);
  const name = typeof out.title === 'string' && (typeof out.type === 'string' || Array.isArray(out.anyOf)) ? out.title : undefined;
  if (name === undefined || root) return out;
  const earlier = found.get(name);
  if (earlier !== undefined && JSON.stringify(earlier) !== JSON.stringify(out)) {
    throw new Error(`two different schemas are titled ${name} in the OpenAPI document`);
  }
  found.set(name, out);
  return { $ref: `#/components/schemas/${name}` };
}

/** `paths` and `components.schemas` with titled schemas hoisted; schemas already in components keep their place. */
export function hoistNamedSchemas(paths: Json, components: Json): { paths: Json; schemas: Json } {
  const found = new Map<string, Json>();
  const hoistedPaths = hoist(paths, found, false) as Json;
  const schemas: Json = {};
  for (const [key, schema] of Object.entries(components)) schemas[key] = hoist(schema, found, true);
  for (const [name, schema] of found) if (!Object.hasOwn(schemas, name)) schemas[name] = schema;
  // The resolver leaves an alias (`{$ref}` only) for a cyclic schema's inner name that nothing uses.
  const text = JSON.stringify({ hoistedPaths, schemas });
  const kept = Object.entries(schemas).filter(([name, schema]) =>
    !(isObject(schema) && Object.keys(schema).length === 1 && '$ref' in schema) || text.includes(`"#/components/schemas/${name}"`));
  return { paths: hoistedPaths, schemas: Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b))) };
}
