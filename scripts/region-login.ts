/**
 * `npm run region-login -- <folder> [--service <PUBLIC_BASE_URL>] [--host <loopback>] [--port <n>]`: a
 * DEVELOPMENT STAND-IN for the region's login (src/dev/region-login, docs/sign-in.md#set-it-up-in-an-hour),
 * an OpenID Provider with the Swedish profile's claims and acr that signs in whoever is named on its page.
 * It registers the service as client `pdas` with the secret in `<folder>/region-client-secret` (made
 * 0600 on the first run, kept after), coming back to `<service>/auth/callback` (default
 * http://127.0.0.1:8080, or PUBLIC_BASE_URL), and listens on 127.0.0.1:8085 (REGION_LOGIN_PORT): on a
 * loopback address only, anything else is refused. It prints the service's settings for it.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isLoopbackAddress, STAND_IN_DEFAULTS, startRegionLogin } from '../src/dev/region-login/region-login.js';
import { LOA3 } from '../src/dev/region-login/region-provider.js';

const USAGE = 'usage: npm run region-login -- <folder> [--service http://127.0.0.1:8080] [--host 127.0.0.1] [--port 8085]';
const CLIENT_ID = STAND_IN_DEFAULTS.clientId;
const SECRET_FILE = 'region-client-secret';

class Refusal extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

function options(argv: string[]): { folder: string; service: URL; host: string; port: number } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { service: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' } } });
  } catch (err) {
    throw new Refusal(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`, 2);
  }
  const [folder, ...extra] = parsed.positionals;
  if (folder === undefined || extra.length > 0) throw new Refusal(USAGE, 2);
  const service = parsed.values.service ?? process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:8080';
  if (!URL.canParse(service) || !/^https?:$/.test(new URL(service).protocol)) throw new Refusal(`--service must be the service's PUBLIC_BASE_URL, e.g. http://127.0.0.1:8080\n${USAGE}`, 2);
  const host = parsed.values.host ?? process.env.REGION_LOGIN_HOST ?? STAND_IN_DEFAULTS.host;
  if (!isLoopbackAddress(host)) throw new Refusal(`--host ${host} is not a loopback address: the stand-in signs in whoever is named, so it listens on 127.0.0.1, ::1 or localhost only`, 2);
  const port = Number(parsed.values.port ?? process.env.REGION_LOGIN_PORT ?? STAND_IN_DEFAULTS.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Refusal(`--port must be a port number\n${USAGE}`, 2);
  return { folder: path.resolve(folder), service: new URL(service.replace(/\/+$/, '')), host, port };
}

/** The service's client secret at the stand-in: the one in the folder, else a new one written there (0600, never over a file). */
async function clientSecret(file: string): Promise<string> {
  const kept = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (kept !== undefined) {
    if (kept.trim() === '') throw new Refusal(`${file} is empty: remove it, and a new secret is made`, 1);
    return kept.trim();
  }
  const secret = randomBytes(32).toString('base64url');
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(`${secret}\n`);
  } finally {
    await handle.close();
  }
  return secret;
}

async function main(): Promise<void> {
  const { folder, service, host, port } = options(process.argv.slice(2));
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const secretFile = path.join(folder, SECRET_FILE);
  const redirect = `${service.href.replace(/\/$/, '')}/auth/callback`;
  const login = await startRegionLogin({ host, port, client: { clientId: CLIENT_ID, clientSecret: await clientSecret(secretFile), redirectUris: [redirect] } });
  process.stdout.write([
    'DEVELOPMENT STAND-IN for the region\'s login, not for production: it signs in whoever is named on its page, with no identification.',
    `  listening: ${login.issuer} (loopback only; Ctrl-C stops it)`,
    `  it sends people back to ${redirect}`,
    '  the service\'s settings for it:',
    `    SIGN_IN_LOGIN_ISSUER=${login.issuer}`,
    `    SIGN_IN_LOGIN_CLIENT_ID=${CLIENT_ID}`,
    `    SIGN_IN_LOGIN_CLIENT_SECRET_FILE=${secretFile}`,
    `    SIGN_IN_LOGIN_ACR=${LOA3}`,
    '',
  ].join('\n'));
  const stop = () => {
    void login.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`region-login: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof Refusal ? err.code : 1);
});
