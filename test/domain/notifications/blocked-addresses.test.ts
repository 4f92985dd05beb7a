import { describe, expect, it } from 'vitest';
import { addressKind, refusedAddress } from '../../../src/domain/notifications/blocked-addresses.js';

describe('issue 54: the addresses a notification is never sent to (threat 66)', () => {
  it.each([
    ['169.254.169.254', 'cloud-metadata'], ['169.254.170.2', 'cloud-metadata'], ['100.100.100.200', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'], ['fd00:ec2::254', 'cloud-metadata'],
    ['169.254.0.1', 'link-local'], ['169.254.255.255', 'link-local'], ['fe80::1', 'link-local'], ['febf:ffff::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'], ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'],
    // An IPv4 address inside IPv6 reaches that IPv4 address: mapped, translated, NAT64, compatible, 6to4.
    ['::ffff:169.254.169.254', 'cloud-metadata'], ['::ffff:a9fe:a9fe', 'cloud-metadata'], ['::ffff:0:a9fe:a9fe', 'cloud-metadata'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'], ['::169.254.169.254', 'cloud-metadata'], ['2002:a9fe:a9fe::1', 'cloud-metadata'],
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['64:ff9b::7f00:1', 'loopback'], ['::ffff:0.0.0.0', 'unspecified'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '10.0.0.5', '192.168.1.20', '172.16.0.1', '100.64.0.1', '93.184.215.14', '2a00:1450:400f:80d::200e', 'fd12:3456::1', '::ffff:8.8.8.8', '169.253.255.255', '169.255.0.0'])(
    '%s is an ordinary address: a region may run its receivers on its own network, under the prefixes it allows', (address) => {
      expect(addressKind(address)).toBeUndefined();
      expect(refusedAddress(address, false)).toBeUndefined();
    });

  it('loopback is refused unless allowed; every other kind always', () => {
    expect(refusedAddress('127.0.0.1', false)).toBe('loopback');
    expect(refusedAddress('::1', false)).toBe('loopback');
    expect(refusedAddress('::ffff:127.0.0.1', false)).toBe('loopback');
    expect(refusedAddress('127.0.0.1', true)).toBeUndefined();
    expect(refusedAddress('::1', true)).toBeUndefined();
    for (const address of ['169.254.169.254', 'fe80::1', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255']) {
      expect(refusedAddress(address, true), address).toBeDefined();
    }
  });

  it('what is not an IP address is no kind: a name is judged by what it resolves to', () => {
    for (const text of ['app.example', 'localhost', '', '1.2.3', '0x7f.1', '[::1]', '999.1.1.1']) expect(addressKind(text), text).toBeUndefined();
  });
});
