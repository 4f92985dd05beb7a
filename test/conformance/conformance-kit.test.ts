/**
 * The conformance kit (src/conformance) run in this process: against the development FHIR server
 * with the demo people it passes; against a server whose CapabilityStatement lacks a search
 * parameter, or that ignores the patient parameter and so answers another patient's records, it
 * fails with a row that says so; over the embedded EHR (the ports alone) its read and registry
 * checks pass too. Its table never shows another person's number.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FhirAnswer, FhirExchange } from '../../src/adapters/ehr-fhir/client/fhir-exchange.js';
import { answerFaults } from '../../src/conformance/answer-checks.js';
import { entryFaults } from '../../src/conformance/entry-checks.js';
import { fetchExchange } from '../../src/conformance/fetch-exchange.js';
import { fhirConformance } from '../../src/conformance/fhir-conformance.js';
import { parseConformanceArgs, UsageError } from '../../src/conformance/options.js';
import { recordChecks } from '../../src/conformance/record-checks.js';
import { failed, formatTable, type CheckRow } from '../../src/conformance/report.js';
import { demoClock } from '../../src/dev/demo-data/clock.js';
import { DEMO_FHIR_SETTINGS, demoFhirResources } from '../../src/dev/demo-data/fhir/bundle.js';
import { startFhirSim, type FhirSim } from '../../src/dev/fhir-sim/fhir-sim.js';
import { DEMO_ACTOR_ID, DEMO_PEOPLE } from '../../src/dev/demo-data/people.js';
import { READ_NAMES } from '../../src/domain/operations/table.js';
import { READ_PLANS } from '../../src/adapters/ehr-fhir/client/read-plans.js';
import { isXmlRead } from '../../src/adapters/ehr-xml/documents.js';
import { demoBothFormsForTests } from '../support/demo-both-forms.js';

const ZONE = 'Europe/Stockholm';
const NOW = Date.parse('2026-11-21T08:00:00Z');
const TOLVAN = '191212121212';
const ALL = { from: '19000101000000', to: '21001231235959' };

const demo = demoBothFormsForTests(NOW, ZONE);

/** A proxy in front of the server: it may change a request's URL or an answer's JSON. */
function proxied(change: { url?: (url: string) => string; json?: (url: string, json: Record<string, unknown>) => void }): FhirExchange {
  const exchange = fetchExchange(5000);
  return async (url, init): Promise<FhirAnswer> => {
    const answer = await exchange(change.url?.(url) ?? url, init);
    if (change.json === undefined || answer.body === undefined) return answer;
    const json = JSON.parse(answer.body.toString()) as Record<string, unknown>;
    change.json(url, json);
    return { ...answer, body: Buffer.from(JSON.stringify(json)) };
  };
}

const KIT_OPTIONS = () => ({
  baseUrl: demo.sim.baseUrl, sandboxWrites: false, exchange: fetchExchange(5000), zone: ZONE,
  idRoot: DEMO_FHIR_SETTINGS.idRoot, videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem, delegationTag: DEMO_FHIR_SETTINGS.delegationTag,
  pageSize: 100, maxPages: 20, callTimeoutMs: 10_000, range: ALL, now: () => NOW,
});

const kit = (patient: string | undefined, exchange: FhirExchange = fetchExchange(5000), sandboxWrites = false): Promise<CheckRow[]> =>
  fhirConformance({ ...KIT_OPTIONS(), ...(patient === undefined ? {} : { patient }), sandboxWrites, exchange });

const resultOf = (rows: CheckRow[], check: string) => rows.find((r) => r.check === check);

