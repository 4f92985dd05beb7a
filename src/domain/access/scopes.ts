/**
 * Scopes as the API names them (`user/Appointment-read`). SMART-style scopes from other
 * authorization servers are folded onto them, so one comparison serves every issuer.
 */
const SMART = /^(?:user|patient)\/([A-Za-z]+)\.(read|write)$/;
// FHIR's AuditEvent is what this API calls the access log (CONTRACT §6).
const RESOURCE_ALIASES: Readonly<Record<string, string>> = { PaymentNotice: 'Payment', AuditEvent: 'AccessLog' };

export function canonicalScope(scope: string): string {
  const m = SMART.exec(scope);
  if (!m) return scope;
  const resource = m[1] ?? '';
  return `user/${RESOURCE_ALIASES[resource] ?? resource}-${m[2]}`;
}

/** Scopes from a `scope` string (space-separated) or `scp` (string or array). */
export function scopesFromClaims(scope: unknown, scp: unknown): Set<string> {
  const raw: string[] = [];
  for (const value of [scope, scp]) {
    if (typeof value === 'string') raw.push(...value.split(' '));
    else if (Array.isArray(value)) raw.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return new Set(raw.filter((s) => s.length > 0).map(canonicalScope));
}
