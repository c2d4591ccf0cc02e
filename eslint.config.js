// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import storybook from 'eslint-plugin-storybook';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'storybook-static',
      'coverage',
      'tests/msw/worker/mockServiceWorker.js',
      'test-results',
      'playwright-report',
      '.data',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // No import cycles anywhere (CONVENTIONS.md): a cycle makes the evaluation order, and so which
  // binding is still undefined at start-up, depend on which module is imported first. Imports are
  // resolved as the TypeScript bundler resolution does (extensionless or with .ts/.tsx); type-only
  // imports are erased at build time and cannot cycle, so the rule skips them.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.json'],
          conditionNames: ['import', 'default'],
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Globals match the two TypeScript halves (tsconfig.app/test.json vs tsconfig.node.json):
  // the console sees the browser's globals only, the server and tooling Node's only.
  {
    files: [
      'src/**',
      'stories/**',
      '.storybook/**',
      'tests/unit/**',
      'tests/msw/**',
      'public/**/*.js',
    ],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: [
      'server/**',
      'bench/**',
      'scripts/**',
      'tests/chromium.ts',
      '*.config.{ts,js,mjs}',
      '**/*.{mjs,cjs}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  // Playwright specs run in Node; the callbacks they give `page.evaluate` run in the page.
  {
    files: ['tests/e2e/**', 'playwright.config.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  // Data flows one way: domain <- api <- screens <- app, and components see only domain
  // (CONVENTIONS.md; the import zones bulletproof-react enforces).
  ...[
    {
      files: ['src/components/**'],
      from: ['api', 'screens', 'app'],
      message:
        'Pure views never fetch: src/components may not import src/api, src/screens or src/app.',
      extra: [
        {
          group: ['@tanstack/react-query', '@tanstack/react-query/**', '@tanstack/query-core'],
          message:
            'Pure views never fetch: data-fetching hooks (useQuery, useMutation, useQueryClient…) belong in src/api and src/screens.',
        },
      ],
    },
    {
      files: ['src/api/**'],
      from: ['components', 'screens', 'app'],
      message: 'src/api is the bottom layer and imports no UI.',
    },
    {
      files: ['src/screens/**'],
      from: ['app'],
      message: 'Screens are composed by src/app, never the other way round.',
    },
    {
      files: ['src/domain/**'],
      from: ['api', 'components', 'screens', 'app'],
      message: 'src/domain holds pure types and rules; it imports no other layer.',
    },
  ].map(({ files, from, message, extra = [] }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: from.flatMap((zone) => [`**/${zone}`, `**/${zone}/**`]), message },
            {
              group: ['**/server', '**/server/**'],
              message: 'The console never imports the reference server.',
            },
            ...extra,
          ],
        },
      ],
    },
  })),
  // Pure views never touch the network or storage themselves: data arrives as props, events go
  // out as callbacks (CONVENTIONS.md). Persisted flags and requests live in src/screens / src/api.
  {
    files: ['src/components/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'fetch',
          'localStorage',
          'sessionStorage',
          'EventSource',
          'XMLHttpRequest',
          'WebSocket',
        ].map((name) => ({
          name,
          message: `Pure views never fetch or persist: \`${name}\` belongs in src/api or src/screens.`,
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].flatMap((object) =>
          [
            'fetch',
            'localStorage',
            'sessionStorage',
            'EventSource',
            'XMLHttpRequest',
            'WebSocket',
          ].map((property) => ({
            object,
            property,
            message: `Pure views never fetch or persist: \`${object}.${property}\` belongs in src/api or src/screens.`,
          })),
        ),
      ],
    },
  },
  { files: ['src/**/*.tsx', 'stories/**/*.tsx'], ...jsxA11y.flatConfigs.strict },
  ...storybook.configs['flat/recommended'],
);
