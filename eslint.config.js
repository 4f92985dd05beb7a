import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.data/**', 'coverage/**', 'demo-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // dependency-cruiser reads its configuration as CommonJS.
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    // Plain JavaScript run by node alone inside an image build (scripts/image): fetch is node's global.
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { fetch: 'readonly' } },
  },
  {
    // Scripts and tests speak to a terminal. Nothing in src/ does: the operator commands log through pino
    // (src/start/commands/command-log.ts), which redacts.
    files: ['scripts/**', 'test/**', 'src/**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Medplum (the FHIR development server) is a devDependency: production code never loads it.
    files: ['src/**'],
    ignores: ['src/dev/**', 'src/reads/*/demo*.ts', 'src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@medplum/*'], message: 'Medplum is for development only (src/dev).' }] }] },
  },
);
