export interface SubscriptionKeys {
  /** The name of the subscription the key belongs to, or undefined. Compares in constant time. */
  identify(key: string): string | undefined;
}
