/**
 * threats 33/34 of docs/threat-model.md#audit-and-logs-v16-pdl on captured log output: every write is one JSON line, and no token, subscription
 * key or identity number used in a test appears anywhere in it, as written or as read (percent-encoding undone,
 * fullwidth digits folded: test/support/log-grep.ts).
 */
import { readings } from '../../support/log-grep.js';

/** Every form of a 12-digit identity number a log could show: 12 digits, hyphenated, and the 10-digit forms. */
export function identityForms(id: string): string[] {
  return [id, `${id.slice(0, 8)}-${id.slice(8)}`, id.slice(2), `${id.slice(2, 8)}-${id.slice(8)}`];
}

/** A token and each of its three parts (long enough to be unambiguous). */
export function tokenForms(token: string): string[] {
  return [token, ...token.split('.').filter((part) => part.length >= 16)];
}

/** Collects what a suite used, so the suite can grep its logs for all of it at the end. */
export class UsedSecrets {
  private readonly values = new Set<string>();

  token(token: string): string {
    for (const form of tokenForms(token)) this.values.add(form);
    return token;
  }

  key(key: string): string {
    this.values.add(key);
    return key;
  }

  identity(id: string): string {
    if (/^\d{12}$/.test(id)) for (const form of identityForms(id)) this.values.add(form);
    return id;
  }

  all(): string[] {
    return [...this.values];
  }

  /**
   * The secrets found in the log text, each once, in any reading of it (`%31%39…` is 19…). A number
   * counts only as a whole run of digits: the last ten digits of an identity number inside a 13-digit
   * timestamp are not that number.
   */
  foundIn(lines: readonly string[]): string[] {
    const texts = readings(lines.join(''));
    return this.all().filter((secret) => texts.some((text) => {
      if (!/^[0-9-]+$/.test(secret)) return text.includes(secret);
      return new RegExp(`(?<![0-9])${secret}(?![0-9])`).test(text);
    }));
  }
}

/** Log writes that are not exactly one JSON object on one line (a forged second line, a raw CR, a torn write). */
export function malformedLogLines(lines: readonly string[]): string[] {
  return lines.filter((line) => {
    if (!line.endsWith('\n')) return true;
    const content = line.slice(0, -1);
    if (/[\r\n]/.test(content)) return true;
    try {
      const parsed = JSON.parse(content) as unknown;
      return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
    } catch {
      return true;
    }
  });
}
