import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
