// @ts-check
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

// The boundary rules (docs/architecture.md): a module is used by anything outside it only through its
// public face, src/modules/<m>/index.ts; routes, workers and the CLI reach SQL only through services.
const anotherModulesInsides = {
  regex: String.raw`^\.\./[^./][^/]*/(?!index\.js$)`,
  message: "Another module's own file: import that module's public face, '../<module>/index.js'.",
}
const aModulesInsides = {
  regex: String.raw`(^|/)modules/[^/]+/(?!index\.js$)`,
  message: "A module's own file: import its public face, 'src/modules/<module>/index.js'.",
}
const anyQueries = {
  regex: String.raw`\.queries(\.js)?$`,
  message: "Routes, workers and the CLI call a module's service, never a *.queries.ts.",
}

// Services orchestrate, queries hold the SQL (docs/architecture.md): in these modules no service builds a statement.
const SERVICES_WITHOUT_SQL = [
  'accounts',
  'audit',
  'admin',
  'alerts',
  'bills',
  'catalog',
  'checkout',
  'complaints',
  'console',
  'dashboard',
  'fulfilment',
  'ledger',
  'leaderboard',
  'locks',
  'orders',
  'price-levels',
  'refids',
  'reports',
  'suppliers',
  'team',
  'topups',
  'webhooks',
]
const statementsInAService = [
  {
    selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
    message: "A service calls its module's *.queries.ts; the statement belongs there.",
  },
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: "A service calls its module's *.queries.ts; the SQL belongs there." },
]

export default defineConfig(
  { ignores: ['node_modules/', 'coverage/', 'data/', 'packages/client/src/schema.ts'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/modules/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [anotherModulesInsides] }] },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/modules/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [aModulesInsides] }] },
  },
  {
    files: ['src/workers/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [aModulesInsides, anyQueries] }] },
  },
  {
    files: ['src/modules/**/*.routes.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [anotherModulesInsides, anyQueries] }] },
  },
  {
    files: SERVICES_WITHOUT_SQL.map((m) => `src/modules/${m}/*.service.ts`),
    rules: { 'no-restricted-syntax': ['error', ...statementsInAService] },
  },
)
