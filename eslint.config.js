import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['vendor/**', '.spike/**', '.cache/**', '.output/**', '.wxt/**', 'node_modules/**', 'test-results/**', 'bench/results.json'] },
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
    // No product module over 400 lines: a longer one holds more than one concern (issue 58).
    files: ['utils/**/*.{ts,tsx}', 'entrypoints/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // The reading's state is the table's (`machine.ts`, run by `driver.ts`) and what the listener is shown is
    // one function's (`view.ts`): no other module of the reading writes a state or patches the view.
    files: ['utils/reading/**/*.ts'],
    ignores: ['**/*.test.ts', 'utils/reading/machine.ts', 'utils/reading/driver.ts', 'utils/reading/view.ts', 'utils/reading/state.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='state'][value.type='Literal']", message: 'A reading’s state is decided by its table (machine.ts) and written by its driver (driver.ts) alone.' },
        { selector: "TSTypeReference[typeName.name='Partial'] > TSTypeParameterInstantiation > TSTypeReference[typeName.name='ReadingView']", message: 'The view is not patched: say what happened with a ViewChange (view.ts).' },
        { selector: "AssignmentExpression[left.property.name='view'][right.callee.name!='viewAfter']", message: 'The view changes only through viewAfter (view.ts).' },
      ],
    },
  },
  {
    // A reading's text comes through one source layer (`page-text/sources.ts`): no start reaches past it.
    files: ['utils/**/*.ts', 'entrypoints/**/*.{ts,tsx}'],
    ignores: ['utils/page-text/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '../page-text/tab-text', importNames: ['extractFromTab'], message: 'Name the text source: readingOf/textOf (page-text/sources.ts).' },
            { name: '../page-text/article-fetch', message: 'Name the text source: readingOf/textOf (page-text/sources.ts).' },
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**', 'scripts/**', 'bench/**'],
    // Playwright fixtures that use no other fixture are written `async ({}, use)`.
    rules: { 'no-console': 'off', 'no-empty-pattern': 'off' },
  },
);
