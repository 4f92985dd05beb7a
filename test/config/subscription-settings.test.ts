/**
 * Issue 54 (docs/running.md#notifications-fhir-subscriptions): SUBSCRIPTIONS and its settings, read once
 * at start. A value out of range, or an endpoint prefix that the endpoint rules would not take, stops the
 * start naming the setting; loopback and a short poll only in demo mode unless set.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';
import { refusal } from '../support/config-refusal.js';

const DEMO = { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'pdas-subscription-settings-')) };
const REGION = { ...DEMO, AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-eeeeeeeeeeee', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none' };

describe('issue 54: the settings of notifications', () => {
  it('default on; in demo mode loopback is allowed and a patient is looked at every 10 s', () => {
    expect(loadConfig(DEMO).subscriptions).toEqual({
      endpoints: [], allowLoopback: true, pollSeconds: 10, ehrReadsPerSecond: 20, retryMinutes: 60, eventDays: 30,
    });
  });

  it('outside demo mode no loopback and every 60 s unless set', () => {
    expect(loadConfig(REGION).subscriptions).toEqual({
      endpoints: [], allowLoopback: false, pollSeconds: 60, ehrReadsPerSecond: 20, retryMinutes: 60, eventDays: 30,
    });
  });

  it('reads what is given', () => {
    expect(loadConfig({
      ...REGION, SUBSCRIPTIONS: 'on', SUBSCRIPTION_ENDPOINTS: ' https://hooks.region.example/apps/  https://Partner.example:8443 http://127.0.0.1/ ',
      SUBSCRIPTION_ALLOW_LOOPBACK: 'true', SUBSCRIPTION_POLL_SECONDS: '3600', SUBSCRIPTION_EHR_READS_PER_SECOND: '0.5',
      SUBSCRIPTION_RETRY_MINUTES: '10080', SUBSCRIPTION_EVENT_DAYS: '1',
    }).subscriptions).toEqual({
      endpoints: ['https://hooks.region.example/apps/', 'https://Partner.example:8443', 'http://127.0.0.1/'],
      allowLoopback: true, pollSeconds: 3600, ehrReadsPerSecond: 0.5, retryMinutes: 10080, eventDays: 1,
    });
    expect(loadConfig({ ...DEMO, SUBSCRIPTION_ALLOW_LOOPBACK: 'false', SUBSCRIPTION_EHR_READS_PER_SECOND: '10000' }).subscriptions)
      .toMatchObject({ allowLoopback: false, ehrReadsPerSecond: 10_000 });
  });

  it('SUBSCRIPTIONS=off: no settings, and the others are not read', () => {
    expect(loadConfig({ ...REGION, SUBSCRIPTIONS: 'off', SUBSCRIPTION_POLL_SECONDS: 'never' }).subscriptions).toBeUndefined();
  });

  it.each<readonly [string, string, RegExp]>([
    ['SUBSCRIPTIONS', 'yes', /^SUBSCRIPTIONS must be on or off/],
    ['SUBSCRIPTION_ALLOW_LOOPBACK', 'yes', /^SUBSCRIPTION_ALLOW_LOOPBACK must be true or false/],
    ['SUBSCRIPTION_POLL_SECONDS', '0', /^SUBSCRIPTION_POLL_SECONDS must be an integer from 1 to 3600 \(seconds/],
    ['SUBSCRIPTION_POLL_SECONDS', '3601', /^SUBSCRIPTION_POLL_SECONDS must be an integer from 1 to 3600/],
    ['SUBSCRIPTION_POLL_SECONDS', '1.5', /^SUBSCRIPTION_POLL_SECONDS must be an integer/],
    ['SUBSCRIPTION_RETRY_MINUTES', '0', /^SUBSCRIPTION_RETRY_MINUTES must be an integer from 1 to 10080 \(minutes/],
    ['SUBSCRIPTION_RETRY_MINUTES', '10081', /^SUBSCRIPTION_RETRY_MINUTES must be an integer from 1 to 10080/],
    ['SUBSCRIPTION_EVENT_DAYS', '0', /^SUBSCRIPTION_EVENT_DAYS must be an integer from 1 to 3650 \(days/],
    ['SUBSCRIPTION_EVENT_DAYS', '3651', /^SUBSCRIPTION_EVENT_DAYS must be an integer from 1 to 3650/],
    ...['0', '0.0', '-1', '10000.5', '1e3', 'abc', '.5', '5.'].map((value) =>
      ['SUBSCRIPTION_EHR_READS_PER_SECOND', value, /^SUBSCRIPTION_EHR_READS_PER_SECOND must be a number above 0 and at most 10000 \(EHR reads a second/] as const),
  ])('%s=%s stops the start, naming it', (name, value, message) => {
    expect(refusal({ ...REGION, [name]: value })).toMatch(message);
  });

  it.each([
    ['https://hooks.example/a?x=1', /^SUBSCRIPTION_ENDPOINTS entry 2 must not hold a query/],
    ['https://user:s3cr3t-pw@hooks.example/', /^SUBSCRIPTION_ENDPOINTS entry 2 must not hold userinfo/],
    ['http://hooks.example/', /^SUBSCRIPTION_ENDPOINTS entry 2 must be https/],
    ['http://127.0.0.1/', /^SUBSCRIPTION_ENDPOINTS entry 2 names a loopback address.*SUBSCRIPTION_ALLOW_LOOPBACK=true/],
    ['http://localhost/', /^SUBSCRIPTION_ENDPOINTS entry 2 must not name localhost/],
    ['https://169.254.169.254/', /^SUBSCRIPTION_ENDPOINTS entry 2 names a cloud-metadata address/],
    ['hooks.example', /^SUBSCRIPTION_ENDPOINTS entry 2 must be an absolute URL/],
  ])('SUBSCRIPTION_ENDPOINTS with %s stops the start, naming the setting and the entry, never echoing it', (bad, message) => {
    const said = refusal({ ...REGION, SUBSCRIPTION_ENDPOINTS: `https://fine.example/ ${bad}` });
    expect(said).toMatch(message);
    expect(said).not.toContain('s3cr3t');
  });
});
