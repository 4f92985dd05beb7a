/**
 * A notification receiver on a loopback port, for `npm run notifications`: it answers every POST with
 * 200, keeps each notification's status (type, event numbers, foci), and lets the demo wait for the
 * next one. It never echoes what it received to anyone but the terminal that started it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  type: string;
  status: string;
  eventsSinceStart: string;
  events: { number: string; focus?: string }[];
}

interface Part { name: string; valueCode?: string; valueString?: string; valueReference?: { reference?: string }; part?: Part[] }

/** The status Parameters of a notification Bundle, read as far as the demo prints it. */
export function readNotification(body: string): Received {
  const bundle = JSON.parse(body) as { entry?: { resource?: { parameter?: Part[] } }[] };
  const parameter = bundle.entry?.[0]?.resource?.parameter ?? [];
  const value = (name: string): string => {
    const p = parameter.find((q) => q.name === name);
    return p?.valueCode ?? p?.valueString ?? '';
  };
  const events = parameter.filter((p) => p.name === 'notification-event').map((p) => {
    const focus = p.part?.find((q) => q.name === 'focus')?.valueReference?.reference;
    return { number: p.part?.find((q) => q.name === 'event-number')?.valueString ?? '?', ...(focus === undefined ? {} : { focus }) };
  });
  return { type: value('type'), status: value('status'), eventsSinceStart: value('events-since-subscription-start'), events };
}

export class Receiver {
  private readonly received: Received[] = [];
  private waiting: ((r: Received) => void)[] = [];

  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(onNotification: (r: Received) => void): Promise<Receiver> {
    // The server answers before the receiver exists to hand notifications to: it is made once listening.
    const made: { receiver?: Receiver } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 1_000_000) chunks.push(c);
      });
      request.on('end', () => {
        response.writeHead(200).end();
        try {
          const r = readNotification(Buffer.concat(chunks).toString('utf8'));
          onNotification(r);
          made.receiver?.take(r);
        } catch {
          // Not a notification: nothing to show.
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    made.receiver = new Receiver(server, `http://127.0.0.1:${port}/notifications`);
    return made.receiver;
  }

  private take(r: Received): void {
    const waiting = this.waiting;
    this.waiting = [];
    if (waiting.length === 0) this.received.push(r);
    for (const w of waiting) w(r);
  }

  /** The next notification of `type` (one already received counts), or undefined after `timeoutMs`. */
  next(type: string, timeoutMs: number): Promise<Received | undefined> {
    const at = this.received.findIndex((r) => r.type === type);
    if (at >= 0) return Promise.resolve(this.received.splice(at, 1)[0]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      const wait = (r: Received): void => {
        if (r.type !== type) {
          this.waiting.push(wait);
          return;
        }
        clearTimeout(timer);
        resolve(r);
      };
      this.waiting.push(wait);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
