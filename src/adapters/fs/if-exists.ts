import { open, readFile, type FileHandle } from 'node:fs/promises';

/** What `attempt` gives, or undefined when it fails because there is no such file; every other failure is thrown. */
async function unlessAbsent<T>(attempt: Promise<T>): Promise<T | undefined> {
  try {
    return await attempt;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A file's text, or undefined when there is no such file; every other failure is thrown. */
export function readTextIfExists(file: string): Promise<string | undefined> {
  return unlessAbsent(readFile(file, 'utf8'));
}

/** A read handle on the file, or undefined when there is no such file; the caller closes it. */
export function openIfExists(file: string): Promise<FileHandle | undefined> {
  return unlessAbsent(open(file, 'r'));
}
