/**
 * The scopes that reach the Consents of proxy grants (docs/contract.md §11): `patient/Consent.rs`
 * and `user/Consent.read` read them, `patient/Consent.cud` and `user/Consent.write` grant and revoke,
 * as the COS door's `user/Proxy-read` and `user/Proxy-write` do. Consent must be named: a wildcard
 * (`patient/*.read`) that an app asked for to read a record does not hand it the management of who
 * else may read it.
 */
import { grantProxy, listProxies } from '../operations/proxy-operations.js';
import { namedScopeAllows, type NamedPermission, type ScopeContext } from './smart-scopes.js';

/** What is done with a Consent: read by id, searched, created (a grant) or deleted (a revocation). */
export type ConsentInteraction = 'read' | 'search' | 'create' | 'delete';

// The COS door's scopes of sharing, as the operation table names them.
export const PROXY_READ_SCOPE = listProxies.scope.name;
export const PROXY_WRITE_SCOPE = grantProxy.scope.name;

/** The letter of each interaction in SMART v2 permissions, and the v1 permission that grants it. */
const NEEDS: Readonly<Record<ConsentInteraction, NamedPermission>> = {
  read: { letters: 'r', v1: 'read' }, search: { letters: 's', v1: 'read' }, create: { letters: 'c', v1: 'write' }, delete: { letters: 'd', v1: 'write' },
};

/** Whether `scopes` allow `interaction` on Consent in one of `contexts`. */
export function consentAllows(scopes: Iterable<string>, interaction: ConsentInteraction, contexts: readonly ScopeContext[]): boolean {
  const wanted = interaction === 'read' || interaction === 'search' ? PROXY_READ_SCOPE : PROXY_WRITE_SCOPE;
  const written = [...scopes];
  if (contexts.includes('user') && written.includes(wanted)) return true;
  return namedScopeAllows(written, 'Consent', NEEDS[interaction], contexts);
}

/** The scope to ask for, named in a refusal; `self`: the app was opened for the person, not for someone they act for. */
export const consentScopeFor = (interaction: ConsentInteraction, self = true): string => {
  const reads = interaction === 'read' || interaction === 'search';
  if (!self) return reads ? 'user/Consent.read' : 'user/Consent.write';
  return reads ? 'user/Consent.read (or patient/Consent.rs)' : 'user/Consent.write (or patient/Consent.cud)';
};

const SCOPE = /^(patient|user)\/Consent\.([a-z*]+)$/;

/** A person's scope on Consent (`patient/Consent.cud`, `user/Consent.write` …), which an authorization server may grant a SMART app. */
export const isConsentScope = (scope: string): boolean =>
  SCOPE.test(scope) && (['read', 'search', 'create', 'delete'] as const).some((i) => consentAllows([scope], i, ['patient', 'user']));
