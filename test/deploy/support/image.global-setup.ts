/**
 * Once per `npm run test:deploy`: the image the tests start. NODE_IMAGE from the environment is the
 * base when set; otherwise scripts/container-base.sh builds the local one (no registry is reachable
 * here; skipped when its tag exists). Then `npm run image`'s script builds the Containerfile (podman's
 * layer cache makes a rerun with unchanged sources take seconds). Installs nothing: a missing tool
 * fails the run under CI=true, and elsewhere skips the tests saying what to install.
 */
import type { TestProject } from 'vitest/node';
import { inCi, missingTools, podman } from './podman.js';
import { script } from './repository-script.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The image built for this run, e.g. localhost/patient-data-access:0.1.0; empty when skipped. */
    deployImage: string;
    /** The base it was built on. */
    deployNodeImage: string;
    /** Why the tests skip (a tool is missing outside CI); empty when they run. */
    deploySkip: string;
  }
}

export const LOCAL_BASE = 'localhost/pdas-node-base:24-bookworm';
const INSTALL = 'apt-get install -y podman runc haproxy debootstrap';

export default async function setup(project: TestProject): Promise<void> {
  const given = process.env.NODE_IMAGE?.trim();
  const missing = await missingTools(given === undefined || given === '');
  project.provide('deployImage', '');
  project.provide('deployNodeImage', '');
  project.provide('deploySkip', '');
  if (missing.length > 0) {
    const reason = `test:deploy needs ${missing.join(', ')} (${INSTALL})`;
    if (inCi()) throw new Error(`${reason}; CI=true runs every deployment test.`);
    console.warn(`${reason}: skipping the deployment tests.`);
    project.provide('deploySkip', reason);
    return;
  }
  let nodeImage = given;
  if (nodeImage === undefined || nodeImage === '') {
    await script('scripts/container-base.sh', { NODE_BASE_TAG: LOCAL_BASE });
    nodeImage = LOCAL_BASE;
  }
  const image = await script('scripts/build-image.sh', { NODE_IMAGE: nodeImage });
  if ((await podman(['image', 'exists', image])).code !== 0) throw new Error(`the image build printed ${JSON.stringify(image)}, which is no image`);
  project.provide('deployImage', image);
  project.provide('deployNodeImage', nodeImage);
}
