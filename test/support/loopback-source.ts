/**
 * A loopback address of this run's own to send from, so what the service keeps by source address
 * (Redis counters, audit rows) is told apart from what other runs and other test files, on the same
 * Redis and PostgreSQL, cause at the same time. `tag` (1–254) keeps two files of one run apart.
 */
export const ownLoopbackSource = (tag: number): string => `127.${(process.pid >> 8) & 255}.${process.pid & 255}.${tag}`;
