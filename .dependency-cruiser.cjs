/**
 * The import rules of docs/architecture.md#what-may-import-what, enforced by
 * test/architecture/import-rules.test.ts (in `npm test`) and by `npx depcruise src`.
 */
/** Start-up: settings, the composition root and the entry point. */
const TOP_LEVEL = '^src/(start/[^/]+|[^/]+)\\.ts$';
const COMPOSITION_ROOT = '^src/start/(container|adapter-selection|log-format)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one; break it by moving the shared value type down.',
      severity: 'error',
      from: { path: '^src' },
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain holds rules and use cases: no framework, no I/O, no adapter, no composition.',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { path: ['^src/(adapters|http|dev|tracing)/', TOP_LEVEL, '^node:', '^(fastify|undici|pg|ioredis|pino|tsyringe|prom-client|oidc-provider|jose)($|/)'] },
    },
    {
      name: 'domain-uses-ports-as-types',
      comment: 'A use case knows a port by its interface only.',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { path: '^src/ports/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'ports-are-interfaces',
      comment: 'A port names a role in the domain\'s words; it depends on nothing but domain value types.',
      severity: 'error',
      from: { path: '^src/ports' },
      to: { path: ['^src/(adapters|http|dev|tracing)/', TOP_LEVEL] },
    },
    {
      name: 'http-knows-ports-and-domain',
      comment: 'The HTTP layer reaches adapters only through ports the composition root fills; settings as types.',
      severity: 'error',
      from: { path: '^src/http' },
      to: { path: ['^src/(adapters|dev|tracing)/'] },
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
      from: { path: '^src/adapters' },
      to: { path: ['^src/(http|dev|tracing)/', COMPOSITION_ROOT] },
    },
    {
      name: 'dev-only-through-the-composition-root',
      comment: 'The simulator, demo data, demo issuer and demo keys are loaded only by the composition root, in demo mode.',
      severity: 'error',
      from: { path: '^src/(?!dev/)', pathNot: COMPOSITION_ROOT },
      to: { path: '^src/dev/' },
    },
    {
      name: 'composition-root-loads-dev-lazily',
      severity: 'error',
      from: { path: COMPOSITION_ROOT },
      to: { path: '^src/dev/', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'production-needs-no-dev-dependency',
      comment: 'What npm prune --omit=dev removes is never imported by the service (src/dev may: it never runs in production).',
      severity: 'error',
      from: { path: '^src/(?!dev/)' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-stands-alone',
      severity: 'error',
      from: { path: '^src' },
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
