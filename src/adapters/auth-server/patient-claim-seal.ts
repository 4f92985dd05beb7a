// Issue 52 item 11: the patient claim (AUTH_PATIENT_CLAIM) of the access tokens the service's own
// authorization server issues is sealed. An app reads its token (a JWT), and a readable identity
// number there would undo the pairwise `sub`: every app would know who the person is. The COS and
// FHIR doors still need the number, and they sit in the same process as the server, which holds the
// private signing keys: the claim is an encrypted JWE (`dir`, A256GCM) under a key derived from the
// signing key it names by `kid`, so every instance reading one SIGN_IN_KEYS_FILE (or the demo's
// DATA_DIR) derives the same key, and a token keeps opening while its signing key is published.
// The sealed text holds the token's own `jti` and `client_id`, so a value copied into another token
// (another person's, another app's) opens to nothing there.
import { hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, type CompactJWEHeaderParameters, type JWK, type JWTPayload } from 'jose';

/** Opens the sealed patient claim of `claims` (a verified token): the identity number, or undefined when it is not sealed for this token. */
export type OpenPatientClaim = (sealed: unknown, claims: JWTPayload) => Promise<string | undefined>;

export interface PatientClaimSeal {
  /** The claim's sealed value for the token `claims` (its `jti` and `client_id` bound in). */
  seal(personId: string, claims: JWTPayload): Promise<string>;
  open: OpenPatientClaim;
}

const SALT = 'patient-data-access patient claim seal';
const ALGORITHMS = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] };

/** HKDF-SHA-256 of the private exponent: a secret only a holder of the signing key has, one per `kid`. */
function sealKey(key: JWK): Uint8Array {
  if (typeof key.d !== 'string' || typeof key.kid !== 'string') throw new Error('the patient claim is sealed with a private signing key that has a kid');
  return new Uint8Array(hkdfSync('sha256', Buffer.from(key.d, 'base64url'), SALT, `A256GCM key of the tokens signed by ${key.kid}`, 32));
}

interface Sealed { person?: unknown; jti?: unknown; client_id?: unknown }

/** The seal of the server's private signing keys: the first seals (as it signs), every one opens. */
export function patientClaimSeal(signingKeys: readonly JWK[]): PatientClaimSeal {
  const keys = new Map(signingKeys.map((key) => [key.kid, sealKey(key)]));
  const first = signingKeys[0];
  if (first?.kid === undefined) throw new Error('the patient claim is sealed with the first signing key, and there is none');
  const sealing = { kid: first.kid, key: sealKey(first) };
  return {
    async seal(personId, claims) {
      if (typeof claims.jti !== 'string' || typeof claims.client_id !== 'string') throw new Error('a sealed patient claim is bound to its token\'s jti and client_id');
      const text = JSON.stringify({ person: personId, jti: claims.jti, client_id: claims.client_id });
      return new CompactEncrypt(new TextEncoder().encode(text)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: sealing.kid }).encrypt(sealing.key);
    },
    async open(sealed, claims) {
      if (typeof sealed !== 'string') return undefined;
      let inner: Sealed;
      try {
        const { plaintext } = await compactDecrypt(sealed, (header: CompactJWEHeaderParameters) => {
          const key = header.kid === undefined ? undefined : keys.get(header.kid);
          if (key === undefined) throw new Error('no such key');
          return key;
        }, ALGORITHMS);
        const parsed = JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
        inner = typeof parsed === 'object' && parsed !== null ? parsed : {};
      } catch {
        return undefined;
      }
      const bound = inner.jti === claims.jti && inner.client_id === claims.client_id && typeof claims.jti === 'string';
      return bound && typeof inner.person === 'string' ? inner.person : undefined;
    },
  };
}
