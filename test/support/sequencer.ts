/**
 * The order `npm test` starts its files in: on two workers, the longest files first, so the run does
 * not end with one worker on a long file while the other has nothing left. vitest's own order does
 * that only from the durations of an earlier run; in a fresh clone (CI's) it has none and runs the
 * files as found, and its projects one after another by name, which left the isolated files (each a
 * fresh process) and their long hostile-documents test for the end. Here the isolated files come
 * first, then the shared ones; within a project, longest first by the last run's durations where
 * vitest has them, else largest file first (size is what a fresh clone can know of a file's length).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The projects of vitest.config.ts, in the order their files start (a later `groupOrder` would still run after). */
export const PROJECT_ORDER = ['pdas-isolated', 'pdas', 'shared-examples-isolated', 'shared-examples'] as const;

export class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification): number => {
      const at = (PROJECT_ORDER as readonly string[]).indexOf(spec.project.name);
      return at < 0 ? PROJECT_ORDER.length : at;
    };
    const duration = (spec: TestSpecification): number | undefined =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`)?.duration;
    const size = (spec: TestSpecification): number => statSync(spec.moduleId).size;
    return Promise.resolve([...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (rank(a) !== rank(b)) return rank(a) - rank(b);
      const [da, db] = [duration(a), duration(b)];
      return da !== undefined && db !== undefined ? db - da : size(b) - size(a);
    }));
  }
}
