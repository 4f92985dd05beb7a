import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/adapters/ehr-embedded/document-store.js';
import { KEPT_DOCUMENT_CHARS, KeptDocuments } from '../../../src/dev/ehr-simulator/kept-documents.js';
import { ADULT, startSimulatedEhr, type SimulatedEhr } from '../../adapters/ehr-xml-http/simulated-ehr.js';
import { readDocument } from '../../support/document-reads.js';

/** A document of `chars` characters, non-ASCII included, whose content is told by `mark`. */
const documentOf = (mark: string, chars = KEPT_DOCUMENT_CHARS + 10): string => {
  const head = `<d m="${mark}">`;
  return `${head}${'å'.repeat(chars - head.length - 4)}</d>`;
};

/** The store, counting the reads of whole files. */
function countingStore(root: string): { store: DocumentStore; reads: () => number } {
  const store = new DocumentStore(root);
  let reads = 0;
  const readVersioned = store.readVersioned.bind(store);
  store.readVersioned = (file) => {
    reads += 1;
    return readVersioned(file);
  };
  return { store, reads: () => reads };
}

describe('the simulator keeps large documents, with their bytes, while their files are unchanged', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kept-documents-'));
    await mkdir(path.join(dir, 'docs'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const file = (name: string): string => path.join(dir, 'docs', `${name}.xml`);

  it('reads a large file once while it is unchanged, its bytes the UTF-8 of its text', async () => {
    const { store, reads } = countingStore(dir);
    const documents = new KeptDocuments(store);
    await writeFile(file('large'), documentOf('one'));
    const first = await documents.read(file('large'));
    const second = await documents.read(file('large'));
    expect(reads()).toBe(1);
    expect(second?.bytes).toBe(first?.bytes);
    expect(first?.text).toBe(documentOf('one'));
    expect(first?.bytes?.equals(Buffer.from(documentOf('one'), 'utf8'))).toBe(true);
  });

  it('reads it afresh once it is rewritten in place with as many bytes, or replaced, and answers nothing once it is gone', async () => {
    const documents = new KeptDocuments(new DocumentStore(dir));
    await writeFile(file('changing'), documentOf('one'));
    expect((await documents.read(file('changing')))?.text).toBe(documentOf('one'));
    await writeFile(file('changing'), documentOf('two'));
    const rewritten = await documents.read(file('changing'));
    expect(rewritten?.text).toBe(documentOf('two'));
    expect(rewritten?.bytes?.equals(Buffer.from(documentOf('two'), 'utf8'))).toBe(true);
    await writeFile(file('replacement'), documentOf('six'));
    await rename(file('replacement'), file('changing'));
    expect((await documents.read(file('changing')))?.text).toBe(documentOf('six'));
    await rm(file('changing'));
    expect(await documents.read(file('changing'))).toBeUndefined();
  });

  it('reads a small file every time and keeps no bytes for it', async () => {
    const { store, reads } = countingStore(dir);
    const documents = new KeptDocuments(store);
    await writeFile(file('small'), '<d>liten</d>');
    const small = { text: '<d>liten</d>', modifiedMs: (await stat(file('small'))).mtimeMs };
    expect(await documents.read(file('small'))).toEqual(small);
    expect(await documents.read(file('small'))).toEqual(small);
    expect(reads()).toBe(2);
  });

  it('keeps four large documents at most, letting the one kept longest go first', async () => {
    const { store, reads } = countingStore(dir);
    const documents = new KeptDocuments(store);
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names) await writeFile(file(name), documentOf(name));
    for (const name of names) await documents.read(file(name));
    expect(reads()).toBe(5);
    for (const name of names.slice(1)) await documents.read(file(name));
    expect(reads()).toBe(5);
    expect((await documents.read(file('a')))?.text).toBe(documentOf('a'));
    expect(reads()).toBe(6);
  });
});

describe('the simulator answers a large document from what it kept, and a changed one as changed', () => {
  let t: SimulatedEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
  });
  afterAll(async () => {
    await t?.close();
  });

  const journal = async (): Promise<{ status: number; length: string | undefined; text: string }> => {
    const res = await request(`${t.sim.url}/ehr/v1/patients/${ADULT}/journalnotes`);
    const length = res.headers['content-length'];
    return { status: res.statusCode, length: typeof length === 'string' ? length : undefined, text: await res.body.text() };
  };

  it('serves a file that is not UTF-8 byte for byte, and the service refuses it (helper-213, H1)', async () => {
    const file = path.join(t.dataDir, 'patients', ADULT, 'medications.xml');
    // The document as Latin-1 writes it: å one byte, 0xE5, which no UTF-8 text holds alone.
    const latin1 = Buffer.from(await readFile(file, 'utf8'), 'latin1');
    expect(latin1.includes(0xe5)).toBe(true);
    await writeFile(file, latin1);
    const res = await request(`${t.sim.url}/ehr/v1/patients/${ADULT}/medications`);
    expect(res.statusCode).toBe(200);
    expect(Buffer.from(await res.body.arrayBuffer()).equals(latin1)).toBe(true);
    await expect(readDocument(t.adapter(), 'medications', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
  });

  it('serves the same bytes twice, then the rewritten file, with a Content-Length true to each', async () => {
    const file = path.join(t.dataDir, 'patients', ADULT, 'journalnotes.xml');
    for (const mark of ['first', 'second']) {
      const text = `<?xml version="1.0" encoding="UTF-8"?>\n${documentOf(mark)}`;
      await writeFile(file, text);
      for (let i = 0; i < 2; i++) {
        expect(await journal()).toEqual({ status: 200, length: String(Buffer.byteLength(text)), text });
      }
    }
  });
});
