/** fhirclient keeps its state (a launch's state key and verifier, a client's token response) in a storage: here, a Map. */
export function memoryStorage() {
  const data = new Map<string, unknown>();
  return {
    get: async (key: string) => data.get(key),
    set: async (key: string, value: unknown) => { data.set(key, value); return value; },
    unset: async (key: string) => data.delete(key),
  };
}

/** The incoming request and the response fhirclient's Node adapter reads and writes, for a browser at `url`. */
export function exchangeAt(url: string) {
  const target = new URL(url);
  const response = { location: '', writeHead(_status: number, headers: { location: string }) { this.location = headers.location; }, end() {} };
  return { request: { url: `${target.pathname}${target.search}`, headers: { host: target.host }, socket: {} }, response };
}
