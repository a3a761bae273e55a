import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.spike/**', '.cache/**', '.output/**', '.wxt/**', 'node_modules/**', 'test-results/**', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['tests/**', 'scripts/**', 'bench/**'],
    // Playwright fixtures that use no other fixture are written `async ({}, use)`.
    rules: { 'no-console': 'off', 'no-empty-pattern': 'off' },
  },
);
