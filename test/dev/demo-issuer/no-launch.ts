// The service's side of the demo authorization server for tests of the server alone: nothing to launch
// (no FHIR base an `aud` could name, nobody to pick), and an audit that takes every grant record, as
// the service's does with its audit store up (every consent is audited before its code).
import type { GrantEvent, SmartLaunchContext } from '../../../src/ports/smart-launch.port.js';

export function noLaunch(recorded: GrantEvent[] = []): SmartLaunchContext {
  return {
    publicBaseUrl: () => 'http://smart-launch.invalid',
    peopleFor: async () => [],
    sharingOffered: false,
    recordGrant: async (event) => {
      recorded.push(event);
    },
  };
}
