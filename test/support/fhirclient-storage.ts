/** fhirclient keeps its state (a launch's state key and verifier, a client's token response) in a storage: here, a Map. */
export function memoryStorage() {
  const data = new Map<string, unknown>();
  return {
    get: async (key: string) => data.get(key),
    set: async (key: string, value: unknown) => { data.set(key, value); return value; },
    unset: async (key: string) => data.delete(key),
  };
}
