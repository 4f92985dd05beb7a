/**
 * Every app built in a process compiles its request validators and answer serialisers once: the
 * second app, with the same routes, compiles none (src/http/compiled-once.ts). A test worker builds
 * hundreds of apps; before, each compiled 10 serialisers and some validators again.
 */
import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compiledOnce } from '../../src/http/compiled-once.js';
import { startTestApp } from '../support/test-app.js';

const serialisers = vi.hoisted(() => ({ compiled: 0 }));
vi.mock('fast-json-stringify', async (importOriginal) => {
  const original = (await importOriginal<{ default: (...args: unknown[]) => unknown }>()).default;
  return { default: (...args: unknown[]) => { serialisers.compiled++; return original(...args); } };
});

describe('compiledOnce', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('compiles a schema once, whether asked again with the same object or another of the same content', () => {
    const made: object[] = [];
    const compile = compiledOnce((schema) => { made.push(schema); return { from: schema }; });
    const grant = () => Type.Array(Type.Object({ id: Type.String(), status: Type.String() }), { maxItems: 10 });
    const first = grant();
    expect(compile(first)).toBe(compile(first));
    expect(compile(grant())).toBe(compile(first));
    expect(made).toEqual([first]);
  });

  it('tells schemas of different content apart, by any keyword', () => {
    const compile = compiledOnce((schema) => ({ from: schema }));
    const a = compile(Type.Array(Type.String(), { maxItems: 10 }));
    expect(compile(Type.Array(Type.String(), { maxItems: 11 }))).not.toBe(a);
    expect(compile(Type.Array(Type.String({ pattern: '^x$' }), { maxItems: 10 }))).not.toBe(a);
  });

  it('a second app of the same routes compiles no serialiser and no validator', async () => {
    const first = await startTestApp({ proxies: { invitationDays: 14, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 }, subscriptions: true });
    await first.app.ready();
    await first.close();
    const validators = vi.spyOn(Ajv.prototype, 'compile');
    const before = serialisers.compiled;
    const second = await startTestApp({ proxies: { invitationDays: 14, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 }, subscriptions: true });
    try {
      await second.app.ready();
      expect(serialisers.compiled - before).toBe(0);
      expect(validators).not.toHaveBeenCalled();
    } finally {
      await second.close();
    }
  });
});
