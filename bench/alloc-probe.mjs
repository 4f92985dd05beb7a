/* global process */
/**
 * Preloaded by `bench/profile.ts --alloc`: samples every allocation the server makes (objects the
 * garbage collector has already taken back included, which is what per-request garbage is) and
 * writes a `.heapprofile` when the process exits; sampling starts on SIGUSR2. The in-thread inspector session answers
 * synchronously, so the profile can be taken inside the 'exit' handler.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_ALLOC_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  // Started on SIGUSR2, after the warm-up, so start-up allocations stay out of the figures.
  process.once('SIGUSR2', () => {
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      // BENCH_ALLOC_PROMOTED_ONLY (profile.ts --promoted): leave out what the young generation's collections took.
      includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_PROMOTED_ONLY !== '1',
    });
  });
  process.on('exit', () => {
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (err) return;
      writeFileSync(path.join(dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
