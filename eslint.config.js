// ESLint: typescript-eslint, the React hooks and TanStack Query rules, and the import boundaries
// that encode ARCHITECTURE.md (contract → routes → domain → store; web and server apart).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';

/** `no-restricted-imports` patterns for one boundary rule. */
const forbid = (groups, message) => ({ group: groups, message });

const boundaries = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'test-results/', 'bench/out/', '.weft/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Tests and the test harness read answers as untyped JSON on purpose: the server's own types
  // would make a test agree with whatever the server sends.
  {
    files: ['**/*.test.ts', 'src/server/testing/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': pluginQuery },
    // The classic hooks rules. The React Compiler rules of eslint-plugin-react-hooks 7
    // (refs, purity, incompatible-library) judge code by what the compiler can memoize; Weft
    // does not use the compiler, and its virtualized tables read refs during render on purpose.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...pluginQuery.configs['flat/recommended-strict'].rules,
    },
  },
  // Query keys come from each feature's key factory (`xKeys` in its *Queries.ts), so prefix
  // invalidation reaches every query it should (docs/dashboard.md "Query keys").
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Property[key.name=/^(queryKey|mutationKey)$/] > ArrayExpression',
          message: "Build query keys with the feature's key factory (xKeys in its *Queries.ts), not a literal array.",
        },
        {
          selector: 'CallExpression[callee.property.name=/^(get|set)Quer(y|ies)(Data|State)$/] > ArrayExpression',
          message: "Build query keys with the feature's key factory (xKeys in its *Queries.ts), not a literal array.",
        },
      ],
    },
  },
  // The contract is the one source of every shape: it depends on zod and nothing else.
  {
    files: ['src/contract/**'],
    rules: boundaries([{ regex: '^(?!zod$|zod/|\\./)', message: 'src/contract imports only zod and its own files.' }]),
  },
  // The dashboard and the service meet only through the contract and the client.
  { files: ['src/web/**'], rules: boundaries([forbid(['**/server/**'], 'The dashboard never imports server code.')]) },
  { files: ['src/server/**'], rules: boundaries([forbid(['**/web/**'], 'The server never imports dashboard code.')]) },
  // Routes and domain logic talk to the Store interface, never to one backend.
  {
    files: ['src/server/routes/**', 'src/server/domain/**'],
    rules: boundaries([
      forbid(['**/store/sqlite/**', '**/store/clickhouse/**'], 'Routes and domain use the Store interface, not a backend.'),
    ]),
  },
  // The store sits below the domain and the HTTP layer.
  {
    files: ['src/server/store/**'],
    ignores: ['src/server/store/**/*.test.ts', 'src/server/store/conformance/**'],
    rules: boundaries([forbid(['**/domain/**', '**/http/**', '**/routes/**'], 'The store never imports domain, routes or http.')]),
  },
  // store/query/ is the query language's semantics every backend prints: it knows no backend.
  {
    files: ['src/server/store/query/**'],
    ignores: ['src/server/store/query/**/*.test.ts'],
    rules: boundaries([
      forbid(
        ['**/domain/**', '**/http/**', '**/routes/**', '**/web/**', '**/sqlite/**', '**/clickhouse/**'],
        'store/query/ is backend-neutral: no backend, domain, routes or http.',
      ),
    ]),
  },
  // core/ holds the pure helpers every layer and backend shares; it depends on none of them.
  {
    files: ['src/server/core/**'],
    rules: boundaries([
      forbid(['**/domain/**', '**/http/**', '**/routes/**', '**/store/sqlite/**'], 'core/ is neutral: no domain, http, routes or backend.'),
    ]),
  },
  // Generic UI below the features.
  {
    files: ['src/web/components/**', 'src/web/lib/**'],
    rules: boundaries([forbid(['**/features/**', '**/entities/**'], 'Shared components and lib never import a feature or an entity.')]),
  },
  // The shared models every feature reads (calls, feedback) sit below the features.
  {
    files: ['src/web/entities/**'],
    rules: boundaries([forbid(['**/features/**'], 'Entities (shared calls and feedback models) never import a feature.')]),
  },
);
