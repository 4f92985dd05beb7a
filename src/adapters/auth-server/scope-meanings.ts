// What each scope on the consent page lets the application do, in words for the person asked:
// the OpenID and SMART launch scopes, the COS API's own (their descriptions in the operation table)
// and SMART resource scopes as the FHIR API reads them (src/domain/fhir/smart-scopes.ts).
import { apiScopes } from '../../domain/access/scopes.js';
import { smartGrants } from '../../domain/fhir/smart-scopes.js';

const LAUNCH_SCOPES: Readonly<Record<string, string>> = {
  openid: 'confirm that you signed in',
  fhirUser: 'know who you are in the record: yourself, or your relationship to the person picked',
  'launch/patient': 'know whose record was picked',
  offline_access: 'keep reading without asking you again, until the sign-in expires or is revoked',
};

/** The COS API's scopes and their descriptions, from the operation table once. */
const API_SCOPES = apiScopes();

const WHOSE = { patient: 'of the person picked', user: 'of everyone you may act for', system: 'of any patient' } as const;

const sentence = (text: string): string => text.replace(/^./, (c) => c.toUpperCase());

/** The scope in words; undefined for a scope this server does not know (it is shown as it is). */
export function scopeMeaning(scope: string): string | undefined {
  const known = LAUNCH_SCOPES[scope] ?? API_SCOPES.get(scope);
  if (known !== undefined) return sentence(known);
  const [grant] = smartGrants([scope]);
  if (grant === undefined) return undefined;
  const how = [...grant.interactions].sort().join(' and ');
  const what = grant.type === '*' ? 'every part of the record' : `${grant.type} resources`;
  const only = grant.category === undefined ? '' : ` (only category ${grant.category.code})`;
  return sentence(`${how} ${what}${only} ${WHOSE[grant.context]}`);
}
