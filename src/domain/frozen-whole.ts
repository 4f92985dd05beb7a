/**
 * Whether a value can never change: it and everything reachable from it frozen. What is remembered of
 * a kept record (its JSON, src/http/serialization/sliced-json.ts; whether it names a listed unit,
 * release/remembered-units.ts) is remembered only for such a record, which nothing can make stale.
 */
export function isFrozenWhole(value: object): boolean {
  const stack: object[] = [value];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    if (!Object.isFrozen(v)) return false;
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return true;
}
