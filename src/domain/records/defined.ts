/** A copy of `o` without the keys whose value is undefined: absent fields are left out, never null. */
export function definedOnly<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}
