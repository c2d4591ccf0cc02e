// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import storybook from 'eslint-plugin-storybook';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'storybook-static',
      'coverage',
      'public/mockServiceWorker.js',
      'test-results',
      'playwright-report',
      '.data',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { ...globals.node } } },
  { files: ['public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // Data flows one way: domain <- api <- screens <- app, and components see only domain
  // (CONVENTIONS.md; the import zones bulletproof-react enforces).
  ...[
    {
      files: ['src/components/**'],
      from: ['api', 'screens', 'app'],
      message: 'Pure views never fetch: src/components may not import src/api, src/screens or src/app.',
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
  ].map(({ files, from, message }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: from.flatMap((zone) => [`**/${zone}`, `**/${zone}/**`]), message },
            { group: ['**/server', '**/server/**'], message: 'The console never imports the reference server.' },
          ],
        },
      ],
    },
  })),
  { files: ['src/**/*.tsx', 'stories/**/*.tsx'], ...jsxA11y.flatConfigs.strict },
  ...storybook.configs['flat/recommended'],
);