describe('the conformance kit against the development FHIR server with the demo people', () => {
  it('passes for every demo person: capabilities, identity lookup, every read served, the registry', async () => {
    for (const person of DEMO_PEOPLE) {
      const rows = await kit(person.id);
      expect(rows.filter((r) => r.result === 'FAIL'), `${person.id}\n${formatTable(rows)}`).toEqual([]);
      expect(resultOf(rows, 'identity lookup')?.result).toBe('PASS');
      expect(resultOf(rows, 'read getJournalNotes')?.result).toBe('PASS');
      expect(resultOf(rows, 'delegation registry')?.result).toBe('PASS');
      // Every read of the operation table has its row; only those declared not served over FHIR are skipped.
      expect(rows.filter((r) => r.check.startsWith('read ')).map((r) => r.check)).toEqual(READ_NAMES.map((name) => `read ${name}`));
      expect(rows.filter((r) => r.check.startsWith('read ') && r.result === 'SKIP').map((r) => r.check))
        .toEqual(READ_NAMES.filter((name) => READ_PLANS[name] === undefined).map((name) => `read ${name}`));
    }
  }, 90_000);

  it('counts the demo actor\'s registry rows and never prints the numbers of the people she acts for', async () => {
    const rows = await kit(DEMO_ACTOR_ID);
    expect(resultOf(rows, 'delegation registry')?.detail).toMatch(/^5 row\(s\)/);
    const table = formatTable(rows);
    for (const other of DEMO_PEOPLE.filter((p) => p.id !== DEMO_ACTOR_ID)) expect(table).not.toContain(other.id);
    expect(table).toContain('CONFORMANT');
  });

  it('warns, without failing, of a read that had nothing to judge', async () => {
    const rows = await kit(TOLVAN);
    // Tolvan has records in every read the FHIR server serves: each one judged.
    expect(rows.filter((r) => r.check.startsWith('read ') && r.result === 'PASS').map((r) => r.check))
      .toEqual(READ_NAMES.filter((name) => READ_PLANS[name] !== undefined).map((name) => `read ${name}`));
    const narrow = await fhirConformance({ ...KIT_OPTIONS(), patient: TOLVAN, range: { from: '19000101000000', to: '19000102000000' } });
    expect(resultOf(narrow, 'read getContacts')).toMatchObject({ result: 'WARN' });
    expect(failed(narrow)).toBe(false);
  });

  it('checks only the server without a test patient, and says why the rest is skipped', async () => {
    const rows = await kit(undefined);
    expect(failed(rows)).toBe(false);
    expect(resultOf(rows, 'identity lookup, reads, registry')?.result).toBe('SKIP');
  });

  it('writes nothing without --sandbox-writes, and says the writes were not asked for', async () => {
    const methods: string[] = [];
    const exchange = fetchExchange(5000);
    const rows = await kit(TOLVAN, (url, init) => {
      methods.push(init.method);
      return exchange(url, init);
    });
    expect(resultOf(rows, 'writes (arrival, payment)')).toMatchObject({ result: 'SKIP', detail: expect.stringContaining('not asked') as string });
    expect(new Set(methods)).toEqual(new Set(['GET']));
  });
});

