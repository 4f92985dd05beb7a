/**
 * A FhirClient against the development FHIR server in the test process (demo-sim.ts), over plain fetch. `through` puts a proxy of the transport's side in front:
 * it may change a request's URL or an answer, as a front proxy or a misbehaving server would.
 */
import { FhirClient, type FhirClientOptions } from '../../../../src/adapters/ehr-fhir/client/fhir-client.js';
import type { FhirAnswer, FhirExchange } from '../../../../src/adapters/ehr-fhir/client/fhir-exchange.js';
import { fhirReads, fhirRelationships, type FhirReadsOptions } from '../../../../src/adapters/ehr-fhir/client/fhir-reads.js';
import { DEMO_FHIR_SETTINGS } from '../../../../src/dev/demo-data/fhir/bundle.js';
import type { FhirSim } from '../../../../src/dev/fhir-sim/fhir-sim.js';
import { BEFORE_OSLO_ENDED } from './demo-bundle.js';

export { startDemoSim } from './demo-sim.js';

export const fetchExchange: FhirExchange = async (url, init) => {
  const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, redirect: 'manual' });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
};

export interface Proxy {
  /** The URL as sent on. */
  url?: (url: string) => string;
  answer?: (answer: FhirAnswer, url: string) => FhirAnswer;
}

/** An exchange that records every URL asked for, through `proxy`. */
export function recordingExchange(proxy: Proxy = {}): FhirExchange & { urls: string[] } {
  const urls: string[] = [];
  const exchange = async (url: string, init: Parameters<FhirExchange>[1]) => {
    urls.push(url);
    const answer = await fetchExchange(proxy.url?.(url) ?? url, init);
    return proxy.answer?.(answer, url) ?? answer;
  };
  return Object.assign(exchange, { urls });
}

export const clientFor = (sim: FhirSim, over: Partial<FhirClientOptions> = {}): FhirClient =>
  new FhirClient({ baseUrl: sim.baseUrl, exchange: fetchExchange, pageSize: 100, maxPages: 20, ...over });

export function readsOptions(client: FhirClient, notes: string[] = []): FhirReadsOptions {
  return {
    client, zone: 'Europe/Stockholm', idRoot: DEMO_FHIR_SETTINGS.idRoot, videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem,
    now: () => BEFORE_OSLO_ENDED, note: (reason) => notes.push(reason),
  };
}

export const readsOf = (client: FhirClient, notes?: string[]) => fhirReads(readsOptions(client, notes));

export const DELEGATION_TAG = DEMO_FHIR_SETTINGS.delegationTag;
export const registryOf = (client: FhirClient) => fhirRelationships({ ...readsOptions(client), tag: DELEGATION_TAG });

/** The JSON body of an answer, changed by `change`. */
export function changedBody(answer: FhirAnswer, change: (json: Record<string, unknown>) => void): FhirAnswer {
  if (answer.body === undefined) return answer;
  const json = JSON.parse(answer.body.toString()) as Record<string, unknown>;
  change(json);
  return { ...answer, body: Buffer.from(JSON.stringify(json)) };
}
