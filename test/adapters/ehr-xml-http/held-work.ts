/** Work a test ends when it chooses, for the queues of the xml-http adapter (record-lanes, documents-in-flight). */

/** One turn of the event loop: what has been let go by then has begun. */
export const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
/** A signal of a caller who never goes away. */
export const STAYING = new AbortController().signal;

/** Work that ends when `end()` is called, noting when it began. */
export function held(log: string[], name: string): { work: () => Promise<string>; end: () => void } {
  let end = (): void => undefined;
  const done = new Promise<string>((resolve) => (end = () => resolve(name)));
  return { work: () => (log.push(name), done), end: () => end() };
}
