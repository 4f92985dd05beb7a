/**
 * Issue 54, threat 66: whatever a name resolves to is held to the blocked addresses at every
 * connection, so a name allowed when the subscription was made that later resolves to the cloud's
 * metadata service or to loopback (DNS rebinding) reaches nothing. DNS is faked through the channel's
 * `lookup` option; the receivers are real, and count every connection.
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RestHookChannel } from '../../../src/adapters/notification-channel/rest-hook-channel.js';
import type { Delivery } from '../../../src/ports/notification-channel.port.js';
import { receiver, status, type Receiver } from '../../support/notification-receivers.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A DNS of the test's own: each name's addresses, asked in turn (a name's later answers may differ); counts the questions. */
function fakeDns(answers: Record<string, string[][]>): { lookup: LookupFunction; asked: string[] } {
  const asked: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    asked.push(hostname);
    const turns = answers[hostname];
    const addresses = (turns?.[Math.min(asked.filter((h) => h === hostname).length - 1, turns.length - 1)] ?? [])
      .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (addresses.length === 0) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? '', addresses[0]?.family);
  }) as LookupFunction;
  return { lookup, asked };
}

const channel = (allowLoopback: boolean, lookup: LookupFunction): RestHookChannel => {
  const made = new RestHookChannel({ allowLoopback, lookup });
  open.push(made);
  return made;
};
const delivery = (endpoint: string): Delivery => ({ endpoint, headers: [], body: '{}', timeoutMs: 5000 });
const BLOCKED = { kind: 'unreachable', reason: 'blocked-address' };

describe('issue 54: the channel never connects to a blocked address (threat 66)', () => {
  let r: Receiver;
  const listen = async (close = false): Promise<Receiver> => {
    r = await receiver(close ? status(200, { connection: 'close' }) : status(200));
    open.push(r);
    return r;
  };

  it('a name resolving to loopback reaches the receiver only with loopback allowed', async () => {
    await listen();
    const dns = fakeDns({ 'receiver.test': [['127.0.0.1']] });
    expect(await channel(false, dns.lookup).send(delivery(`http://receiver.test:${r.port}/`))).toEqual(BLOCKED);
    expect(r.connections).toBe(0);
    expect(await channel(true, dns.lookup).send(delivery(`http://receiver.test:${r.port}/`))).toEqual({ kind: 'delivered', status: 200 });
    expect(r.connections).toBe(1);
    expect(dns.asked).toEqual(['receiver.test', 'receiver.test']);
  });

  it('a loopback address literal reaches nothing without loopback allowed', async () => {
    await listen();
    const dns = fakeDns({});
    expect(await channel(false, dns.lookup).send(delivery(`${r.url}/`))).toEqual(BLOCKED);
    expect(await channel(false, dns.lookup).send(delivery(`http://[::ffff:127.0.0.1]:${r.port}/`))).toEqual(BLOCKED);
    expect(r.connections).toBe(0);
  });

  it.each([
    ['the metadata service', ['169.254.169.254']],
    ['the metadata service as IPv4 in IPv6', ['::ffff:169.254.169.254']],
    ['the metadata service over NAT64', ['64:ff9b::a9fe:a9fe']],
    ['AWS\'s IPv6 metadata service', ['fd00:ec2::254']],
    ['a link-local address', ['169.254.10.1']],
    ['an IPv6 link-local address', ['fe80::1']],
    ['the unspecified address', ['0.0.0.0']],
    ['a multicast address', ['224.0.0.251']],
    ['an ordinary address beside the metadata service', ['127.0.0.1', '169.254.169.254']],
  ])('a name resolving to %s is refused without a connection, even with loopback allowed', async (_, addresses) => {
    await listen();
    const dns = fakeDns({ 'hooks.app.test': [addresses] });
    expect(await channel(true, dns.lookup).send(delivery(`http://hooks.app.test:${r.port}/`))).toEqual(BLOCKED);
    expect(r.connections).toBe(0);
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]:8080/', 'http://0.0.0.0:8080/', 'https://[fd00:ec2::254]/'])(
    'an address literal %s is refused without asking DNS or connecting', async (endpoint) => {
      const dns = fakeDns({});
      expect(await channel(true, dns.lookup).send(delivery(endpoint))).toEqual(BLOCKED);
      expect(dns.asked).toEqual([]);
    });

  it('DNS rebinding: a name that resolved to an allowed address and now resolves to the metadata service reaches nothing', async () => {
    await listen(true);
    const dns = fakeDns({ 'hooks.app.test': [['127.0.0.1'], ['169.254.169.254']] });
    const made = channel(true, dns.lookup);
    expect(await made.send(delivery(`http://hooks.app.test:${r.port}/`))).toEqual({ kind: 'delivered', status: 200 });
    // The receiver closed the connection: the next notification connects again, and asks DNS again.
    expect(await made.send(delivery(`http://hooks.app.test:${r.port}/`))).toEqual(BLOCKED);
    expect([r.connections, r.received.length, dns.asked.length]).toEqual([1, 1, 2]);
  });

  it('a name that does not resolve is unreachable (connection)', async () => {
    expect(await channel(true, fakeDns({}).lookup).send(delivery('https://nowhere.test/'))).toEqual({ kind: 'unreachable', reason: 'connection' });
  });
});
