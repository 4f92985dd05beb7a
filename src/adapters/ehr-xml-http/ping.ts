/**
 * Readiness probe: the EHR is reachable when the EHR itself answers, that is XML with a 2xx or 4xx
 * status, whatever it thinks of the made-up id it was asked about. A front proxy's 5xx or HTML page,
 * a lost connection or a missed deadline mean it is not.
 */
import type { UpstreamAnswer } from '../ehr-http/exchange.js';
import { XML } from './media.js';

export function answeredAsEhr(answer: UpstreamAnswer): boolean {
  const answered = (answer.status >= 200 && answer.status < 300) || (answer.status >= 400 && answer.status < 500);
  const type = answer.headers['content-type'];
  return answered && XML.readable(typeof type === 'string' ? type : undefined);
}