describe('the conformance kit\'s writes (--sandbox-writes), against a development server of their own', () => {
  let sim: FhirSim | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });
  const fresh = async () => {
    sim = await startFhirSim({ port: 0, resources: demoFhirResources(demoClock(NOW, ZONE)) });
    return sim;
  };
  const noticesOn = async (baseUrl: string) => ((await (await fetch(`${baseUrl}/PaymentNotice`)).json()) as { entry?: unknown[] }).entry ?? [];
  const arrivedOn = async (baseUrl: string) => (((await (await fetch(`${baseUrl}/Appointment?status=arrived`)).json()) as { entry?: unknown[] }).entry ?? []).length;

  it('arrives and pays a booking of the test patient once, and a second asking changes nothing', async () => {
    const server = await fresh();
    const writes = (exchange: FhirExchange = fetchExchange(5000)) => fhirConformance({ ...KIT_OPTIONS(), baseUrl: server.baseUrl, patient: TOLVAN, sandboxWrites: true, exchange });
    const arrivedBefore = await arrivedOn(server.baseUrl);
    const rows = await writes();
    expect(failed(rows), formatTable(rows)).toBe(false);
    expect(resultOf(rows, 'write arrival')).toMatchObject({ result: 'PASS', detail: expect.stringMatching(/OK ARRIVAL_REGISTERED, asked again INFO ALREADY_ARRIVED$/) as string });
    expect(resultOf(rows, 'write payment')).toMatchObject({ result: 'PASS', detail: expect.stringMatching(/OK PAYMENT_REGISTERED, asked again INFO ALREADY_PAID$/) as string });
    expect(await arrivedOn(server.baseUrl)).toBe(arrivedBefore + 1);
    expect(await noticesOn(server.baseUrl)).toHaveLength(1);
    // The kit run again (a region checking twice) leaves the booking it arrived alone and arrives the next one, once.
    const again = await writes();
    const contactOf = (r: CheckRow[]) => /^Appointment\/([^:]+):/.exec(resultOf(r, 'write arrival')?.detail ?? '')?.[1];
    expect(resultOf(again, 'write arrival')?.result).toBe('PASS');
    expect(contactOf(again)).not.toBe(contactOf(rows));
    expect(await noticesOn(server.baseUrl)).toHaveLength(2);
    expect(await arrivedOn(server.baseUrl)).toBe(arrivedBefore + 2);
  });

  it('fails the payment on a server that ignores If-None-Exist and so would take a payment twice', async () => {
    const server = await fresh();
    const exchange = fetchExchange(5000);
    const ignoring: FhirExchange = (url, init) => {
      const { 'if-none-exist': _dropped, ...headers } = init.headers ?? {};
      return exchange(url, { ...init, headers });
    };
    const rows = await fhirConformance({ ...KIT_OPTIONS(), baseUrl: server.baseUrl, patient: TOLVAN, sandboxWrites: true, exchange: ignoring });
    expect(resultOf(rows, 'write payment')).toMatchObject({ result: 'FAIL', detail: expect.stringContaining('asked again OK PAYMENT_REGISTERED') as string });
    expect(failed(rows)).toBe(true);
  });

  it('writes nothing when the CapabilityStatement offers no versioned update of Appointment', async () => {
    const server = await fresh();
    const methods: string[] = [];
    const exchange = proxied({
      json: (url, json) => {
        if (!url.endsWith('/metadata')) return;
        const rest = (json.rest as { resource: { type: string; versioning?: string }[] }[])[0];
        const appointment = rest?.resource.find((r) => r.type === 'Appointment');
        if (appointment) appointment.versioning = 'no-version';
      },
    });
    const rows = await fhirConformance({
      ...KIT_OPTIONS(), baseUrl: server.baseUrl, patient: TOLVAN, sandboxWrites: true,
      exchange: (url, init) => {
        methods.push(init.method);
        return exchange(url, init);
      },
    });
    expect(resultOf(rows, 'capabilities for the writes')?.result).toBe('FAIL');
    expect(resultOf(rows, 'writes (arrival, payment)')).toMatchObject({ result: 'SKIP', detail: expect.stringContaining('nothing was written') as string });
    expect(new Set(methods)).toEqual(new Set(['GET']));
  });
});

