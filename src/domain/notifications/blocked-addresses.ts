/**
 * The addresses a notification is never sent to (threat 66, docs/notifications.md): whatever name an
 * endpoint has, what it resolves to is held to this at every connection, so a name allowed at creation
 * that later resolves to the cloud's metadata service (DNS rebinding) reaches nothing. Loopback only
 * with SUBSCRIPTION_ALLOW_LOOPBACK. A region's own network (10/8, 192.168/16, fc00::/7…) is not refused:
 * its receivers may run there, under the prefixes it allows.
 */
import ipaddr from 'ipaddr.js';

export type AddressKind = 'cloud-metadata' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast' | 'loopback';

// First match wins: the metadata services before the link-local range most of them sit in.
const RANGES: ReadonlyArray<readonly [AddressKind, string]> = [
  ['cloud-metadata', '169.254.169.254/32'], // AWS, Azure, GCP, Oracle, OpenStack, DigitalOcean
  ['cloud-metadata', '169.254.170.2/32'], // AWS ECS task metadata
  ['cloud-metadata', '100.100.100.200/32'], // Alibaba Cloud
  ['cloud-metadata', '168.63.129.16/32'], // Azure's wire server
  ['cloud-metadata', 'fd00:ec2::254/128'], // AWS over IPv6
  ['link-local', '169.254.0.0/16'],
  ['link-local', 'fe80::/10'],
  ['unspecified', '0.0.0.0/8'],
  ['unspecified', '::/128'],
  ['multicast', '224.0.0.0/4'],
  ['multicast', 'ff00::/8'],
  ['broadcast', '255.255.255.255/32'],
  ['loopback', '127.0.0.0/8'],
  ['loopback', '::1/128'],
];
const PARSED = RANGES.map(([kind, cidr]) => [kind, ipaddr.parseCIDR(cidr)] as const);

/** The IPv4 address an IPv6 one carries and reaches: mapped, translated (RFC 6145), NAT64 (RFC 6052), compatible, 6to4. */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const last = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return last(p[6] as number, p[7] as number);
  if (range === 'rfc6052' && p[1] === 0xff9b && p[2] === 0) return last(p[6] as number, p[7] as number);
  if (range === '6to4') return last(p[1] as number, p[2] as number);
  // ::a.b.c.d (deprecated), but not :: and ::1 themselves.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || (p[7] as number) > 1)) return last(p[6] as number, p[7] as number);
  return undefined;
}

/** What kind of refused address `address` (an IP literal without brackets, as DNS answers) is; undefined for an ordinary one or a name. */
export function addressKind(address: string): AddressKind | undefined {
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  const carried = parsed.kind() === 'ipv6' ? carriedIpv4(parsed as ipaddr.IPv6) : undefined;
  const ip = carried ?? parsed;
  return PARSED.find(([, range]) => range[0].kind() === ip.kind() && ip.match(range))?.[0];
}

/** Why nothing may be sent to `address`, or undefined when it may; loopback only when `allowLoopback`. */
export function refusedAddress(address: string, allowLoopback: boolean): AddressKind | undefined {
  const kind = addressKind(address);
  return kind === 'loopback' && allowLoopback ? undefined : kind;
}
