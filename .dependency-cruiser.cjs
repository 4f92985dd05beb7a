/**
 * The import rules of docs/architecture.md#what-may-import-what, enforced by
 * test/architecture/import-rules.test.ts (in `npm test`) and by `npx depcruise src`.
 */
/** Start-up: settings, the composition root and the entry point. */
const TOP_LEVEL = '^src/(start/[^/]+|[^/]+)\\.ts$';
const COMPOSITION_ROOT = '^src/start/(container|adapter-selection|log-format)\\.ts$';

// A read's folder (src/reads/<read>/) holds a file of each layer, and the file's name says its layer
// (docs/architecture.md#a-read-is-one-folder): the rules below hold by role, not by folder.
/** Domain: the operation entry, the answer schema and example, the FHIR resource types, the app's view of a read, and the registry of operations. */
const READ_DOMAIN = '^src/reads/(index\\.ts|as-fhir\\.ts|app-view\\.ts|[^/]+/((operation|answer|resource-types)[^/]*\\.ts|example\\.json))$';
/** Development only: the demo data of a read. */
const READ_DEV = '^src/reads/[^/]+/demo[^/]*\\.ts$';
/** Adapter: the XML reading, the FHIR plan and mapper, the sources, and their registries. */
const READ_ADAPTER = '^src/reads/(?!index\\.ts$)(?!as-fhir\\.ts$)(?!app-view\\.ts$)(?![^/]+/((operation|answer|resource-types|demo)[^/]*\\.ts|example\\.json|oracles\\.ts)$)';
const DOMAIN = ['^src/domain', READ_DOMAIN];
const ADAPTERS = ['^src/adapters/', READ_ADAPTER];
const DEV = ['^src/dev/', READ_DEV];
/**
 * A read's sources name its demo data lazily (`demo: () => import('./demo.js')`): the one edge from the
 * service's code to development code, never followed outside demo mode (src/dev/demo-data/read-demos.ts).
 */
const READ_SOURCES = '^src/reads/[^/]+/sources\\.ts$';
const READ_DEMO_ENTRY = '^src/reads/[^/]+/demo\\.ts$';
/** A read's hand-kept test oracles (test/support/read-oracles.ts): test code in the read's folder. */
const READ_ORACLES = '^src/reads/[^/]+/oracles\\.ts$';
/** A test beside the code it tests is not part of the service, nor is a read's oracles.ts. */
const TESTS = `\\.test\\.ts$|${READ_ORACLES}`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one; break it by moving the shared value type down.',
      severity: 'error',
      from: { path: '^src' },
      // A cycle through a read's demo entry passes its sources' lazy import, which runs after both ends are loaded.
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain holds rules and use cases: no framework, no I/O, no adapter, no composition.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: TESTS },
      to: { path: ['^src/(adapters|http|dev|tracing)/', READ_ADAPTER, READ_DEV, TOP_LEVEL, '^node:', '^(fastify|undici|pg|ioredis|pino|tsyringe|prom-client|oidc-provider|jose)($|/)'] },
    },
    {
      name: 'domain-uses-ports-as-types',
      comment: 'A use case knows a port by its interface only.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: TESTS },
      to: { path: '^src/ports/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'ports-are-interfaces',
      comment: 'A port names a role in the domain\'s words; it depends on nothing but domain value types.',
      severity: 'error',
      from: { path: '^src/ports' },
      to: { path: ['^src/(adapters|http|dev|tracing)/', READ_ADAPTER, READ_DEV, TOP_LEVEL] },
    },
    {
      name: 'http-knows-ports-and-domain',
      comment: 'The HTTP layer reaches adapters only through ports the composition root fills; settings as types.',
      severity: 'error',
      from: { path: '^src/http' },
      to: { path: ['^src/(adapters|dev|tracing)/', READ_ADAPTER, READ_DEV] },
    },
    {
      name: 'http-reads-settings-as-types',
      severity: 'error',
      from: { path: '^src/http' },
      to: { path: TOP_LEVEL, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-stay-below-http',
      comment: 'An adapter implements a port; it never reaches into the HTTP layer or development-only pieces.',
      severity: 'error',
      from: { path: ADAPTERS, pathNot: [TESTS, READ_SOURCES] },
      to: { path: ['^src/(http|dev|tracing)/', READ_DEV, COMPOSITION_ROOT] },
    },
    {
      name: 'sources-name-only-their-demo',
      comment: 'A read\'s sources are an adapter\'s, but for the lazy import of their own folder\'s demo.ts.',
      severity: 'error',
      from: { path: '^src/reads/([^/]+)/sources\\.ts$' },
      to: { path: ['^src/(http|dev|tracing)/', READ_DEV, COMPOSITION_ROOT], pathNot: '^src/reads/$1/demo\\.ts$' },
    },
    {
      name: 'demo-entry-only-lazily',
      comment: 'A read\'s demo.ts is reached only by a lazy import (its sources\' `demo`), so the service never loads it by accident.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: READ_DEMO_ENTRY, dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'dev-only-through-the-composition-root',
      comment: 'The simulator, demo data, demo issuer and demo keys are loaded only by the composition root, in demo mode.',
      severity: 'error',
      from: { path: '^src/(?!dev/)', pathNot: [COMPOSITION_ROOT, READ_DEV, READ_SOURCES, TESTS] },
      to: { path: DEV },
    },
    {
      name: 'composition-root-loads-dev-lazily',
      severity: 'error',
      from: { path: COMPOSITION_ROOT },
      to: { path: DEV, dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'production-needs-no-dev-dependency',
      comment: 'What npm prune --omit=dev removes is never imported by the service (src/dev may: it never runs in production).',
      severity: 'error',
      from: { path: '^src/(?!dev/)', pathNot: [READ_DEV, TESTS] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'oracles-only-for-tests',
      comment: 'A read\'s oracles.ts states by hand what the tests hold the service to: only tests import it, and the build leaves it out.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: READ_ORACLES },
    },
    {
      name: 'src-stands-alone',
      severity: 'error',
      from: { path: '^src', pathNot: TESTS },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
