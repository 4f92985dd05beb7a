/**
 * Settings of the patient's access log (docs/contract.md#the-patients-access-log): the secret its page cursors are sealed with,
 * and the names patients see for the applications that accessed their data.
 */
import { readFileSync } from 'node:fs';

export interface AccessLogSettings {
  /**
   * ACCESS_LOG_CURSOR_SECRET (or _FILE). Instances behind one load balancer need the same one, or a
   * cursor from one is refused (400) by another. Undefined: a random secret kept in DATA_DIR.
   */
  accessLogCursorSecret: string | undefined;
  /** CLIENT_NAMES: display names by OAuth client id or subscription name; empty by default. */
  clientNames: ReadonlyMap<string, string>;
}

type Env = Readonly<Record<string, string | undefined>>;

const MIN_SECRET = 32;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SHOWABLE_NAME = /^[^\u0000-\u001f\u007f-\u009f]{1,128}$/;

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function cursorSecret(env: Env, fail: (message: string) => Error): string | undefined {
  const inline = text(env, 'ACCESS_LOG_CURSOR_SECRET');
  const file = text(env, 'ACCESS_LOG_CURSOR_SECRET_FILE');
  const secret = inline ?? (file === undefined ? undefined : readFileSync(file, 'utf8').trim());
  if (secret !== undefined && secret.length < MIN_SECRET) throw fail(`ACCESS_LOG_CURSOR_SECRET must be at least ${MIN_SECRET} characters`);
  return secret;
}

/** `id:Display name,id:Display name`; an id is a token's client_id or a subscription name. */
export function parseClientNames(raw: string | undefined, fail: (message: string) => Error): Map<string, string> {
  const names = new Map<string, string>();
  for (const pair of (raw ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const i = pair.indexOf(':');
    const id = pair.slice(0, i).trim();
    const name = pair.slice(i + 1).trim();
    if (i <= 0 || !SHOWABLE_NAME.test(name)) throw fail('CLIENT_NAMES entries must be id:Display name (1-128 printable characters)');
    names.set(id, name);
  }
  return names;
}

export function readAccessLogSettings(env: Env, fail: (message: string) => Error): AccessLogSettings {
  return { accessLogCursorSecret: cursorSecret(env, fail), clientNames: parseClientNames(text(env, 'CLIENT_NAMES'), fail) };
}
