import { unwatchFile, watchFile } from 'node:fs';

export interface FileWatch {
  close(): void;
}

export interface FileWatchTiming {
  /** How often each file is looked at. */
  intervalMs: number;
  /** How long the files must stay unchanged before `onChange` runs. */
  settleMs: number;
}

/**
 * Calls `onChange` once the files have changed and then stayed unchanged for `settleMs`, so a file
 * written in several steps, or a certificate and its key written one after the other, is read once
 * after the last write. Polls by path (fs.watchFile): a file replaced by a rename, or a swapped
 * symlink as Kubernetes mounts secrets, is noticed as well as one rewritten in place.
 */
export function watchFiles(files: readonly string[], onChange: () => void, timing: FileWatchTiming): FileWatch {
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, timing.settleMs);
    timer.unref();
  };
  for (const file of files) watchFile(file, { interval: timing.intervalMs, persistent: false }, changed);
  return {
    close: () => {
      clearTimeout(timer);
      for (const file of files) unwatchFile(file, changed);
    },
  };
}
