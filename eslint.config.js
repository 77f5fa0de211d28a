import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The web app's layers (docs/ARCHITECTURE.md, "Web layers"): shared code (components/, lib/, ssr/,
 * test/: every folder of web/src but app/ and features/) -> features/ -> app/ with the entries
 * main.tsx and entry-server.tsx, never back. A feature uses another only through its index.ts.
 */
const webSrc = 'web/src';
const dirsOf = (dir) => readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const features = dirsOf(`${webSrc}/features`);
const sharedLayer = dirsOf(webSrc).filter((d) => d !== 'app' && d !== 'features').map((d) => `${webSrc}/${d}`);
const compositionRoots = [`${webSrc}/app`, `${webSrc}/main.tsx`, `${webSrc}/entry-server.tsx`];
const webLayerZones = [
  {
    target: sharedLayer,
    from: [`${webSrc}/features`, ...compositionRoots],
    message: 'Shared code (components/, lib/, ssr/, test/) sits below the features and app/: it imports neither (move what it needs down).',
  },
  {
    target: `${webSrc}/features`,
    from: compositionRoots,
    message: 'app/, main.tsx and entry-server.tsx compose the features; a feature never imports them (move what it needs into lib/ or components/).',
  },
  ...features.map((feature) => ({
    target: `${webSrc}/features/${feature}`,
    from: `${webSrc}/features`,
    except: [`./${feature}`, ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: "A feature uses another only through that feature's index.ts (export what is needed there).",
  })),
];

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
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: { 'import/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webLayerZones }] },
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
