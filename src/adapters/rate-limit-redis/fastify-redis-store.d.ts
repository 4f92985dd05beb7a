// @fastify/rate-limit types its plugin, not the Redis store it builds internally; this declares the
// part of that store the counting wrapper uses, so its atomic INCR + PEXPIRE script is reused as is.
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  type StoreCallback = Parameters<FastifyRateLimitStore['incr']>[1];

  interface RedisStore extends FastifyRateLimitStore {
    read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  }

  const RedisStore: new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, nameSpace?: string) => RedisStore;
  export default RedisStore;
}
