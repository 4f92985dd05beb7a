/**
 * Issue 38 part 2: the alert rules of deploy/prometheus/alerts.yaml are valid Prometheus rules
 * (`promtool check rules`), behave as their unit tests say (`promtool test rules` on
 * deploy/prometheus/alerts.test.yaml, which tests every alert), and each carries a severity and a
 * runbook_url that leads to its own heading in docs/operations.md. Without promtool (Debian's package
 * `prometheus`) the promtool checks are skipped, except in CI, where .ci/run installs it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { anchors } from '../support/markdown-anchors.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';
import { alertRules } from './monitoring.js';
import { deployPath, findProgram, needProgram, skipWithout } from './tools.js';

const PROMTOOL = findProgram('promtool', process.env.PROMTOOL);
const PROMTOOL_INSTALL = 'apt-get install -y prometheus (Debian\'s package brings /usr/bin/promtool), or set PROMTOOL to its path';
const RULES = deployPath('prometheus', 'alerts.yaml');
const RULE_TESTS = deployPath('prometheus', 'alerts.test.yaml');

const promtool = (...args: string[]): string => {
  const program = needProgram('promtool', PROMTOOL, PROMTOOL_INSTALL);
  try {
    return execFileSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
};

describe.skipIf(skipWithout('promtool', PROMTOOL, PROMTOOL_INSTALL))('issue 38 part 2: promtool on the alert rules', () => {
  it('promtool check rules: valid rules', () => {
    expect(promtool('check', 'rules', RULES)).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('promtool test rules: every alert fires on trouble and stays quiet otherwise', () => {
    expect(promtool('test', 'rules', RULE_TESTS)).toMatch(/SUCCESS/);
  });
});

describe('issue 38 part 2: what the alert rules say', () => {
  const rules = alertRules();
  const names = [...new Set(rules.map((r) => r.alert))];

  it('alerts on what wakes someone up', () => {
    expect(names).toEqual([
      'PdasAuditStoreFailing', 'PdasEhrCircuitBreakerOpen', 'PdasEhrUnreachable', 'PdasEhrLatencyHigh', 'PdasHigh5xxRate',
      'PdasReadinessFlapping', 'PdasRateLimitStoreDown', 'PdasTlsCertificateExpiringSoon',
      // Issue 44 item 10: the security signals.
      'PdasRefusalsHigh', 'PdasRateLimitedHigh', 'PdasAuditHeadMissing', 'PdasAuditChainUnverified',
      // Issue 46: the service's own authorization server.
      'PdasSignInFailuresHigh', 'PdasSignInUnavailable', 'PdasTokenRefusalsHigh',
      // Issue 54: notifications late, or not taken.
      'PdasSubscriptionPollLagging', 'PdasAccessFeedLagging', 'PdasSubscriptionDeliveriesFailing',
      // Issue 57 item 4: a read the EHR cannot serve, while the service stays ready for the others.
      'PdasReadUnavailable',
    ]);
  });

  it('issue 44 item 10: watches the nightly chain check by the name its CronJob has in deploy/', () => {
    const cronJob = parse(readFileSync(deployPath('base', 'audit-verify-cronjob.yaml'), 'utf8')) as { kind: string; metadata: { name: string } };
    expect(cronJob.kind).toBe('CronJob');
    const rule = rules.find((r) => r.alert === 'PdasAuditChainUnverified');
    const named = [...(rule?.expr ?? '').matchAll(/cronjob="([^"]+)"/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(3);
    expect(new Set(named)).toEqual(new Set([cronJob.metadata.name]));
  });

  it('gives every alert a severity, a summary and a runbook in docs/operations.md under its own name', () => {
    const headings = anchors(path.join(REPOSITORY_ROOT, 'docs/operations.md'));
    for (const rule of rules) {
      expect(['critical', 'warning'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.runbook_url, rule.alert).toBe(`docs/operations.md#${rule.alert.toLowerCase()}`);
      expect(headings.has(rule.alert.toLowerCase()), `docs/operations.md has a heading ${rule.alert}`).toBe(true);
    }
  });

  it('unit-tests every alert in alerts.test.yaml', () => {
    const tests = parse(readFileSync(RULE_TESTS, 'utf8')) as { tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts: unknown[] }> }> };
    const firing = new Set(tests.tests.flatMap((t) => t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname)));
    expect(names.filter((n) => !firing.has(n))).toEqual([]);
  });
});
