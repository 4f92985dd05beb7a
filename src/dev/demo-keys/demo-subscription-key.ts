import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const DEMO_KEY_FILE = 'demo-subscription-key';

/** The demo key of `npm start` without SUBSCRIPTION_KEYS: random on first start, kept (0600) in DATA_DIR. */
export async function demoSubscriptionKeys(dataDir: string): Promise<Map<string, string>> {
  const file = path.join(dataDir, DEMO_KEY_FILE);
  let key: string;
  try {
    key = (await readFile(file, 'utf8')).trim();
  } catch {
    key = randomBytes(24).toString('hex');
    await writeFile(file, `${key}\n`, { mode: 0o600 });
  }
  return new Map([['demo', key]]);
}
