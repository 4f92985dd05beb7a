/**
 * undici's connector for notifications, held to src/domain/notifications/blocked-addresses.ts at every
 * connection (threat 66): an address literal is judged before connecting, and a name by every address
 * DNS answers for it, before the socket connects to any of them. One refused address refuses the name:
 * a receiver's name has no business resolving to the metadata service beside its own address. A name
 * allowed when the subscription was made is asked again at each new connection, so rebinding it later
 * reaches nothing.
 */
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress, type AddressKind } from '../../domain/notifications/blocked-addresses.js';
import { buildConnector, type Connector } from '../http-client/undici-parts.js';

export const BLOCKED_ADDRESS = 'PDAS_BLOCKED_ADDRESS';

/** A connection the channel would not make; the kind is of the address, never the address itself. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = BLOCKED_ADDRESS;

  constructor(readonly kind: AddressKind) {
    super(`notification endpoint is at a ${kind} address, where nothing is sent`);
  }
}

export interface GuardOptions {
  allowLoopback: boolean;
  /** DNS; the system's (getaddrinfo) unless set. */
  lookup?: LookupFunction;
  /** How long a TCP and TLS connection may take to open, whatever the delivery's deadline. */
  connectTimeoutMs: number;
  /** CAs trusted instead of the system's. */
  ca?: string | Buffer;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `lookup`, answering only when no address of the name is refused; in the shape the socket asked for (one address or all). */
function guardedLookup(lookup: LookupFunction, allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (err, answered) => {
      if (err) return callback(err, '');
      const addresses = Array.isArray(answered) ? answered : [{ address: answered, family: isIP(answered) }];
      const refused = addresses.map((a) => refusedAddress(a.address, allowLoopback)).find((kind) => kind !== undefined);
      if (refused !== undefined) return callback(new BlockedAddressError(refused), '');
      const [first] = addresses;
      if (first === undefined) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      return options.all === true ? callback(null, addresses) : callback(null, first.address, first.family);
    });
  };
}

/** The channel's `connect`: no connection to a refused address, by literal or by name. */
export function guardedConnector(options: GuardOptions): Connector {
  const connect = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options.lookup ?? (systemLookup as LookupFunction), options.allowLoopback),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  return ((opts, callback) => {
    const literal = isIP(opts.hostname) === 0 ? undefined : refusedAddress(opts.hostname, options.allowLoopback);
    if (literal === undefined) return connect(opts, callback);
    const refuse = callback as (err: Error, socket: null) => void;
    queueMicrotask(() => refuse(new BlockedAddressError(literal), null));
    return undefined;
  }) as Connector;
}
