// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import storybook from 'eslint-plugin-storybook';
import { importX } from 'eslint-plugin-import-x';
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
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Data flows one way: api -> screens -> components (CONVENTIONS.md, bulletproof-react zones).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/components',
              from: ['./src/api', './src/screens', './src/app'],
              message: 'Pure views never fetch: src/components may not import src/api, src/screens or src/app.',
            },
            {
              target: './src/api',
              from: ['./src/components', './src/screens', './src/app'],
              message: 'src/api is the bottom layer and imports no UI.',
            },
            {
              target: './src/screens',
              from: ['./src/app'],
              message: 'Screens are composed by src/app, never the other way round.',
            },
            {
              target: './src/domain',
              from: ['./src/api', './src/components', './src/screens', './src/app'],
              message: 'src/domain holds pure types and rules; it imports no other layer.',
            },
            {
              target: './src',
              from: ['./server'],
              message: 'The console never imports the reference server.',
            },
          ],
        },
      ],
    },
  },
  { files: ['src/**/*.tsx', 'stories/**/*.tsx'], ...jsxA11y.flatConfigs.strict },
  ...storybook.configs['flat/recommended'],
);
