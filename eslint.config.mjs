// A small lint: what the compiler does not catch, and the size limits the project keeps
// (a file under 300 lines, a function under 60, parsers excepted). Formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/*/src/**/__fixtures__/**/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mjs,js}'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Names, paths and JSON are checked for control characters on purpose.
      'no-control-regex': 'off',
      // A closure that outlives the method (a generator, a nested visitor) names the instance.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self', 'base'] }],
    },
  },
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx'],
    // Tests and the store contract (a test suite other stores run) are exempt, and so are parsers
    // and scanners, whose long functions follow the grammar they read.
    ignores: [
      '**/*.test.ts',
      '**/*.contract.ts',
      '**/__fixtures__/**',
      'packages/tools/src/shell/classify/**',
      'packages/tools/src/search/js/**',
    ],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
);
