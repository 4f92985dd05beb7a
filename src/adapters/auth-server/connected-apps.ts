// Connected apps (docs/smart-launch.md#connected-apps, issue 46): the apps that hold a grant to the
// records of the signed-in person and of the people they act for now, and revoking one. A grant is a
// SMART launch's (the app, the person who signed in, the patient picked, the scopes) or a plain OAuth
// grant of the API's own scopes (its maker's own record and those they act for). Revoking ends it at
// once (grant-endings.ts): its next refresh and its access tokens' next request are refused.
import type Provider from 'oidc-provider';
import type { AccessBasis } from '../../domain/access/relationship.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { appNames, registeredName } from './app-names.js';
import type { Localized } from './page-language.js';
import { endGrant } from './grant-endings.js';
import { grantScopes, recordedOnce } from './revocation-records.js';
import { fhirUserOf, type LaunchPicks } from './smart-launch.js';

export interface ConnectedApp {
  grantId: string;
  clientId: string;
  /** The app's registered name (app-names.ts), else its id. */
  appName: string;
  /** The app's name in each language, for the page. */
  appNames: Localized;
  /** Whose record it opens: the person picked, by name and how the signed-in person stands to them. */
  patientId: string;
  patientName: string;
  basis: AccessBasis;
  /** The signed-in person's `fhirUser` towards that patient: who revokes it, in its audit record. */
  viewerFhirUser: string;
  /** What it reaches: the one record picked (a SMART launch), or the person's own and those they act for (a plain OAuth grant of the API). */
  reach: 'picked' | 'everyone';
  /** Who signed in and allowed it: the person here, the patient themself, or someone else acting for them. */
  allowedBy: 'you' | 'patient' | 'another';
  scopes: string[];
  /** When it was allowed, seconds since the epoch. */
  since?: number;
}

export interface ConnectedAppsContext {
  provider: Provider; picks: LaunchPicks; smart: SmartLaunchContext;
  /** The server's issuer, named in the audit record of each withdrawal. */
  issuer: string;
}

/** The grants open now to the records `accountId` may open (their own and those they act for), newest first. */
export async function connectedApps(context: ConnectedAppsContext, accountId: string): Promise<ConnectedApp[]> {
  const { provider, picks, smart } = context;
  const people = await smart.peopleFor(accountId);
  const byPatient = new Map(people.map((p) => [p.patientId, p]));
  const self = people.find((p) => p.basis === 'self');
  const kept = await picks.opening(accountId, people.map((p) => p.patientId));
  const apps: ConnectedApp[] = [];
  for (const launch of kept) {
    // A plain grant is its maker's alone to see; a launch, of whoever may open the record picked now.
    const person = launch.patientId === undefined ? (launch.accountId === accountId ? self : undefined) : byPatient.get(launch.patientId);
    // Past the access log's guardian age limit, or for a proxy, only the grants the person made themself (smart-launch.port.ts).
    if (person === undefined || (person.othersGrantsWithheld === true && launch.accountId !== accountId)) continue;
    const grant = await provider.Grant.find(launch.grantId);
    if (grant === undefined) continue;
    const client = await provider.Client.find(grant.clientId);
    const allowedBy = launch.accountId === accountId ? 'you' : launch.fhirUser === `Patient/${person.patientId}` ? 'patient' : 'another';
    apps.push({
      grantId: launch.grantId, clientId: grant.clientId, appName: registeredName(client, grant.clientId), appNames: appNames(client, grant.clientId),
      reach: launch.patientId === undefined ? 'everyone' : 'picked',
      patientId: person.patientId, patientName: person.name, basis: person.basis, viewerFhirUser: fhirUserOf(person), allowedBy, scopes: grantScopes(grant),
      ...(grant.iat === undefined ? {} : { since: grant.iat }),
    });
  }
  return apps.sort((a, b) => (b.since ?? 0) - (a.since ?? 0));
}

/**
 * Revokes `grantId` when it is among `accountId`'s connected apps (anything else is refused as not
 * found, so nobody learns of a grant they may not see); answers the app revoked. The withdrawal is
 * audited first: when its record cannot be stored this rejects and nothing is revoked (while the audit
 * store refuses, no read of the record is answered either, so the app reads nothing meanwhile).
 */
export async function revokeConnectedApp(context: ConnectedAppsContext, accountId: string, grantId: string, sourceAddress: string): Promise<ConnectedApp | undefined> {
  // One revoke of a grant by a person at a time in this process: two posted at once (a double click) revoke
  // and audit it once, the second finding it gone (hostile review helper-149, LOW-2). The person's own turn:
  // nobody else's post of the grant's id queues ahead of it (helper-150, LOW-B). Beside another end of
  // the grant (the app's RFC 7009 revocation, a sign-out), each may find it before either ends it: the
  // withdrawal is recorded once all the same (recordedOnce); on two instances, it may be recorded twice.
  const key = `${context.issuer}\0${accountId}\0${grantId}`;
  const before = REVOKING.get(key);
  // A turn after one that revoked the grant finds it gone without asking the store, which may be failing
  // just then: told a 503 "nothing could be changed" after a double click, the person would think it stood (helper-151, LOW-1).
  const mine = (before === undefined ? Promise.resolve(undefined) : before.catch(() => undefined))
    .then((revoked) => (revoked === undefined ? revokeNow(context, accountId, grantId, sourceAddress) : undefined));
  REVOKING.set(key, mine);
  try {
    return await mine;
  } finally {
    if (REVOKING.get(key) === mine) REVOKING.delete(key);
  }
}

/** The revokes of this process under way, by issuer, person and grant: each begins once the one before it ended. */
const REVOKING = new Map<string, Promise<ConnectedApp | undefined>>();

async function revokeNow(context: ConnectedAppsContext, accountId: string, grantId: string, sourceAddress: string): Promise<ConnectedApp | undefined> {
  const app = (await connectedApps(context, accountId)).find((a) => a.grantId === grantId);
  if (app === undefined) return undefined;
  await recordedOnce(context.issuer, grantId, () => context.smart.recordGrant({
    kind: 'revoked', issuer: context.issuer, accountId, patientId: app.patientId, basis: app.basis, fhirUser: app.viewerFhirUser,
    clientId: app.clientId, scopes: app.scopes, sourceAddress,
  }));
  await endGrant(context.provider, context.picks, grantId);
  return app;
}