describe('the conformance kit against a server that falls short', () => {
  it('fails on a search parameter the CapabilityStatement does not list, naming the type and the parameter', async () => {
    const rows = await kit(TOLVAN, proxied({
      json: (url, json) => {
        if (!url.endsWith('/metadata')) return;
        const rest = (json.rest as { resource: { type: string; searchParam: { name: string }[] }[] }[])[0];
        const mr = rest?.resource.find((r) => r.type === 'MedicationRequest');
        if (mr) mr.searchParam = mr.searchParam.filter((p) => p.name !== 'authoredon');
      },
    }));
    expect(failed(rows)).toBe(true);
    expect(resultOf(rows, 'capability statement')).toMatchObject({ result: 'FAIL' });
    expect(resultOf(rows, 'capability statement')?.detail).toContain('MedicationRequest.authoredon');
    // Issue 57 item 4: what the service would make of it: that read alone not served.
    expect(resultOf(rows, 'capability statement')?.detail).toContain('the service would not serve getMedications (501), and serve every other read');
    expect(formatTable(rows)).toContain('NOT CONFORMANT');
  });

  it('fails a read whose answer holds another patient\'s record (a server that ignores the patient parameter)', async () => {
    const rows = await kit(TOLVAN, proxied({ url: (url) => (url.includes('/Encounter?') ? url.replace(/patient=[^&]*&/, '') : url) }));
    expect(resultOf(rows, 'read getContacts')).toMatchObject({ result: 'FAIL' });
    expect(resultOf(rows, 'read getContacts')?.detail).toContain('another patient');
    expect(resultOf(rows, 'read getMedications')?.result).toBe('PASS');
    // The failure says what, never whose.
    for (const other of DEMO_PEOPLE.filter((p) => p.id !== TOLVAN)) expect(formatTable(rows)).not.toContain(other.id);
  });

  it('issue 34 item 6: shows none of a hostile server\'s words: a fhirVersion and a resourceType holding an escape, a number and words', async () => {
    const hostile = '\u001b[31m198112189876 EVIL\u001b[0m';
    const rows = await kit(TOLVAN, proxied({
      json: (url, json) => {
        if (url.endsWith('/metadata')) json.fhirVersion = `4.0.1${hostile}`;
        if (!url.includes('/Composition?')) return;
        json.entry = [...(json.entry as unknown[] ?? []), {
          fullUrl: 'urn:uuid:9d6f0c3e-1b7a-4f3e-9a51-0c2f6a8e4d21', search: { mode: 'include' },
          resource: { resourceType: hostile, id: 'x1', subject: { reference: 'Patient/someone-else' } },
        }];
      },
    }));
    expect(resultOf(rows, 'read getJournalNotes')).toMatchObject({ result: 'FAIL', detail: expect.stringContaining('another patient') as string });
    expect(resultOf(rows, 'capability statement')?.result).toBe('FAIL');
    const table = formatTable(rows);
    expect(table).not.toMatch(/[^\P{Cc}\n]|EVIL|198112189876/u);
  });

  /** The kit through a proxy that adds to the diagnoses' search answer a record about `subject`, under `id` (the first match's own, or a new one). */
  const slipped = (subject: (own: string) => string, sameId: boolean) => proxied({
    json: (url, json) => {
      if (!url.includes('/Condition?')) return;
      const entries = json.entry as { fullUrl?: string; resource: Record<string, unknown> & { id: string; subject: { reference: string } } }[];
      const first = entries[0];
      if (first === undefined) return;
      const id = sameId ? first.resource.id : `${first.resource.id}-x`;
      entries.push({ fullUrl: first.fullUrl?.replace(first.resource.id, id), resource: {
        ...first.resource, id, subject: { reference: subject(first.resource.subject.reference) }, code: { text: 'HENNES-DIAGNOS' },
      } });
    },
  });

  it.each([
    ['another patient\'s record under the id of one of the test patient\'s', slipped(() => 'Patient/someone-else', true),
      'two different entries for one Condition; a Condition that names another patient'],
    ['a record of the test patient\'s Patient id on another server', slipped((own) => `https://other-region.example/fhir/${own}`, false),
      'a Condition that names another patient'],
  ])('fails a read whose answer holds %s, judged entry by entry in its own words', async (_, exchange, fault) => {
    const rows = await kit(TOLVAN, exchange);
    expect(resultOf(rows, 'read getDiagnoses')).toEqual({ check: 'read getDiagnoses', result: 'FAIL', detail: `the EHR's answer, entry by entry: ${fault}` });
    expect(resultOf(rows, 'read getJournalNotes')?.detail).toMatch(/the test patient's only \(each entry on its own\)/);
    expect(formatTable(rows)).not.toContain('HENNES-DIAGNOS');
  });

  it('judges the entries of every search answer but the identity lookup\'s, each on its own', () => {
    const base = 'https://fhir.example/R4';
    const his = { resourceType: 'Condition', id: 'c1', subject: { reference: 'Patient/p1' } };
    const doris = { resourceType: 'Practitioner', id: 'd' };
    expect(entryFaults([{ resource: his }, { resource: { ...his, id: 'c2', subject: { reference: `${base}/Patient/p1` } } },
      { resource: doris }, { resource: { ...doris } }, { resource: { resourceType: 'Patient', id: 'p1' } }], 'p1', base)).toEqual([]);
    expect(entryFaults([{ resource: his }, { resource: { ...his, code: { text: 'hers' } } }], 'p1', base)).toEqual(['two different entries for one Condition']);
    expect(entryFaults([{ fullUrl: `${base}/Condition/c1`, resource: his }, { fullUrl: `${base}/Condition/c1`, resource: { ...his, id: 'c9' } }], 'p1', base))
      .toEqual(['two different entries for one Condition']);
    expect(entryFaults([{ resource: { ...his, subject: { reference: 'https://other.example/R4/Patient/p1' } } }], 'p1', base)).toEqual(['a Condition that names another patient']);
    expect(entryFaults([{ resource: { resourceType: 'Patient', id: 'p2' } }], 'p1', base)).toEqual(['a Patient other than the test patient']);
  });

  it('fails the identity lookup of a number no Patient carries', async () => {
    const rows = await kit('195507142478');
    expect(resultOf(rows, 'identity lookup')).toMatchObject({ result: 'FAIL', detail: 'patient-not-found: unknown patient' });
  });
});

describe('the kit\'s transport with a SMART token (FHIR_AUTH=smart-backend)', () => {
  it('sends the bearer token on every request, and drops it when the server answers 401', async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(seen.length === 1 ? 200 : 401, { 'content-type': 'application/fhir+json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir/metadata`;
      let refused = 0;
      const exchange = fetchExchange(5000, undefined, { header: () => Promise.resolve('Bearer kit-token'), refused: () => { refused++; } });
      expect((await exchange(url, { method: 'GET' })).status).toBe(200);
      expect(refused).toBe(0);
      expect((await exchange(url, { method: 'GET' })).status).toBe(401);
      expect(refused).toBe(1);
      expect(seen).toEqual(['Bearer kit-token', 'Bearer kit-token']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the kit\'s answer checks', () => {
  it('find another person\'s number and a time that does not convert, by path', async () => {
    const [record] = await demo.embedded.reads.getPatient?.(TOLVAN, {}) ?? [];
    const other = JSON.parse(JSON.stringify(record).replace(`"extension":"${TOLVAN}"`, '"extension":"198112189876"')) as unknown;
    expect(answerFaults('getPatient', [other], TOLVAN).otherPeople).not.toEqual([]);
    const badTime = JSON.parse(JSON.stringify(record).replace(/"value":"(\d{8})\d{6}"/, '"value":"$1996199"')) as unknown;
    expect(answerFaults('getPatient', [badTime], TOLVAN).times).not.toEqual([]);
    expect(answerFaults('getPatient', [record], TOLVAN)).toEqual({ schema: [], otherPeople: [], times: [] });
    expect(answerFaults('getPatient', [{ PatientEHRExtract: 'no' }], TOLVAN).schema).not.toEqual([]);
  });
});

describe('the kit over the embedded EHR (the ports alone)', () => {
  const embedded = {
    get reads() { return demo.embedded.reads; },
    served: isXmlRead,
    registry: (actor: string) => demo.embedded.relationshipsOf(actor),
  };
  it('passes every read of the operation table and the registry for the demo people', async () => {
    for (const person of DEMO_PEOPLE) {
      const rows = await recordChecks({ ...embedded, patient: person.id, range: ALL });
      expect(rows.filter((r) => r.result === 'FAIL'), `${person.id}\n${formatTable(rows)}`).toEqual([]);
    }
    // Tolvan has records in every read the legacy EHR serves: each one judged, none passed empty; the
    // reads declared not served are skipped as declared.
    const tolvan = await recordChecks({ ...embedded, patient: TOLVAN, range: ALL });
    expect(tolvan.filter((r) => r.check.startsWith('read ')).map((r) => `${r.check} ${r.result}`))
      .toEqual(READ_NAMES.map((name) => `read ${name} ${isXmlRead(name) ? 'PASS' : 'SKIP'}`));
  }, 90_000);
});

describe('the kit\'s command line', () => {
  it('refuses plain http to another host, a bad number, and an unknown argument, saying what to give', () => {
    expect(() => parseConformanceArgs(['--base-url', 'http://fhir.example.org/fhir'], {})).toThrow(/https/);
    expect(() => parseConformanceArgs(['--base-url', 'https://fhir.example.org/fhir', '--patient', '191212121213'], {})).toThrow(UsageError);
    expect(() => parseConformanceArgs(['--base-url', 'https://fhir.example.org/fhir', '--bogus'], {})).toThrow(/usage/);
    expect(() => parseConformanceArgs([], {})).toThrow(/--base-url is required/);
  });

  it('reads FHIR_AUTH=smart-backend as the service does, naming a missing setting', () => {
    const base = ['--base-url', 'https://f.example.org'];
    expect(parseConformanceArgs(base, {}).auth).toEqual({ kind: 'none' });
    expect(() => parseConformanceArgs(base, { FHIR_AUTH: 'smart-backend' })).toThrow(/FHIR_AUTH=smart-backend needs FHIR_TOKEN_URL/);
    expect(() => parseConformanceArgs(base, { FHIR_AUTH: 'basic' })).toThrow(/FHIR_AUTH must be none or smart-backend/);
    const smart = parseConformanceArgs(base, {
      FHIR_AUTH: 'smart-backend', FHIR_TOKEN_URL: 'https://auth.example.org/token', FHIR_CLIENT_ID: 'pdas', FHIR_CLIENT_KEY_FILE: import.meta.filename,
    });
    expect(smart.auth).toMatchObject({ kind: 'smart-backend', tokenUrl: 'https://auth.example.org/token', clientId: 'pdas' });
  });

  it('reads the FHIR settings under the service\'s names', () => {
    const o = parseConformanceArgs(['--base-url', 'https://fhir.example.org/fhir/', '--patient', TOLVAN, '--sandbox-writes'],
      { FHIR_PAGE_SIZE: '50', FHIR_MAX_PAGES: '3', FHIR_DELEGATION_TAG: 'urn:x|d' });
    expect(o).toMatchObject({ baseUrl: 'https://fhir.example.org/fhir', patient: TOLVAN, sandboxWrites: true, pageSize: 50, maxPages: 3, delegationTag: { system: 'urn:x', code: 'd' } });
    expect(() => parseConformanceArgs(['--base-url', 'https://f.example.org'], { FHIR_MAX_PAGES: '0' })).toThrow(/FHIR_MAX_PAGES/);
    expect(parseConformanceArgs(['--base-url', 'https://f.example.org'], { EHR_TLS_CA_FILE: '/ca.pem' }).tlsFiles).toEqual({ caFile: '/ca.pem', certFile: undefined, keyFile: undefined });
    expect(() => parseConformanceArgs(['--base-url', 'https://f.example.org'], { EHR_TLS_CERT_FILE: '/c.pem' })).toThrow(/set together/);
    expect(() => parseConformanceArgs(['--base-url', 'http://127.0.0.1:8091/fhir'], { EHR_TLS_CA_FILE: '/ca.pem' })).toThrow(/https/);
  });
});
