import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**', '**/dist/**', '**/dist-ssr/**', 'web/dist-*/**', 'data/**', '**/data/**', 'e2e/.tmp/**', 'e2e/test-results/**',
      'e2e/playwright-report/**', 'bench/.tmp/**', '**/coverage/**', 'server/.dist-build/**', 'server/dist.old/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/set-state-in-effect': 'off' },
  },
  {
    // Toasts go through web/src/lib/toast.ts, which loads react-toastify with the first toast: a page
    // that imported it itself would carry the library in its first load and could send a toast before
    // any container is mounted.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/lib/toast.ts', 'web/src/app/layout/Toasts.tsx', 'web/src/app/layout/use-single-toast.ts', 'web/src/**/*.test.{ts,tsx}', 'web/src/test/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'react-toastify', message: "Send toasts with lib/toast's toast (it loads react-toastify with the first toast)." }] }],
    },
  },
);
