import { open, readFile, type FileHandle } from 'node:fs/promises';

const absent = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** A file's text, or undefined when there is no such file; every other failure is thrown. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if (absent(err)) return undefined;
    throw err;
  }
}

/** A read handle on the file, or undefined when there is no such file; the caller closes it. */
export async function openIfExists(file: string): Promise<FileHandle | undefined> {
  try {
    return await open(file, 'r');
  } catch (err) {
    if (absent(err)) return undefined;
    throw err;
  }
}
