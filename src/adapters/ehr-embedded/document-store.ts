import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const PATIENT_ID = /^\d{12}$/;

/**
 * Reads the upstream XML documents of the data folder (upstream README §7). Ids are checked
 * before they become path segments, so no request can reach outside the folder.
 */
export class DocumentStore {
  constructor(private readonly root: string) {}

  private patientDir(patientId: string): string {
    if (!PATIENT_ID.test(patientId)) throw new RangeError('patient id must be 12 digits');
    return path.join(this.root, 'patients', patientId);
  }

  async patientExists(patientId: string): Promise<boolean> {
    try {
      return (await stat(path.join(this.patientDir(patientId), 'patient.xml'))).isFile();
    } catch {
      return false;
    }
  }

  /** A patient's document, or undefined when the file is absent (an empty answer). */
  patientDocument(patientId: string, name: string): Promise<string | undefined> {
    return this.read(path.join(this.patientDir(patientId), `${name}.xml`));
  }

  relationshipsDocument(actorId: string): Promise<string | undefined> {
    if (!PATIENT_ID.test(actorId)) throw new RangeError('actor id must be 12 digits');
    return this.read(path.join(this.root, 'relationships', `${actorId}.xml`));
  }

  async reachable(): Promise<boolean> {
    try {
      return (await stat(path.join(this.root, 'patients'))).isDirectory();
    } catch {
      return false;
    }
  }

  private async read(file: string): Promise<string | undefined> {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}
