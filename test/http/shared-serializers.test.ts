import fastJsonStringify from 'fast-json-stringify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ErrorResponseSchema, StatusErrorSchema } from '../../src/http/schemas/errors.js';
import { answersSentAsBytes, sharedSerializerCompiler } from '../../src/http/serialization/shared-serializers.js';

describe('sharedSerializerCompiler', () => {
  it('compiles a schema object once, whichever route and status ask for it', () => {
    const compile = sharedSerializerCompiler();
    const atSpecPath = compile({ schema: ErrorResponseSchema, method: 'GET', url: '/patients/journalnotes', httpStatus: '400' });
    const atVendorPath = compile({ schema: ErrorResponseSchema, method: 'GET', url: '/JournalNotes', httpStatus: '404' });
    expect(atVendorPath).toBe(atSpecPath);
    expect(compile({ schema: StatusErrorSchema, method: 'GET', url: '/patients/journalnotes', httpStatus: '400' })).not.toBe(atSpecPath);
  });

  it('writes what the default compiler of fastify writes, and only what the schema lists', () => {
    const compile = sharedSerializerCompiler();
    const schema = Type.Object({ name: Type.String(), dose: Type.Optional(Type.String()) }, { additionalProperties: false });
    const value = { name: 'Waran', dose: 'Dos: <5 mg per dygn, "enligt ordination"', secret: '191212121212' };
    const written = compile({ schema, method: 'GET', url: '/x', httpStatus: '200' })(value);
    expect(written).toBe(fastJsonStringify(schema)(value));
    expect(JSON.parse(written)).toEqual({ name: 'Waran', dose: value.dose });
  });

  it('compiles nothing for answers a route sends as bytes, and refuses to write one as an object', () => {
    let compiled = 0;
    const compile = answersSentAsBytes((route) => {
      compiled++;
      return sharedSerializerCompiler()(route);
    });
    const answer = Type.Array(Type.Object({ text: Type.String() }));
    const ok = compile({ schema: answer, method: 'GET', url: '/patients/journalnotes', httpStatus: '200' });
    expect(compiled).toBe(0);
    expect(() => ok([{ text: 'Dos: <5 mg' }])).toThrow(/sends its 200 answers as bytes/);
    const badRequest = compile({ schema: ErrorResponseSchema, method: 'GET', url: '/patients/journalnotes', httpStatus: '400' });
    expect(compiled).toBe(1);
    const body = { error: 'fromDateTime: expected YYYY-MM-DDThh:mm:ss', path: '/patients/carecontacts', status: 400, timestamp: 1795468403750 };
    expect(JSON.parse(badRequest(body))).toEqual(body);
  });
});
