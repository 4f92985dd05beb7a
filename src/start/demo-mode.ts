/**
 * Demo mode (docs/contract.md#demo-mode): whether the demo authorization server, the demo subscription
 * key and the demo clients run. Only when nothing names a real deployment: no AUTH_ISSUER, no key, no
 * shared store, no TLS or upstream credential file, and every upstream on this machine, as the simulators
 * are. A real setting without AUTH_ISSUER stops the start: the demo issuer's clients, whose secrets sit in
 * DATA_DIR, would otherwise get tokens for real patients' data. The one place this is decided; loadConfig
 * and the composition root (src/start/adapter-selection.ts) both ask it.
 */
import type { FhirSettings, RegistrySettings } from './fhir-settings.js';
import { isLoopbackHost, type TransportSettings } from './transport-settings.js';

/** The settings of src/start/config.ts that decide (a Config is one). */
export interface DemoModeSettings extends Pick<TransportSettings, 'tls' | 'ehrTls'>, Pick<RegistrySettings, 'delegationRegistryUrl'> {
  authIssuer: string | undefined;
  subscriptionKeys: ReadonlyArray<readonly [string, string]> | undefined;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  ehrBaseUrl: string | undefined;
  fhir: Pick<FhirSettings, 'auth'> | undefined;
}

const offThisMachine = (url: string | undefined): boolean => url !== undefined && !isLoopbackHost(new URL(url).hostname);

/** The settings in `config` that name a real deployment, by their names (never their values: a URL may hold a password). */
export function realDeploymentSettings(config: DemoModeSettings): string[] {
  const named: Array<[boolean, string]> = [
    [config.subscriptionKeys !== undefined, 'SUBSCRIPTION_KEYS/SUBSCRIPTION_KEYS_FILE'],
    [config.databaseUrl !== undefined, 'DATABASE_URL'],
    [config.redisUrl !== undefined, 'REDIS_URL'],
    [config.tls !== undefined, 'TLS_CERT_FILE/TLS_KEY_FILE'],
    [config.ehrTls?.caFile !== undefined, 'EHR_TLS_CA_FILE'],
    [config.ehrTls?.certFile !== undefined, 'EHR_TLS_CERT_FILE/EHR_TLS_KEY_FILE'],
    [offThisMachine(config.ehrBaseUrl), 'EHR_BASE_URL (not a loopback host)'],
    [offThisMachine(config.delegationRegistryUrl), 'DELEGATION_REGISTRY_URL (not a loopback host)'],
    [config.fhir?.auth.kind === 'smart-backend', 'FHIR_AUTH=smart-backend'],
  ];
  return named.filter(([present]) => present).map(([, name]) => name);
}

/**
 * True when the demo pieces run: no AUTH_ISSUER and nothing real. A real setting without AUTH_ISSUER
 * is `fail`ed, in one line naming AUTH_ISSUER and those settings.
 */
export function demoMode(config: DemoModeSettings, fail: (message: string) => Error): boolean {
  if (config.authIssuer !== undefined) return false;
  const real = realDeploymentSettings(config);
  if (real.length === 0) return true;
  const keys = config.subscriptionKeys === undefined ? ' (and SUBSCRIPTION_KEYS or SUBSCRIPTION_KEYS_FILE)' : '';
  throw fail(`AUTH_ISSUER must be set: ${real.join(', ')} name${real.length === 1 ? 's' : ''} a real deployment, where the demo `
    + `authorization server, demo keys and demo clients never run; set AUTH_ISSUER to the authorization server that issues your tokens${keys}`);
}
