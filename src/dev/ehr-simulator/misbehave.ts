/** Each fault of FaultControl, acted out on one real HTTP exchange. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './fault-control.js';
import { bytesOf, fault as faultAnswer, XML_CONTENT_TYPE, type Answer } from './xml-answers.js';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The answer the interface would give (performing a write); a 304 when the request's preconditions say so. */
  answer(): Promise<Answer>;
  /** The same, whole: the document itself, whatever the request's preconditions. */
  document(): Promise<Answer>;
  /** The answer for the same path about another patient or actor. */
  swapped(): Promise<Answer>;
  /** Root element name to dress an oversized body in. */
  root: string;
  /** A timer that is cancelled when the simulator closes or the connection goes away. */
  after(ms: number, run: () => void): void;
}

export function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  if (answer.status === 304) {
    // Not Modified has no body (RFC 9110 §15.4.5): its validators, and nothing else.
    res.writeHead(304, answer.headers);
    res.end();
    return;
  }
  const body = bytesOf(answer);
  res.writeHead(answer.status, {
    'content-type': answer.contentType ?? XML_CONTENT_TYPE, 'content-length': String(body.length), ...answer.headers,
  });
  res.end(body);
}

const defaultFaultBody = (code: number, path: string): string => {
  const id = /\d{12}/.exec(path)?.[0] ?? 'okänd';
  if (code === 503) return faultAnswer(503, 'UNAVAILABLE', `Journalsystemet är otillgängligt (patient ${id})`).body;
  if (code === 400) return faultAnswer(400, 'BAD_REQUEST', `Felaktig begäran för patient ${id}`).body;
  if (code === 404) return faultAnswer(404, 'PATIENT_NOT_FOUND', `Patient ${id} finns inte`).body;
  return faultAnswer(code, 'INTERNAL_ERROR', `Internt fel vid läsning av patient ${id}: java.lang.NullPointerException`).body;
};

/** Writes `bytes` bytes of a plausible document in chunks, waiting for the reader; stops when it leaves. */
async function streamOversized(res: ServerResponse, root: string, bytes: number, declareLength: boolean): Promise<void> {
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<${root}>\n`);
  const tail = Buffer.from(`</${root}>\n`);
  const filler = '  <!-- padding of a simulated oversized answer .......................................... -->\n';
  // One chunk written again and again: the simulator itself holds next to nothing, however large the answer.
  const chunk = Buffer.from(filler.repeat(Math.ceil(65_536 / filler.length)));
  res.writeHead(200, { 'content-type': XML_CONTENT_TYPE, ...(declareLength ? { 'content-length': String(bytes) } : {}) });
  let left = bytes - head.length - tail.length;
  let gone = false;
  res.once('close', () => {
    gone = true;
  });
  res.write(head);
  while (left > 0 && !gone) {
    const piece = left >= chunk.length ? chunk : Buffer.alloc(left, 0x20);
    left -= piece.length;
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!gone) res.end(tail);
}

export async function misbehave(fault: Fault, x: Exchange): Promise<void> {
  const { req, res } = x;
  switch (fault.kind) {
    case 'delay':
      x.after(fault.ms, () => void x.answer().then((a) => send(res, a), () => res.destroy()));
      return;
    case 'held':
      void fault.until.then(() => x.answer()).then((a) => send(res, a), () => res.destroy());
      return;
    case 'hang':
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'commitThenReset':
      await x.answer();
      req.socket.destroy();
      return;
    case 'resetMidBody': {
      const body = bytesOf(await x.document());
      res.writeHead(200, { 'content-type': XML_CONTENT_TYPE, 'content-length': String(body.length) });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
      return;
    }
    case 'status':
      send(res, {
        status: fault.code,
        body: fault.body ?? defaultFaultBody(fault.code, req.url ?? ''),
        contentType: fault.contentType ?? XML_CONTENT_TYPE,
        headers: fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
      });
      return;
    case 'malformed': {
      const body = (await x.document()).body;
      send(res, { status: 200, body: body.slice(0, Math.max(1, Math.floor(body.length / 2))) });
      return;
    }
    case 'oversized':
      await streamOversized(res, x.root, fault.bytes, fault.declareLength);
      return;
    case 'trickle': {
      const body = bytesOf(await x.document());
      res.writeHead(200, { 'content-type': XML_CONTENT_TYPE, 'content-length': String(body.length) });
      let sent = 0;
      const drip = (): void => {
        const next = Math.min(body.length, sent + fault.bytesPerInterval);
        res.write(body.subarray(sent, next));
        sent = next;
        if (sent < body.length) x.after(fault.intervalMs, drip);
        else res.end();
      };
      drip();
      return;
    }
    case 'swapPatient':
      send(res, await x.swapped());
      return;
    case 'redirect': {
      const answer = await x.document();
      const location = fault.location ?? `http://127.0.0.2:9${req.url ?? '/'}`;
      send(res, { ...answer, status: 308, headers: { location } });
      return;
    }
  }
}
