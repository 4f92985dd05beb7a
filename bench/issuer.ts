/**
 * The loopback OpenID issuer of the bench: the test suite's issuer (discovery, JWKS, RS256 signer),
 * with tokens shaped for the bench's synthetic person. It exists only while the bench runs.
 */
import { TestIssuer } from '../test/support/test-issuer.js';

export const AUDIENCE = 'patient-data-access';

export class BenchIssuer {
  private constructor(private readonly inner: TestIssuer) {}

  static async start(): Promise<BenchIssuer> {
    return new BenchIssuer(await TestIssuer.start());
  }

  get issuer(): string {
    return this.inner.issuer;
  }

  get jwksUrl(): string {
    return this.inner.jwksUrl;
  }

  /** A person token for `patient` with `scope`, valid for an hour. */
  sign(patient: string, scope: string, extra: Record<string, unknown> = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return this.inner.sign({ aud: AUDIENCE, sub: `bench-${patient.slice(-4)}`, patient, scope, iat: now, exp: now + 3600, ...extra });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
