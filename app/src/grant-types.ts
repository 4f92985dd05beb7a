/** The grant object of the service's proxy routes (docs/proxies.md) and the body that asks for one, without the DOM, so tests read them too. */
export type GrantStatus = 'pending' | 'active' | 'declined' | 'revoked' | 'expired' | 'lapsed';
export interface GrantParty { identityNumber: string; name?: string }

/**
 * The contract's grant object (docs/proxies.md), as the caller (`role`) sees it: the app's own copy, held
 * equal to the domain's GrantView by the type checker (test/http/grant-wire-types.test.ts).
 */
export interface Grant {
  id: string;
  status: GrantStatus;
  role: 'grantor' | 'grantee';
  grantor: GrantParty;
  grantee: GrantParty;
  categories: string[];
  validFrom: string;
  validTo?: string;
  purpose?: string;
  created: string;
  changed: string;
  endedBy?: 'grantor' | 'grantee' | 'support';
}

export interface GrantBody { grantee: string; categories: string[]; validTo?: string; purpose?: string }
