// Issue 52 item 11: what an app can read of an access token it was given, header and claims decoded
// as any JWT library would, searched for an identity number by the service's own rule of what names a
// person (src/domain/redaction/names-a-person.ts: 12 digits or 10, however they are spelt).
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { namesAPerson } from '../../src/domain/redaction/names-a-person.js';

/** The token's header and claims as an app reads them, as one text. */
export const readableText = (token: string): string => JSON.stringify([decodeProtectedHeader(token), decodeJwt(token)]);

/** Whether an app reading `token` finds an identity number in it, or one of `numbers` in any spelling of its digits. */
export function showsIdentityNumber(token: string, numbers: readonly string[]): boolean {
  const text = readableText(token);
  return namesAPerson(text) || numbers.some((n) => text.includes(n) || text.includes(n.slice(2)));
}
