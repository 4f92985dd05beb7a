/**
 * `npm run sign-in-keys -- <folder>`: the two key files the service's own sign-in needs
 * (docs/sign-in.md#set-it-up-in-an-hour), made in `folder` (made 0700 when missing):
 *   signing-keys.json  SIGN_IN_KEYS_FILE, a private JWKS of one new RSA key with a kid
 *   cookie-keys        SIGN_IN_COOKIE_KEYS_FILE, one new random cookie key
 * Each is written for its owner alone (0600) and only where no file is: a key in use is never replaced
 * (rotating is adding a key to the file, docs/sign-in.md#rotating-keys), a link planted there is never
 * followed, a folder others may write in is refused, and when either file is there already neither is written. It prints where they are and the
 * settings naming them, never a key. Exit code 2 for bad arguments, 1 when it writes nothing.
 */
import { constants } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { newCookieKey, newSigningKey } from '../../adapters/auth-server/key-files.js';
import { commandLogger, say } from './command-log.js';

const USAGE = 'usage: npm run sign-in-keys -- <folder>   (writes <folder>/signing-keys.json and <folder>/cookie-keys)';
export const SIGNING_KEYS_FILE = 'signing-keys.json';
export const COOKIE_KEYS_FILE = 'cookie-keys';

class Refusal extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

/** `text` into a new file at `file`, 0600: O_EXCL refuses a file or link that is there, O_NOFOLLOW a link anywhere at the name. */
async function writeNew(file: string, text: string): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} }));
  } catch (err) {
    throw new Refusal(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`, 2);
  }
  const [folder, ...extra] = positionals;
  if (folder === undefined || folder === '' || extra.length > 0) throw new Refusal(USAGE, 2);
  const dir = path.resolve(folder);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Whoever may write in the folder may swap a key file for their own after it is written.
  const mode = (await stat(dir)).mode & 0o777;
  if ((mode & 0o022) !== 0) {
    throw new Refusal(`${dir} can be written by others (mode ${mode.toString(8).padStart(4, '0')}), who could swap a key file for their own: `
      + `nothing was written. Use a folder only you can write (chmod go-w ${dir}), and run it again.`, 1);
  }
  const files = { keys: path.join(dir, SIGNING_KEYS_FILE), cookies: path.join(dir, COOKIE_KEYS_FILE) };
  // Made before anything is written, so a refusal leaves the folder as it was.
  const jwks = `${JSON.stringify({ keys: [await newSigningKey(new Date())] }, null, 2)}\n`;
  const cookies = `${newCookieKey()}\n`;
  const written: string[] = [];
  try {
    for (const [file, text] of [[files.keys, jwks], [files.cookies, cookies]] as const) {
      await writeNew(file, text);
      written.push(file);
    }
  } catch (err) {
    // Both or neither: the one written already goes, so a second run finds the folder as before.
    for (const file of written) await rm(file, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP') {
      throw new Refusal(`${path.join(dir, path.basename(String((err as NodeJS.ErrnoException).path ?? '')))} is there already: nothing was written `
        + '(a key in use is never replaced; to rotate, add a key to the file: docs/sign-in.md#rotating-keys)', 1);
    }
    throw new Refusal(`cannot write the key files in ${dir}: ${err instanceof Error ? err.message : String(err)}`, 1);
  }
  say(`Wrote ${files.keys} (a private JWKS: one RSA key, the one that signs) and ${files.cookies} (one cookie key), readable by you alone (0600).`);
  say('Keep them where only the service can read them; every instance gets the same two files. Settings:');
  say(`  SIGN_IN_KEYS_FILE=${files.keys}`);
  say(`  SIGN_IN_COOKIE_KEYS_FILE=${files.cookies}`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  if (!(err instanceof Refusal)) throw err;
  commandLogger('sign-in-keys').error(err.message);
  return err.code;
});
