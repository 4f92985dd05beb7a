/**
 * Issue 44 item 6: the chain key file (AUDIT_CHAIN_KEY_FILE, docs/operations.md#the-chain-key) and the
 * signed heads as the log carries them (docs/operations.md#signed-heads).
 */
import { describe, expect, it } from 'vitest';
import { ChainKeyError, macHex, mergeChainKeys, parseChainKeys } from '../../../src/adapters/audit-chain/chain-keys.js';
import { FILE_STORE, headProblem, headsIn, signHead } from '../../../src/adapters/audit-chain/signed-head.js';
import { createLogger } from '../../../src/http/logging.js';
import { K1, K2, KEYS } from '../audit-query/keyed-trails.js';

const SECRET = 'c3'.repeat(32);

describe('issue 44 item 6: the chain key file', () => {
  it('takes id:secret lines, comments and blank lines aside; the last key signs, every key verifies', () => {
    const keys = parseChainKeys(`# retired 2026-10\n\n${K1}\n  ${K2}  \n`, 'keys');
    expect(keys.signing.id).toBe('k2');
    expect([...keys.byId.keys()]).toEqual(['k1', 'k2']);
    expect(macHex(keys.signing, 'x')).toBe(macHex(KEYS.signing, 'x'));
    expect(macHex(keys.signing, 'x')).not.toBe(macHex(keys.byId.get('k1') ?? keys.signing, 'x'));
  });

  it('refuses, naming the file and the line and never the secret, what cannot key a chain', () => {
    const refusal = (text: string): string => {
      try {
        parseChainKeys(text, 'AUDIT_CHAIN_KEY_FILE /run/k');
        return 'accepted';
      } catch (err) {
        expect(err).toBeInstanceOf(ChainKeyError);
        return (err as Error).message;
      }
    };
    expect(refusal(`k1:${'short'}\n`)).toMatch(/^AUDIT_CHAIN_KEY_FILE \/run\/k: line 1 must be <key id>:<secret>, .*32 characters or more/);
    expect(refusal(`${K1}\nno-colon-${SECRET}\n`)).toMatch(/line 2 must be/);
    expect(refusal(`bad id!:${SECRET}\n`)).toMatch(/line 1 must be/);
    expect(refusal(`${K1}\n${K1}\n`)).toBe('AUDIT_CHAIN_KEY_FILE /run/k: key id k1 is listed twice; give each key its own id');
    expect(refusal('# nothing\n\n')).toMatch(/holds no key/);
    expect(refusal(`k1:${SECRET.slice(0, 20)}`)).not.toContain(SECRET.slice(0, 20));
  });

  it('merges several files, the last file\'s key signing; one id naming two keys is refused', () => {
    const merged = mergeChainKeys([parseChainKeys(K2, 'b'), parseChainKeys(K1, 'a')]);
    expect([merged?.signing.id, [...(merged?.byId.keys() ?? [])]]).toEqual(['k1', ['k2', 'k1']]);
    expect(() => mergeChainKeys([parseChainKeys(K1, 'a'), parseChainKeys(`k1:${SECRET}`, 'b')])).toThrow(/key id k1 names two different keys/);
    expect(mergeChainKeys([])).toBeUndefined();
  });
});

describe('issue 44 item 6: signed heads', () => {
  const head = signHead(KEYS.signing, { store: FILE_STORE, id: 5, hash: '19121212121200'.padEnd(64, 'a'), time: '2026-11-21T09:00:05.123Z', at: '2026-11-21T09:05:00.000Z' });

  it('verify under the key they name; altered, or under a key not given, they cannot be trusted', () => {
    expect(headProblem(head, KEYS.byId)).toBeUndefined();
    expect(headProblem({ ...head, id: 4 }, KEYS.byId)).toMatch(/^its MAC does not verify/);
    expect(headProblem({ ...head, at: '2026-11-21T09:06:00.000Z' }, KEYS.byId)).toMatch(/^its MAC does not verify/);
    expect(headProblem(head, parseChainKeys(K1, 'k1').byId)).toBe('it is signed with key id "k2", which no key file given holds');
  });

  it('are logged whole: a hash whose digits read as an identity number is not redacted from the head, as it is elsewhere', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.info({ auditHead: head, other: head.hash }, 'audit chain head');
    const logged = JSON.parse(lines[0] ?? '{}') as { auditHead: unknown; other: string };
    expect(logged.auditHead).toEqual(head);
    expect(logged.other).not.toBe(head.hash);
    expect(headsIn(lines.join(''))).toEqual([{ line: 1, head }]);
  });

  it('are read from a log export as written or wrapped by a log platform, other lines passed over, a broken head reported', () => {
    const line = JSON.stringify({ level: 30, auditHead: head, msg: 'audit chain head' });
    const text = [
      '{"level":30,"msg":"patient data access service listening"}', 'not json at all', line,
      JSON.stringify({ log: `${line}\n`, stream: 'stdout', time: '2026-11-21T09:05:00.1Z' }),
      JSON.stringify({ '@timestamp': '2026-11-21T09:05:00Z', message: line }),
      JSON.stringify({ auditHead: { ...head, mac: 'zz' } }),
    ].join('\n');
    expect(headsIn(text)).toEqual([{ line: 3, head }, { line: 4, head }, { line: 5, head }, { line: 6, head: 'malformed' }]);
  });
});
