/**
 * Scenario 8d of `npm run bench` (issue 34 item 5, docs/upstream-fhir.md "Bounded cost"): the review
 * put a proxy in front of a FHIR server that answered Condition searches with ~10 MiB pages and next
 * links (one read took the service from 166 to 862 MB, three at once to 1.6 GB). Here a proxy in
 * front of the bench's development FHIR server answers each Condition search with LARGE_PAGES pages of
 * ~3.9 MiB, just under FHIR_MAX_PAGE_BYTES: the server's own entries on the first, and on every page
 * copies of the patient's own Conditions included beside them (each its own id), so the service
 * parses, checks and holds real resources but maps only the patient's diagnoses. Every other request
 * passes as it is. Pages are made once per patient and page, not per request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LARGE_PAGES = 3;
const PAGE_BYTES = 3.9 * 1024 * 1024;
const PAGE = /[?&]pdas-page=(\d+)/;
const PATIENT = /[?&]patient=Patient\/([A-Za-z0-9.-]+)/;

interface Entry {
  fullUrl?: string;
  resource: { resourceType: string; id: string } & Record<string, unknown>;
}

/** Page `page` of the patient's Condition search, from the server's answer to the first. */
function pageOf(first: { entry?: Entry[] }, patient: string, page: number, proxyBase: string): Buffer {
  const own = first.entry ?? [];
  const model = own.find((e) => e.resource.resourceType === 'Condition');
  const entries = page === 1 ? own.map((e) => JSON.stringify(e)) : [];
  for (let i = 0, size = 0; model !== undefined && size < PAGE_BYTES - 4096; i++) {
    const id = `${model.resource.id}-p${page}-${i}`;
    const entry = JSON.stringify({ fullUrl: `${proxyBase}/Condition/${id}`, resource: { ...model.resource, id }, search: { mode: 'include' } });
    size += entry.length + 1;
    entries.push(entry);
  }
  const link = page === LARGE_PAGES ? [] : [{ relation: 'next', url: `${proxyBase}/Condition?patient=Patient/${patient}&pdas-page=${page + 1}` }];
  return Buffer.from(`{"resourceType":"Bundle","type":"searchset","link":${JSON.stringify(link)},"entry":[${entries.join(',')}]}`);
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The proxy in front of the FHIR base `base`; its own base has the same path. `pagesServed` counts the large pages answered. */
export async function startLargePageProxy(base: string): Promise<{ url: string; pagesServed: () => number; close(): Promise<void> }> {
  const target = new URL(base);
  const pages = new Map<string, Buffer>();
  let served = 0;
  let url = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = req.url ?? '/';
      const body = await bodyOf(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
      const patient = PATIENT.exec(path)?.[1];
      const page = Number(PAGE.exec(path)?.[1] ?? 1);
      const key = `${patient} ${page}`;
      const cached = path.includes('/Condition?') && patient !== undefined ? pages.get(key) : undefined;
      if (cached !== undefined) {
        served++;
        res.writeHead(200, { 'content-type': 'application/fhir+json', 'content-length': String(cached.length) }).end(cached);
        return;
      }
      const answer = await fetch(new URL(path.replace(PAGE, ''), target.origin), { method: req.method ?? 'GET', headers, ...(body.length > 0 ? { body } : {}) });
      const text = (await answer.text()).replaceAll(target.origin, new URL(url).origin);
      if (answer.status === 200 && path.includes('/Condition?') && patient !== undefined) {
        for (let p = 1; p <= LARGE_PAGES; p++) pages.set(`${patient} ${p}`, pageOf(JSON.parse(text) as { entry?: Entry[] }, patient, p, url));
        served++;
        const first = pages.get(key) as Buffer;
        res.writeHead(200, { 'content-type': 'application/fhir+json', 'content-length': String(first.length) }).end(first);
        return;
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/fhir+json' }).end(text);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname.replace(/\/+$/, '')}`;
  return {
    url,
    pagesServed: () => served,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
