import type { ClientBase, Pool, PoolClient } from 'pg';

/** Raised when PostgreSQL does not finish a unit of work in time; the connection is then dropped. */
export class PostgresDeadlineError extends Error {
  override name = 'PostgresDeadlineError';
}

const ignoreLoss = (): void => undefined;

/**
 * `pool`, made to outlive its connections: one the server or the network ends is reported as an `error`
 * event, by the pool while it is idle and by the connection itself while it is checked out (a failover,
 * pg_terminate_backend, during a query or between two); with no listener either would end the process.
 * The query under way fails anyway, the connection is dropped at its release, and the pool opens a fresh one.
 * Every pool of the service is made through this (hostile review helper-121: a checked-out one had none).
 */
export function outlivingConnections<P extends Pool>(pool: P): P {
  pool.on('error', ignoreLoss);
  pool.on('connect', (client) => client.on('error', ignoreLoss));
  return pool;
}

/**
 * Runs `work` on a pooled connection and bounds it: a connection that stops answering (a network
 * that drops packets answers nothing, ever) is destroyed at the deadline, so no caller waits on it.
 * Any failure destroys the connection too, since its state (an open transaction, a half-read
 * answer) is unknown; the pool opens a fresh one next time.
 */
export async function withBoundedClient<T>(pool: Pool, deadlineMs: number, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let timer: NodeJS.Timeout | undefined;
  let failure: Error | undefined;
  try {
    return await Promise.race([
      work(client),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PostgresDeadlineError(`PostgreSQL did not answer within ${deadlineMs} ms`)), deadlineMs);
      }),
    ]);
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    clearTimeout(timer);
    client.release(failure);
  }
}

/** A short description of a driver or server error, safe for a log line: never a row's values. */
export function describePgError(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const code = (err as { code?: unknown }).code;
  // `detail` of a server error may quote a row (patient ids); the messages our statements can raise do not.
  return `${typeof code === 'string' ? `${code} ` : ''}${err.message}`.slice(0, 300);
}

/** `work` in one transaction: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(client: ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * `work` in one transaction on a connection of `pool`. A connection whose work failed is dropped, not
 * reused (its state is unknown), unless `sound` says the failure left it sound: a refusal the caller's
 * own code decided, rolled back like any other.
 */
export async function pooledTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, sound: (err: unknown) => boolean = () => false): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await inTransaction(client, () => work(client));
  } catch (err) {
    if (!sound(err)) failure = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.release(failure);
  }
}
