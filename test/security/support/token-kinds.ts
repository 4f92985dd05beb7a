import { TEST_CLIENT_ID } from '../../support/test-issuer.js';

/**
 * Tokens that are neither a person token (a valid identity number, as a string, in the patient
 * claim) nor a client token (no patient claim at all, and a `client_id`/`azp` listed in
 * AUTH_CLIENT_IDS): docs/contract.md#token-kinds refuses each with 401 `invalid_token` (issue 12 item 1). Each
 * carries a listed client id unless the case is about the client id, so a refusal can only come
 * from the rule the case names, never from an unlisted client.
 *
 * Each entry is [label, claims to spread over a token with every scope and `sub`]; a claim set to
 * `undefined` is left out of the token.
 */
export function notAPersonNorAClient(self: string): Array<[string, Record<string, unknown>]> {
  const listed = { client_id: TEST_CLIENT_ID };
  return [
    ['the patient claim as a number', { ...listed, patient: Number(self) }],
    ['the patient claim as an array', { ...listed, patient: [self] }],
    ['the patient claim null', { ...listed, patient: null }],
    ['the patient claim empty', { ...listed, patient: '' }],
    ['the patient claim with a bad check digit', { ...listed, patient: `${self.slice(0, 11)}${(Number(self.slice(11)) + 1) % 10}` }],
    ['the patient claim not an identity number', { ...listed, patient: 'not-a-person' }],
    ['the patient claim with a space', { ...listed, patient: ` ${self}` }],
    ['the patient claim as an object', { ...listed, patient: { id: self } }],
    ['the patient claim true', { ...listed, patient: true }],
    ['no patient claim and an unlisted client_id', { client_id: 'rogue-client' }],
    ['no patient claim and an unlisted azp', { azp: 'rogue-client' }],
    ['no patient claim and no client id at all', {}],
    ['no patient claim and the listed client id as a number', { client_id: 17 }],
    ['no patient claim and the listed client id in a list', { client_id: [TEST_CLIENT_ID] }],
    ['no patient claim, an unlisted client_id and a listed azp', { client_id: 'rogue-client', azp: TEST_CLIENT_ID }],
    ['a client token without sub', { ...listed, sub: undefined }],
    ['a client token with sub as a number', { ...listed, sub: 42 }],
    ['a person token without sub', { ...listed, patient: self, sub: undefined }],
    ['a person token with sub as a number', { ...listed, patient: self, sub: 1212 }],
    ['a person token with sub as a list', { ...listed, patient: self, sub: ['a'] }],
    ['a person token with sub empty', { ...listed, patient: self, sub: '' }],
  ];
}
