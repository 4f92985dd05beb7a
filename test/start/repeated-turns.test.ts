// A service's background turns (the notifications' feeds and deliveries, their pruning, the sharing
// grants' lapses) write to stores that close with the service. A turn under way when closing began
// wrote after its store had closed: a file store's temp file appeared in DATA_DIR after the service
// had closed (a test's `rm` of the folder then failed with ENOTEMPTY in CI), a PostgreSQL store's
// write met an ended pool. Closing now waits for the turn under way, and starts no other.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../../src/start/lifecycle.js';
import { repeatUntilClosed } from '../../src/start/repeated-turns.js';

describe('repeatUntilClosed', () => {
  it('lets the turn under way finish before closing ends, and starts none after', async () => {
    const life = new Lifecycle();
    const events: string[] = [];
    let turns = 0;
    repeatUntilClosed(5, async () => {
      turns += 1;
      events.push('began');
      await sleep(60);
      events.push('wrote');
    }, () => events.push('failed'), life);
    while (turns === 0) await sleep(2);
    await life.closeAll();
    events.push('closed');
    await sleep(30);
    expect(events).toEqual(['began', 'wrote', 'closed']);
  });

  it('runs one turn at a time, tells a failure and goes on', async () => {
    const life = new Lifecycle();
    const failures: unknown[] = [];
    let running = 0;
    let most = 0;
    let turns = 0;
    repeatUntilClosed(2, async () => {
      turns += 1;
      running += 1;
      most = Math.max(most, running);
      await sleep(10);
      running -= 1;
      if (turns === 1) throw new Error('the first turn fails');
    }, (err) => failures.push(err), life);
    while (turns < 3) await sleep(2);
    await life.closeAll();
    expect([most, failures.length]).toEqual([1, 1]);
  });
});
