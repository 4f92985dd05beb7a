import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { openIfExists, readTextIfExists } from '../fs/if-exists.js';

const PATIENT_ID = /^\d{12}$/;
// `patient`, `journalnotes` ... and `patient-v2`.
const DOCUMENT_NAME = /^[a-z]+(?:-v\d)?$/;

/**
 * What identifies one content of a file: it changes whenever the file is written or replaced (a new
 * inode, size, modification or change time; times in ms with their sub-ms fraction).
 */
const versionOf = (s: Stats): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

/**
 * A document's bytes as the file holds them, the version of exactly that content, and when its file was
 * last modified (epoch ms). Bytes, not text: the reader refuses what is not UTF-8, which decoding here
 * would have made U+FFFD (hostile review helper-213, H1).
 */
export interface VersionedDocument {
  bytes: Buffer;
  version: string;
  modifiedMs: number;
}

/**
 * Reads the upstream XML documents of the data folder (docs/upstream-ehr.md#6-the-embedded-ehrs-folder). Ids are checked
 * before they become path segments, so no request can reach outside the folder.
 */
export class DocumentStore {
  private readonly patients: string;

  constructor(readonly root: string) {
    this.patients = path.join(root, 'patients');
  }

  private patientDir(patientId: string): string {
    if (!PATIENT_ID.test(patientId)) throw new RangeError('patient id must be 12 digits');
    return `${this.patients}${path.sep}${patientId}`;
  }

  /** The path of a patient's document (`patient`, `patient-v2`, `journalnotes` ...); throws RangeError for a bad id. */
  patientFile(patientId: string, name: string): string {
    if (!DOCUMENT_NAME.test(name)) throw new RangeError('document name must be lower-case letters, maybe with a version');
    return `${this.patientDir(patientId)}${path.sep}${name}.xml`;
  }

  relationshipsFile(actorId: string): string {
    if (!PATIENT_ID.test(actorId)) throw new RangeError('actor id must be 12 digits');
    return path.join(this.root, 'relationships', `${actorId}.xml`);
  }

  async patientExists(patientId: string): Promise<boolean> {
    return this.patientVersion(patientId) !== undefined;
  }

  /**
   * The version of the patient's `patient.xml`, or undefined when the patient is unknown (or the id
   * bad). Versions are read with a synchronous stat: a few µs on the local folder this adapter is
   * for, against ~4x the CPU and a queue behind the audit trail's fsyncs in libuv's thread pool for
   * the asynchronous one (BENCHMARKS.md). Contents are always read asynchronously.
   */
  patientVersion(patientId: string): string | undefined {
    try {
      const s = statSync(this.patientFile(patientId, 'patient'), { throwIfNoEntry: false });
      return s?.isFile() ? versionOf(s) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The version of a document, or undefined when the file is absent (an empty answer). */
  version(file: string): string | undefined {
    const s = statSync(file, { throwIfNoEntry: false });
    return s === undefined ? undefined : versionOf(s);
  }

  /** A document with the version (and modification time) of exactly the content read, or undefined when it is absent. */
  async readVersioned(file: string): Promise<VersionedDocument | undefined> {
    const handle = await openIfExists(file);
    if (!handle) return undefined;
    try {
      const s = await handle.stat();
      return { bytes: await handle.readFile(), version: versionOf(s), modifiedMs: s.mtimeMs };
    } finally {
      await handle.close();
    }
  }

  relationshipsDocument(actorId: string): Promise<string | undefined> {
    return readTextIfExists(this.relationshipsFile(actorId));
  }

  async reachable(): Promise<boolean> {
    try {
      return (await stat(path.join(this.root, 'patients'))).isDirectory();
    } catch {
      return false;
    }
  }
}
