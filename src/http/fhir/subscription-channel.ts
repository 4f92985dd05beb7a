/**
 * The backport's extensions of `Subscription.channel` (docs/fhir-api.md#subscriptions): the
 * heartbeat period (unsignedInt seconds, at least 10), the timeout of a delivery (unsignedInt, 1 to 30 seconds, 10
 * when not given) and the most events a notification carries (positiveInt, 1 to 100). Each at most
 * once; another extension is not this service's and is left alone.
 */
import { DomainError } from '../../domain/errors.js';
import { BACKPORT_IG } from '../../domain/notifications/notification-bundle.js';
import type { Channel } from '../../domain/notifications/subscription.js';

const SD = `${BACKPORT_IG}/StructureDefinition`;
export const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_UNSIGNED_INT = 2_147_483_647;
/** The shortest heartbeat period: an app may not make the service knock on a receiver every second. */
export const MIN_HEARTBEAT_SECONDS = 10;

type Options = Pick<Channel, 'heartbeatSeconds' | 'timeoutSeconds' | 'maxCount'>;

interface Option {
  member: keyof Options;
  url: string;
  /** The value's element, by the extension's FHIR type. */
  value: 'valueUnsignedInt' | 'valuePositiveInt';
  min: number;
  max: number;
  /** What the refusal says it is for. */
  says: string;
}

const OPTIONS: readonly Option[] = [
  { member: 'heartbeatSeconds', url: `${SD}/backport-heartbeat-period`, value: 'valueUnsignedInt', min: MIN_HEARTBEAT_SECONDS, max: MAX_UNSIGNED_INT, says: `seconds between heartbeats, at least ${MIN_HEARTBEAT_SECONDS}, or left out for none` },
  { member: 'timeoutSeconds', url: `${SD}/backport-timeout`, value: 'valueUnsignedInt', min: 1, max: 30, says: `seconds a delivery may take, 1 to 30 (${DEFAULT_TIMEOUT_SECONDS} when left out)` },
  { member: 'maxCount', url: `${SD}/backport-max-count`, value: 'valuePositiveInt', min: 1, max: 100, says: 'the most events one notification carries, 1 to 100' },
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The options `channel.extension` sets, the timeout's default where it is left out; a DomainError (400) naming the extension otherwise. */
export function channelOptionsOf(extension: unknown): Options {
  const given = Array.isArray(extension) ? extension.filter(isObject) : [];
  const options: Options = { timeoutSeconds: DEFAULT_TIMEOUT_SECONDS };
  for (const option of OPTIONS) {
    const found = given.filter((e) => e.url === option.url);
    if (found.length === 0) continue;
    const value = found.length === 1 ? found[0]?.[option.value] : undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < option.min || value > option.max) {
      throw new DomainError('INVALID_REQUEST', `The ${option.url.slice(SD.length + 1)} extension of Subscription.channel must be one ${option.value}: ${option.says}.`);
    }
    options[option.member] = value;
  }
  return options;
}

/** The extensions of a kept channel, in the order the backport's examples give them. */
export function channelExtensionsOf(channel: Channel): Json[] {
  return OPTIONS.flatMap((option) => {
    const value = channel[option.member];
    return value === undefined ? [] : [{ url: option.url, [option.value]: value }];
  });
}
