/**
 * The programs the deploy/ checks run (kubectl for kustomize, promtool for the alert rules) and the
 * rendered manifests. Without a program the checks are skipped with a warning on a developer's
 * machine (test/support/requirements.ts), and fail in CI (CI=true), where .ci/run installs promtool and the machine has kubectl.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { findProgram, programMissing } from '../support/requirements.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

export { findProgram } from '../support/requirements.js';

/** True when the checks that need `name` are to be skipped: it is missing and this is not CI (noted for the run's summary line). */
export const skipWithout = programMissing;

/** Throws, naming what to install, when a test that needs the program runs without it (CI). */
export function needProgram(name: string, program: string | undefined, install: string): string {
  if (program === undefined) throw new Error(`${name} is needed and not on PATH: ${install}`);
  return program;
}

export const KUBECTL = findProgram('kubectl', process.env.KUBECTL);
export const KUBECTL_INSTALL = 'kubectl with kustomize 5 (kubectl 1.27 or newer); set KUBECTL to its path if it is not on PATH';

export type K8sObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
};

/** `kubectl kustomize deploy/<dir>`, parsed: every object the folder renders to. */
export function render(dir: string): K8sObject[] {
  const kubectl = needProgram('kubectl', KUBECTL, KUBECTL_INSTALL);
  const text = execFileSync(kubectl, ['kustomize', path.join(REPOSITORY_ROOT, 'deploy', dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`deploy/${dir} rendered YAML that does not parse: ${doc.errors[0]?.message ?? ''}`);
    return doc.toJS() as K8sObject;
  }).filter((o) => o !== null);
}

export const deployPath = (...parts: string[]): string => path.join(REPOSITORY_ROOT, 'deploy', ...parts);
