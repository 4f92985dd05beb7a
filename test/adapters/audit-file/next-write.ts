import { open, type FileHandle } from 'node:fs/promises';

type Write = (target: FileHandle, bytes: Buffer, offset: number) => Promise<{ bytesWritten: number }>;

/**
 * `open` as the audit trail uses it, but the handle's next write after `arm(write)` is `write` (once):
 * a disk that fails half-way, another process writing first. Every other call is the handle's own.
 */
export function nextWriteOpener(): { open: typeof open; arm: (write: Write) => void } {
  let armed: Write | undefined;
  const opener = (async (...args: Parameters<typeof open>) => {
    const handle = await open(...args);
    return new Proxy(handle, {
      get(target, property) {
        const instead = armed;
        if (property === 'write' && instead !== undefined) {
          return async (bytes: Buffer, offset = 0) => {
            armed = undefined;
            return instead(target, bytes, offset);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }) as typeof open;
  return { open: opener, arm: (write) => { armed = write; } };
}
