/**
 * Part 6 of `npm run bench` (issue 14): the patient's access log served from PostgreSQL with
 * 1,000,000 audit rows present. The rows go into a scratch database of their own on the same server
 * (the service's schema is always `audit`; a scratch database keeps the bench's rows out of any
 * other `audit` schema), seeded with one INSERT ... SELECT over generate_series, and the database
 * is dropped afterwards. The hashes of seeded rows are placeholders: the chain is not what is measured.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { request } from 'undici';
import { PostgresAuditTrail } from '../src/adapters/audit-postgres/postgres-audit-trail.js';

export const ACCESS_LOG_PATH = '/patients/accesslog/?limit=100';
export const ACCESS_LOG_SCOPE = 'user/AccessLog-read';
/** Connections of the closed loop: a patient app's users paging their logs; p99 is read at this concurrency. */
export const ACCESS_LOG_CONNECTIONS = 16;
/** The target rate: the open loop offers exactly this many requests a second (Poisson arrivals). */
export const ACCESS_LOG_RATE = 1000;
const DATABASE = 'pdas_bench_access_log';
const ROWS = 1_000_000;
/** Every 200th row is the bench patient's: 5,000 of them, spread over the year the rows cover. */
const OWN_EVERY = 200;

/** The server the test suite uses: DATABASE_URL, else the local test database. */
function serverUrl(): string {
  const v = process.env.DATABASE_URL?.trim();
  return v === undefined || v === '' ? 'postgres://postgres@127.0.0.1:5432/test' : v;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const SEED = (patient: string): string => `
  INSERT INTO audit.access_log (time, request_id, service_request_id, operation, actor_issuer, actor_subject, actor_person_id,
                                client_id, subscription, patient_id, delegation, source_address, outcome, status, prev_hash, hash)
  SELECT timestamptz '2025-11-01T00:00:00Z' + g * interval '31 seconds', 'bench-' || g, 'bench-' || g,
         (ARRAY['getAppointments','getJournalNotes','getMedications','getContacts','getPatient','changeAppointment'])[1 + g % 6],
         'https://bench-issuer.invalid', 'bench-' || (g % 5000), p, 'patient-app', 'bench', p,
         CASE WHEN g % 7 = 0 THEN 'guardian' ELSE 'self' END, '127.0.0.1',
         CASE WHEN g % 50 = 0 THEN 'denied' ELSE 'allowed' END, CASE WHEN g % 50 = 0 THEN 403 ELSE 200 END,
         repeat('0', 64), repeat('0', 64)
    FROM generate_series(1, ${ROWS}) AS g,
         LATERAL (SELECT CASE WHEN g % ${OWN_EVERY} = 0 THEN '${patient}' ELSE '19' || lpad((g % 9973)::text, 10, '0') END AS p) AS x`;

export interface SeededLog {
  url: string;
  rows: number;
  ownRows: number;
  seedSeconds: number;
  drop(): Promise<void>;
}

/** A fresh scratch database with the service's migrated schema and ROWS seeded rows, `patient` holding every 200th. */
export async function seedAccessLogDatabase(patient: string): Promise<SeededLog> {
  if (!/^\d{12}$/.test(patient)) throw new Error('not a bench patient number');
  const drop = (): Promise<void> => onServer(async (c) => { await c.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`); });
  await drop();
  await onServer(async (c) => { await c.query(`CREATE DATABASE ${DATABASE}`); });
  const url = withDatabase(serverUrl(), DATABASE);
  // The service's own migration makes the schema, exactly as the service would at start.
  const trail = PostgresAuditTrail.create({ connectionString: url, onWarning: () => undefined });
  if (!(await trail.ping())) throw new Error('the scratch database could not be migrated');
  await trail.close();
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET statement_timeout = 0');
    await client.query(SEED(patient));
    await client.query('ANALYZE audit.access_log');
  } finally {
    await client.end();
  }
  return { url, rows: ROWS, ownRows: ROWS / OWN_EVERY, seedSeconds: (Date.now() - started) / 1000, drop };
}

/** Settings of the service under test: the scratch database and a cursor secret of its own. */
export function accessLogServiceEnv(seeded: SeededLog): Record<string, string> {
  return { DATABASE_URL: seeded.url, ACCESS_LOG_CURSOR_SECRET: randomBytes(32).toString('hex') };
}

/**
 * Checks a first page before anything is measured: 200, 100 entries oldest first, a next link.
 * Returns the URL of a page deep in the log (the 20th), to measure a page read through its cursor.
 */
export async function checkAccessLog(origin: string, headers: Record<string, string>): Promise<string> {
  let url = ACCESS_LOG_PATH;
  for (let page = 1; page < 20; page++) {
    const res = await request(origin + url, { headers });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${url}: status ${res.statusCode}: ${body.slice(0, 300)}`);
    const entries = JSON.parse(body) as Array<{ timeInUnix: number }>;
    const sorted = entries.every((e, i) => i === 0 || (entries[i - 1]?.timeInUnix ?? 0) <= e.timeInUnix);
    if (entries.length !== 100 || !sorted) throw new Error(`${url}: ${entries.length} entries, sorted ${sorted}; expected 100 oldest first`);
    const next = /^<([^>]+)>; rel="next"$/.exec(String(res.headers.link ?? ''))?.[1];
    if (next === undefined) throw new Error(`${url}: no next link`);
    url = next;
  }
  return url;
}
