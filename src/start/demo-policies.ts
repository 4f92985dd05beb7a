// The example release policies demo mode runs when RELEASE_POLICY_FILE is unset (docs/release-policy.md).
// A module of its own, with no imports: `npm run build` (scripts/build.ts) copies these files into
// dist/examples, so the image can run the demo too, without loading the settings' modules to learn their names.

/** The example of each EHR's records, in the repository's examples/ and in dist/examples. */
export const DEMO_POLICY_FILES = { xml: 'release-policy.json', 'fhir-r4': 'release-policy-fhir.json' } as const;
