/** One injection token per port; the composition root (src/start/container.ts) binds each to an adapter. */
export const TOKENS = {
  Clock: Symbol('Clock'),
  EhrRecords: Symbol('EhrRecords'),
  DelegationRegistry: Symbol('DelegationRegistry'),
  AuditTrail: Symbol('AuditTrail'),
  AccessTokenVerifier: Symbol('AccessTokenVerifier'),
  SubscriptionKeys: Symbol('SubscriptionKeys'),
  WriteCoordinator: Symbol('WriteCoordinator'),
  AccessLogReader: Symbol('AccessLogReader'),
  PageCursors: Symbol('PageCursors'),
} as const;
