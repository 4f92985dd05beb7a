/**
 * The sign-in's own cookies read by their exact name (src/adapters/auth-server/login-binding.ts): on https
 * the name carries the `__Host-` prefix, which no other site may set, so a cookie whose name only looks
 * like it once trimmed must never count. Found by the third review: `\xA0__Host-pdas_login_<state>`,
 * a name a sibling subdomain may set (a browser checks the prefix on the name as written), was read as
 * `__Host-pdas_login_<state>` because String.prototype.trim strips U+00A0 (Node reads header bytes as
 * latin1), and the attacker's login finished with the victim's login at the region. Failed before:
 * the planted value was read.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cookieValues } from '../../../src/adapters/auth-server/login-binding.js';

const NAME = '__Host-pdas_login_state123';
const request = (cookie: string): IncomingMessage => ({ headers: { cookie } }) as unknown as IncomingMessage;

describe('cookieValues: a cookie by its exact name', () => {
  it('reads the name as sent, around the separators\' spaces and tabs only', () => {
    expect(cookieValues(request(`a=1; ${NAME}=good`), NAME)).toEqual(['good']);
    expect(cookieValues(request(`a=1;\t${NAME}=good ; b=2`), NAME)).toEqual(['good']);
  });

  it.each([
    ['a no-break space (a latin1 0xA0 byte)', '\u00a0'],
    ['an en quad', '\u2000'],
    ['a line separator', '\u2028'],
    ['a byte-order mark', '\ufeff'],
    ['a vertical tab', '\v'],
    ['a form feed', '\f'],
  ])('never takes a name with %s before it for the prefixed one', (_what, space) => {
    expect(cookieValues(request(`${space}${NAME}=planted`), NAME)).toEqual([]);
    expect(cookieValues(request(`a=1;${space}${NAME}=planted`), NAME)).toEqual([]);
    expect(cookieValues(request(`${NAME}${space}=planted`), NAME)).toEqual([]);
  });
});
