import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * What the notification engine shows an operator (docs/operations.md#alerts, docs/notifications.md#the-ehr-budget):
 * how far polling lags behind `SUBSCRIPTION_POLL_SECONDS`, the EHR reads it made against the budget,
 * what came of each delivery, and how many subscriptions are in each status. Registered at start
 * whether subscriptions are on or not (0 then), as every metric of the service is.
 */
export class NotificationMetrics {
  private lag: () => Promise<number> = async () => 0;
  private feedLag: () => Promise<number> = async () => 0;
  private statuses: () => Promise<Record<string, number>> = async () => ({});

  readonly ehrReads: Counter;
  readonly budget: Gauge;
  readonly deliveries: Counter<'outcome'>;

  constructor(registry: Registry) {
    const lag = (): Promise<number> => this.lag();
    const statuses = (): Promise<Record<string, number>> => this.statuses();
    const feedLag = (): Promise<number> => this.feedLag();
    new Gauge({
      name: 'pdas_subscription_poll_lag_seconds',
      help: 'How long the most overdue poll of a subscribed patient has waited past its time (0: none overdue). Grows when the EHR budget cannot keep up.',
      registers: [registry],
      async collect() {
        this.set(await lag().catch(() => 0));
      },
    });
    new Gauge({
      name: 'pdas_subscription_feed_lag_seconds',
      help: 'Seconds the access feed has been behind the audit trail\'s end, or unable to read it (0 while it keeps up); the same on every instance.',
      registers: [registry],
      async collect() {
        this.set(await feedLag().catch(() => 0));
      },
    });
    new Gauge({
      name: 'pdas_subscriptions', help: 'Subscriptions kept, by status (requested, active, error, off).', labelNames: ['status'] as const, registers: [registry],
      async collect() {
        this.reset();
        for (const status of ['requested', 'active', 'error', 'off']) this.set({ status }, 0);
        for (const [status, n] of Object.entries(await statuses().catch(() => ({})))) this.set({ status }, n);
      },
    });
    this.ehrReads = new Counter({
      name: 'pdas_subscription_ehr_reads_total', help: 'EHR reads made by polling subscribed patients (this instance).', registers: [registry],
    });
    this.budget = new Gauge({
      name: 'pdas_subscription_ehr_reads_budget', help: 'SUBSCRIPTION_EHR_READS_PER_SECOND: the most EHR reads a second polling may make across every instance.', registers: [registry],
    });
    this.deliveries = new Counter({
      name: 'pdas_subscription_deliveries_total', help: 'Notifications POSTed to endpoints, by outcome (delivered, refused, unreachable).',
      labelNames: ['outcome'] as const, registers: [registry],
    });
    for (const outcome of ['delivered', 'refused', 'unreachable']) this.deliveries.inc({ outcome }, 0);
  }

  /** Where the lag (seconds) and the count by status are read at scrape time: the subscription store's; the feed's lag, the feed follower's. */
  readFrom(lag: () => Promise<number>, statuses: () => Promise<Record<string, number>>, feedLag: () => Promise<number> = async () => 0): void {
    this.lag = lag;
    this.statuses = statuses;
    this.feedLag = feedLag;
  }
}
