import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';

/** What loadConfig says of `env`: the ConfigError's one line, or 'started' when it takes it. */
export function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return 'started';
}
