/**
 * Readiness probe: the EHR is reachable when the EHR itself answers, that is XML with a 2xx or 4xx
 * status, whatever it thinks of the made-up id it was asked about. A front proxy's 5xx or HTML page,
 * a lost connection or a missed deadline mean it is not.
 */
import type { Dispatcher } from 'undici';
import { exchange, isXmlContentType } from './exchange.js';

export async function pingEhr(pool: Dispatcher, path: string, timeoutMs: number): Promise<boolean> {
  try {
    const answer = await exchange(pool, { method: 'GET', path, retryOnConnectionLoss: false }, {
      timeoutMs, bodyLimit: () => 0, onRetry: () => undefined,
    });
    const answered = (answer.status >= 200 && answer.status < 300) || (answer.status >= 400 && answer.status < 500);
    const type = answer.headers['content-type'];
    return answered && isXmlContentType(typeof type === 'string' ? type : undefined);
  } catch {
    return false;
  }
}
