import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import type { DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import { examplesDir, PROJECT_EXAMPLES_DIR } from '../../support/upstream-examples.js';

export const ZONE = 'Europe/Stockholm';
export const PATIENT = '191212121212';
/** The HSA-id root of units and people. */
export const HSA = '1.2.752.129.2.1.4.1';
/** An instance identifier as the documents write it. */
export const ii = (extension: string, root: string) => ({ extension, root });
/** PATIENT's personnummer as an instance identifier. */
export const TOLVAN = ii(PATIENT, '1.2.752.129.2.1.3.1');

/** The mapping of a document of `kind` as the adapter reads one of PATIENT's in ZONE. */
export const mapExample = <K extends DocumentKind>(kind: K) => (xml: string) => mapDocument(kind, xml, { zone: ZONE, expectedPatientId: PATIENT });

/**
 * An upstream example document: the project's own (test/fixtures/upstream), or the shared
 * contract's when the `shared-examples` test project runs this file (test/support/upstream-examples.ts).
 */
export function example(name: string): string {
  // A document the contract has no example of (a read a region added) is read from the project's own.
  const shared = path.join(examplesDir(), name);
  return readFileSync(existsSync(shared) ? shared : path.join(PROJECT_EXAMPLES_DIR, name), 'utf8');
}

/** Replaces exactly one occurrence, so a fixture edit that stops matching fails loudly. */
export function edit(xml: string, from: string, to: string): string {
  const at = xml.indexOf(from);
  if (at < 0 || xml.indexOf(from, at + 1) >= 0) throw new Error(`fixture edit must match once: ${from}`);
  return xml.slice(0, at) + to + xml.slice(at + from.length);
}
