/** One notification to POST to a subscription's endpoint (docs/notifications.md). */
export interface Delivery {
  endpoint: string;                       // an absolute URL allowed at creation (EndpointRules)
  headers: readonly (readonly [string, string])[]; // the subscription's channel.header lines, already validated
  body: string;                           // the notification Bundle as JSON
  timeoutMs: number;                      // the whole attempt, connect to last byte of the answer's head
}
export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }                 // 2xx
  | { kind: 'refused'; status: number }                   // any other status, 3xx included (never followed)
  | { kind: 'unreachable'; reason: 'timeout' | 'connection' | 'tls' | 'blocked-address' };
export interface NotificationChannel {
  send(delivery: Delivery): Promise<DeliveryOutcome>;    // never throws for a network fault
  close(): Promise<void>;
}
