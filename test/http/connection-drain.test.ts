import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BacklogClient } from '../support/backlog.js';
import { startDemoService } from '../support/demo-service.js';
import { RawConnection } from '../support/raw-http.js';

const CHILD = '201701012393';

/**
 * Issue 20 item 7 in-process and deterministic: requests written on idle keep-alive connections in
 * the same event-loop turn as the service's close are in the sockets, unread, when closing begins.
 * Before the fix the close reset every such connection (http's closeIdleConnections thinks them
 * idle) and fastify answered what it had not routed with 503.
 */
describe('issue 20 item 7: closing the service serves what already reached its sockets', () => {
  it('issue 20 item 7: requests written on idle keep-alive connections as closing begins are answered 200 in full with Connection: close, pipelined or not, and the connections then closed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-drain-'));
    const service = await startDemoService({ DATA_DIR: dir });
    const port = Number(new URL(service.api).port);
    let closed: Promise<void> | undefined;
    try {
      const token = await service.clientToken('user/JournalNote-read');
      const request = (id: string): string =>
        `GET /patients/journalnotes/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nOcp-Apim-Subscription-Key: ${service.key}\r\n`
        + `Authorization: Bearer ${token}\r\npatient: ${CHILD}\r\nX-Request-Id: ${id}\r\n\r\n`;
      const connections = await Promise.all(Array.from({ length: 4 }, () => RawConnection.open(port)));
      // Each answered once and now idle, kept alive.
      for (const [n, c] of connections.entries()) {
        c.write([request(`warm-${n}`)]);
        expect((await c.answered(1))[0]?.status).toBe(200);
      }
      // Written and closing begun in one turn: nothing of these requests has been read yet.
      connections.forEach((c, n) => c.write(Array.from({ length: n + 1 }, (_, i) => request(`late-${n}-${i}`))));
      closed = service.runtime.close();
      const ends = await Promise.all(connections.map((c) => c.ended));
      await closed;
      const late = connections.map((c) => c.answers.slice(1));
      expect(late.map((answers) => answers.map((a) => a.status))).toEqual([[200], [200, 200], [200, 200, 200], [200, 200, 200, 200]]);
      expect(late.flat().every((a) => Array.isArray(JSON.parse(a.body)))).toBe(true);
      expect(late.map((answers) => answers.at(-1)?.headers.connection)).toEqual(['close', 'close', 'close', 'close']);
      // Pipelined: only the last answer closes, or the requests behind it would be lost.
      expect(late.flatMap((answers) => answers.slice(0, -1).map((a) => a.headers.connection))).not.toContain('close');
      expect(ends).toEqual(['end', 'end', 'end', 'end']);
      connections.forEach((c) => c.destroy());
    } finally {
      await (closed ?? service.runtime.close());
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Issue 34 item 13: a rolling restart still lost requests. Connections the kernel had completed
 * but Node had not yet accepted when the signal came wait in the listener's backlog with their
 * requests; closing the listener at once made the kernel reset them (ECONNRESET, nothing logged).
 * Here the service's process is held still while another process connects and writes, so every
 * connection is in the backlog when closing begins, in the same turn: deterministic. Twenty reads
 * on twenty connections, and twenty pipelined on one connection, padded so that they are more than
 * the service reads in one go; each layout twenty times.
 */
describe('issue 34 item 13: closing the service serves the requests waiting in its listener\'s backlog', () => {
  let client: BacklogClient;
  let dir: string;
  beforeAll(async () => {
    client = await BacklogClient.start();
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-backlog-'));
  });
  afterAll(async () => {
    client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const layouts = [
    { name: 'twenty connections, one read each', connections: 20, perConnection: 1, padding: 0 },
    { name: 'one connection, twenty pipelined reads of 4 KB each', connections: 1, perConnection: 20, padding: 4000 },
  ];
  it('issue 34 item 13: every request written before closing began is answered 200 in full, each connection closed after its last answer (Connection: close), and a new connection refused, twenty times over in each layout', async () => {
    const failures: string[] = [];
    for (const layout of layouts) {
      for (let round = 0; round < 20; round++) {
        const service = await startDemoService({ DATA_DIR: dir });
        const port = Number(new URL(service.api).port);
        const token = await service.clientToken('user/JournalNote-read');
        const request = (id: string): string =>
          `GET /patients/journalnotes/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nOcp-Apim-Subscription-Key: ${service.key}\r\n`
          + `Authorization: Bearer ${token}\r\npatient: ${CHILD}\r\nX-Request-Id: ${id}\r\n${layout.padding > 0 ? `X-Padding: ${'p'.repeat(layout.padding)}\r\n` : ''}\r\n`;
        const ids = Array.from({ length: layout.connections }, (_, c) => Array.from({ length: layout.perConnection }, (__, r) => `backlog-${round}-${c}-${r}`));
        let closed: Promise<void> | undefined;
        const connections = await client.written(port, ids.map((line) => line.map(request)), () => {
          closed = service.runtime.close();
        });
        await closed;
        const fresh = await refusedOrAccepted(port);
        const seen = {
          // Answers come in the order of the requests on each connection; the ids are the service's own.
          answers: connections.map((c) => c.answers.map((a) => `${a.status}${a.jsonArray ? '' : ' not a JSON array'}`)),
          lastSays: connections.map((c) => c.answers.map((a) => a.connection || 'keep-alive')),
          ended: connections.map((c) => c.ended),
          fresh,
        };
        const wanted = {
          answers: ids.map((line) => line.map(() => '200')),
          lastSays: ids.map((line) => line.map((_, r) => (r === line.length - 1 ? 'close' : 'keep-alive'))),
          ended: ids.map(() => 'end'),
          fresh: 'ECONNREFUSED',
        };
        if (JSON.stringify(seen) !== JSON.stringify(wanted)) {
          const answered = connections.reduce((n, c) => n + c.answers.filter((a) => a.status === 200).length, 0);
          failures.push(`${layout.name}, round ${round + 1}: ${answered} of 20 answered 200, connections ended ${[...new Set(seen.ended)].join(', ')}, new connection ${fresh}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

/** Whether a new TCP connection to `port` is accepted or refused. */
function refusedOrAccepted(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}
