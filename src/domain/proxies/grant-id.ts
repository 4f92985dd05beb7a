/**
 * A new grant's id: 32 random hex digits (GRANT_ID_PATTERN), drawn again while the scrubber of log
 * lines and command output would change it. People read a grant's id (the log, the support command
 * `npm run proxies`, the access log), and every such text is scrubbed of anything shaped like an
 * identity number: ten digits in a row, held by about one draw in 28, came out as `[REDACTED]`, an id
 * an operator could not copy to act on the grant.
 */
import { scrubText } from '../redaction/scrub-text.js';

/** The first of `draw`'s ids (32 random hex digits each; the composition draws them) that scrubText leaves as written. */
export function drawGrantId(draw: () => string): string {
  for (;;) {
    const id = draw();
    if (scrubText(id) === id) return id;
  }
}
