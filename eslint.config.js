// ESLint: the checks that catch real bugs in this code base. A promise nobody awaits (its
// rejection crashes the process or vanishes, and the work races what follows), a promise passed
// where a plain callback is expected (Express, event emitters), awaiting a non-promise, and
// unused code. Type-aware rules read the TypeScript program through the project service, which
// finds each file's nearest tsconfig (root, web/, web/dashboard/).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/',
      'clients/trpc/build/',
      'clients/rest/src/generated/',
      'clients/rest/openapi.json',
      '**/.check-*/',
      'coverage/',
      '.data/',
      'tests/artifacts/',
      'bench/results/',
      'tests/fixtures/lint/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        // The .mjs scripts belong to no tsconfig: a default project types them.
        projectService: { allowDefaultProject: ['*.mjs', 'eslint.config.js', 'web/dashboard/*.mjs', 'tests/fixtures/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        // `_next` keeps Express's four-argument error-handler signature; `{ omitted, ...rest }` drops a key.
        { args: 'all', argsIgnorePattern: '^_', caughtErrors: 'all', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `declare global { namespace Express { … } }` is how Express and graphile-worker types are extended.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // `any` is confined to tests and browser evaluation glue; the unsafe-* family is not on.
      '@typescript-eslint/no-explicit-any': 'off',
      // Sanitizers match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
