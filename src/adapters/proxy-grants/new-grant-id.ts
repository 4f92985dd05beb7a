import { randomBytes } from 'node:crypto';
import { drawGrantId } from '../../domain/proxies/grant-id.js';

/** A new grant's id: 32 hex digits from the operating system's random numbers, never one a log would scrub (grant-id.ts). */
export const newGrantId = (): string => drawGrantId(() => randomBytes(16).toString('hex'));
