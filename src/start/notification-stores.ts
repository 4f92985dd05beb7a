/**
 * Where notifications are kept (docs/notifications.md#where-it-is-kept), as the settings pick: with
 * DATABASE_URL the PostgreSQL store, budget and audit feed, shared by every instance (their modules
 * imported only then, as the audit store's are); without it the file in DATA_DIR, a budget of this
 * process's own, and the JSON-lines audit trail read forward.
 */
import { FileAuditFeed } from '../adapters/audit-query/file-audit-feed.js';
import { FileSubscriptionStore } from '../adapters/subscriptions/file-subscription-store.js';
import { MemoryPollBudget } from '../adapters/subscriptions/memory-poll-budget.js';
import type { AuditFeed } from '../ports/audit-feed.port.js';
import type { PollBudget } from '../ports/poll-budget.port.js';
import type { SubscriptionStore } from '../ports/subscription-store.port.js';
import type { Config } from './config.js';
import type { Lifecycle } from './lifecycle.js';
import { auditFileOf } from './start-line.js';

export interface NotificationStores {
  store: SubscriptionStore;
  budget: PollBudget;
  auditFeed: AuditFeed;
}

export async function openNotificationStores(config: Config, readsPerSecond: number, life: Lifecycle, onWarning: (msg: string) => void): Promise<NotificationStores> {
  const url = config.databaseUrl;
  if (url === undefined) {
    const store = await FileSubscriptionStore.open(config.dataDir);
    life.onClose(() => store.close());
    return { store, budget: new MemoryPollBudget(readsPerSecond), auditFeed: new FileAuditFeed(auditFileOf(config), { onWarning }) };
  }
  const [{ PostgresSubscriptionStore }, { PostgresPollBudget }, { PostgresAuditFeed }] = await Promise.all([
    import('../adapters/subscriptions/postgres-subscription-store.js'),
    import('../adapters/subscriptions/postgres-poll-budget.js'),
    import('../adapters/audit-query/postgres-audit-feed.js'),
  ]);
  const store = await PostgresSubscriptionStore.open({ connectionString: url });
  const budget = await PostgresPollBudget.open({ connectionString: url, readsPerSecond });
  const auditFeed = PostgresAuditFeed.create({ connectionString: url, onWarning });
  life.onClose(async () => {
    await auditFeed.close();
    await budget.close();
    await store.close();
  });
  return { store, budget, auditFeed };
}
