import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * react-router's build creates its components with top-level `React.forwardRef(...)` /
 * `React.memo(...)` calls and then sets their `displayName`: the bundler must assume both have side
 * effects, so Link, NavLink and Form (with their prefetching, view-transition and form-submission code)
 * stay in the initial chunk whether the app uses them or not. For the production build only, this
 * marks those calls pure and drops the displayName assignments (a devtools label), so unused ones are
 * tree-shaken; what the app uses is unchanged.
 */
function reactRouterTreeShaking(): Plugin {
  return {
    name: 'shop:react-router-tree-shaking',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/.test(id)) return null;
      return {
        code: code
          .replace(/= (React\d*)\.(forwardRef|memo)\(/g, '= /* @__PURE__ */ $1.$2(')
          .replace(/^\w+\.displayName = "[^"]*";$/gm, ''),
        map: null,
      };
    },
  };
}

const apiTarget = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), reactRouterTreeShaking()],
  build: {
    outDir: process.env.WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Every browser the build targets supports <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    // dist/.vite/manifest.json: the server reads it to add <link rel="modulepreload"> for the chunk of
    // the page it serves (seo/route-preload.ts), so the page's code loads with the entry, not after it.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/uploads': apiTarget, '/ws': { target: apiTarget, ws: true } },
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Generous per-test limit: on a busy 2-core machine jsdom renders can take seconds.
    testTimeout: 20_000,
  },
});
