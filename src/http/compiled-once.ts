/**
 * What a compiler made of a schema, made once for the process (the request validators and the answer
 * serialisers: request-validation.ts, serialization/shared-serializers.ts). Every app built in a process
 * (a test worker builds hundreds) asks for the same schemas: most are module constants, found by
 * identity; a schema a route makes as it is registered (an array of a named item, a vendor path's
 * query, a grant's answer) is a new object with the same content each time, found by its JSON, which
 * is all ajv and fast-json-stringify read of it. Those were 10 serialisers and some validators
 * compiled again for every app: a quarter of its build (BENCHMARKS.md).
 *
 * The schemas are the code's, never a caller's: both memos hold as many entries as the route table has schemas.
 */
export function compiledOnce<T>(compile: (schema: object) => T): (schema: unknown) => T {
  const byIdentity = new WeakMap<object, T>();
  const byContent = new Map<string, T>();
  return (schema) => {
    const key = schema as object;
    let made = byIdentity.get(key);
    if (made === undefined) {
      const content = JSON.stringify(schema);
      made = byContent.get(content);
      if (made === undefined) {
        made = compile(key);
        byContent.set(content, made);
      }
      byIdentity.set(key, made);
    }
    return made;
  };
}
