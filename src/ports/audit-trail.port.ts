/** One access to patient data, allowed, refused or failed. Never holds a token or a key. */
export interface AuditRecord {
  /** ISO-8601 UTC time of the decision. */
  time: string;
  requestId: string;
  operation: string;
  /** `iss` + `sub` of the token, when one was verified. */
  actor?: { issuer: string; subject: string; personId?: string };
  clientId?: string;
  /** Name (never the value) of the subscription key. */
  subscription?: string;
  /** The patient the request was for, when known. */
  patientId?: string;
  /** `self`, `client`, or the relationship type that allowed the access. */
  delegation?: string;
  sourceAddress: string;
  outcome: 'allowed' | 'denied' | 'failed';
  status: number;
}

export interface AuditTrail {
  /** Resolves once the record is durably stored; rejects if it cannot be. */
  append(record: AuditRecord): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
