/**
 * Review finding 2 of issue 52: the forms of the authorization server's own pages are read up to 4 KiB.
 * More is FormTooLarge (the handlers' 413), whether the Content-Length says so or a chunked body grows
 * past it, and the answer still reaches the client (the request is paused, not destroyed). A character
 * split between two chunks is read whole.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormTooLarge, readForm } from '../../../src/adapters/auth-server/interactions.js';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    readForm(req).then((form) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Object.fromEntries(form)));
    }, (error: unknown) => {
      res.writeHead(error instanceof FormTooLarge ? error.status : 500, { connection: 'close' });
      res.end(error instanceof Error ? error.name : 'unknown');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A body sent in these chunks, with no Content-Length (chunked). */
const chunked = (...chunks: Buffer[]) => Readable.from(chunks);

describe('readForm', () => {
  it('reads a form sent in chunks, a character split between two of them whole', async () => {
    const bytes = Buffer.from('name=M%C3%A4rta&city=G\u00e4vle', 'utf8');
    const split = bytes.indexOf(0xc3) + 1;
    const answer = await request(url, { method: 'POST', body: chunked(bytes.subarray(0, split), bytes.subarray(split)) });
    expect([answer.statusCode, await answer.body.json()]).toEqual([200, { name: 'Märta', city: 'Gävle' }]);
  });

  it('takes 4096 bytes', async () => {
    const answer = await request(url, { method: 'POST', body: `a=${'x'.repeat(4094)}` });
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
  });

  it('refuses more by its Content-Length, before reading it', async () => {
    const answer = await request(url, { method: 'POST', body: `a=${'x'.repeat(5000)}` });
    expect([answer.statusCode, await answer.body.text()]).toEqual([413, 'FormTooLarge']);
  });

  it('refuses a chunked body once it grows past 4 KiB, and the answer still reaches the client', async () => {
    const answer = await request(url, { method: 'POST', body: chunked(Buffer.from(`a=${'x'.repeat(3000)}`), Buffer.from('y'.repeat(3000))) });
    expect([answer.statusCode, answer.headers.connection, await answer.body.text()]).toEqual([413, 'close', 'FormTooLarge']);
  });
});
