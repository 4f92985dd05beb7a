/**
 * The patient app is a client of the proxy routes' contract (docs/proxies.md) and keeps its own copy of
 * the grant's type, bundled for the browser without the service's modules. The type checker holds the
 * copy to the domain's: a field added, dropped or retyped on either side fails `npm run typecheck`.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Grant, GrantStatus } from '../../app/src/grant-types.js';
import type { GrantStatus as DomainGrantStatus, GrantView } from '../../src/domain/proxies/grant.js';

describe('the patient app\'s grant type', () => {
  it('is the domain\'s GrantView, field for field', () => {
    expectTypeOf<Grant>().toEqualTypeOf<GrantView>();
    expectTypeOf<GrantStatus>().toEqualTypeOf<DomainGrantStatus>();
  });
});
