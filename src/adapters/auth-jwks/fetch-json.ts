import { readCapped } from '../http-client/read-capped.js';
import { request } from '../http-client/undici-parts.js';

const MAX_BYTES = 512 * 1024;

/** GETs a small JSON document from the authorization server: no redirects, a deadline, a size cap. */
export async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await request(url, {
    method: 'GET',
    headers: { accept: 'application/json' },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`unexpected status ${res.statusCode} from ${new URL(url).origin}`);
  }
  return JSON.parse(await readCapped(res.body, MAX_BYTES));
}
