// @ts-check
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

// The boundary rule (docs/architecture.md): a module reaches another only through that module's
// services, and routes reach even their own module's SQL only through its services.
const queriesOfAnotherModule = {
  regex: String.raw`^\.\./.*\.queries(\.js)?$`,
  message: "Another module's *.queries.ts: call that module's service (import * as x from '../x/x.service.js').",
}
const anyQueries = {
  regex: String.raw`\.queries(\.js)?$`,
  message: "Routes, workers and the CLI call a module's service, never a *.queries.ts.",
}

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
    rules: { 'no-restricted-imports': ['error', { patterns: [queriesOfAnotherModule] }] },
  },
  {
    // The loop runners and the CLI, like routes, reach a module's SQL only through its services.
    files: ['src/workers/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [anyQueries] }] },
  },
  {
    files: ['src/modules/**/*.routes.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [queriesOfAnotherModule, anyQueries] }] },
  },
)
