/**
 * What an access reaches, operation by operation: the one rule every door applies after the patient
 * is decided (PatientAccessPolicy). Self, a client token and a registry relationship reach what their
 * scopes allow; a proxy grant (docs/proxies.md#what-a-grant-opens) reaches the reads of its categories
 * and nothing else: never another read, the access log, a write or proxy management.
 */
import { categoryOf } from '../proxies/categories.js';
import { isOperationName, OPERATIONS, type ReadName } from '../operations/table.js';
import type { AccessBasis, ProxyReach } from './relationship.js';

/** What of an access decides its reach. */
export interface Reaching {
  basis: AccessBasis;
  reach?: ProxyReach;
}

/** Whether the access may take `read`'s records. A proxy access without a reach reaches nothing (fail closed). */
export function reachesRead(access: Reaching, read: ReadName): boolean {
  if (access.basis !== 'proxy') return true;
  const reach = access.reach;
  if (reach === undefined) return false;
  return reach === '*' || reach.has(categoryOf(read));
}

/**
 * Whether the access may perform `operation` (a name of the operation table or one audited beside it):
 * a read by its category, anything else only on a basis other than `proxy`.
 */
export function reachesOperation(access: Reaching, operation: string): boolean {
  if (access.basis !== 'proxy') return true;
  return isOperationName(operation) && OPERATIONS[operation].handler === 'records' && reachesRead(access, operation as ReadName);
}
