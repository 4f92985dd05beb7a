/**
 * The order `npm test` starts its files in: on three workers, the longest files first, so the run does
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

/** The names of vitest.config.ts's projects, which take them from here. */
export const PROJECT = {
  main: 'pdas', isolated: 'pdas-isolated', sharedExamples: 'shared-examples', sharedExamplesIsolated: 'shared-examples-isolated',
} as const;

/** The projects, in the order their files start (a later `groupOrder` would still run after). */
const PROJECT_ORDER: readonly string[] = [PROJECT.isolated, PROJECT.main, PROJECT.sharedExamplesIsolated, PROJECT.sharedExamples];

export class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const keyed = files.map((spec) => {
      const rank = PROJECT_ORDER.indexOf(spec.project.name);
      return {
        spec,
        group: spec.project.config.sequence.groupOrder,
        rank: rank < 0 ? PROJECT_ORDER.length : rank,
        duration: this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`)?.duration,
        size: statSync(spec.moduleId).size,
      };
    });
    keyed.sort((a, b) => a.group - b.group || a.rank - b.rank
      || (a.duration !== undefined && b.duration !== undefined ? b.duration - a.duration : b.size - a.size));
    return Promise.resolve(keyed.map((k) => k.spec));
  }
}
