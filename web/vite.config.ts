import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { EARLY_CLICK_SCRIPT, FIRST_PAINT_SCRIPT } from '../contracts/src/theme';
import { paintBeforeAppStart } from './src/lib/app-start-html';
import { onBuildWarning } from './src/lib/build-warnings';
import { purgeBootstrap, purgeContent } from './src/lib/css-purge';
import { DEFAULT_KEEP_BUILDS, DEFAULT_KEEP_DAYS, envCount, planAssetRetention, type AssetBuild } from './src/lib/asset-retention';

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

/**
 * Deploys keep old tabs working: a tab opened before a deploy (or a page an instance still running
 * the previous build renders) asks for the chunks of the build it started with, so the hashed
 * assets of the last WEB_ASSET_KEEP_BUILDS builds (not older than WEB_ASSET_KEEP_DAYS) are written
 * beside the new ones (src/lib/asset-retention.ts decides). They are read from the build in use,
 * WEB_PREVIOUS_BUILD (set by scripts/build-web.mjs, which builds into a new directory and then
 * switches web/dist to it), or from the output directory itself before it is emptied (a plain
 * `vite build`, as the browser tests' build). The history is `.vite/asset-builds.json`.
 */
function keepPreviousAssets(): Plugin {
  let outDir = '';
  let saved = new Map<string, Buffer>();
  let history: AssetBuild[] = [];
  const previousDir = () => (process.env.WEB_PREVIOUS_BUILD ? path.resolve(process.env.WEB_PREVIOUS_BUILD) : outDir);
  const historyFile = (dir: string) => path.join(dir, '.vite', 'asset-builds.json');
  return {
    name: 'shop:keep-previous-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildStart() {
      saved = new Map();
      const from = previousDir();
      const assets = path.join(from, 'assets');
      if (existsSync(assets)) {
        for (const name of readdirSync(assets)) saved.set(`assets/${name}`, readFileSync(path.join(assets, name)));
      }
      try {
        history = JSON.parse(readFileSync(historyFile(from), 'utf8')) as AssetBuild[];
      } catch {
        history = [];
      }
    },
    writeBundle(_options, bundle) {
      const now = Date.now();
      const current: AssetBuild = { id: new Date(now).toISOString(), builtAt: now, files: Object.keys(bundle).filter((f) => f.startsWith('assets/')).sort() };
      const plan = planAssetRetention({
        history, current, existing: [...saved.keys()], now,
        keepBuilds: envCount(process.env.WEB_ASSET_KEEP_BUILDS, DEFAULT_KEEP_BUILDS),
        keepDays: envCount(process.env.WEB_ASSET_KEEP_DAYS, DEFAULT_KEEP_DAYS),
      });
      for (const file of plan.restore) writeFileSync(path.join(outDir, file), saved.get(file)!);
      mkdirSync(path.dirname(historyFile(outDir)), { recursive: true });
      writeFileSync(historyFile(outDir), `${JSON.stringify(plan.history, null, 1)}\n`);
      saved = new Map();
    },
  };
}

/**
 * web/dist and web/dist-ssr are links to the build the shop serves (scripts/build-web.mjs): a build
 * into one of them would empty the served build in place, and the running instances would answer
 * 404 for its files until it ended. Refused with the command to use.
 */
function notIntoTheServedBuild(): Plugin {
  return {
    name: 'shop:not-into-the-served-build',
    apply: 'build',
    configResolved(config) {
      const outDir = path.resolve(config.root, config.build.outDir);
      if (existsSync(outDir) && lstatSync(outDir).isSymbolicLink()) {
        throw new Error(`${outDir} is a link to the build being served: build with \`npm run build -w web\` (scripts/build-web.mjs), which builds beside it and switches the link`);
      }
    },
  };
}

/**
 * index.html's first-paint scripts (contracts/src/theme.ts), first in the head: the theme is right on
 * the first paint, and a click on the server's page before the app starts is kept and replayed.
 */
function themeScript(): Plugin {
  return {
    name: 'shop:theme-script',
    transformIndexHtml: () => [
      { tag: 'script', children: FIRST_PAINT_SCRIPT, injectTo: 'head-prepend' },
      { tag: 'script', children: EARLY_CLICK_SCRIPT, injectTo: 'head' },
    ],
  };
}

/** index.html starts the app after the first paint (src/lib/app-start-html.ts); production builds only. */
function paintFirst(): Plugin {
  return {
    name: 'shop:paint-before-app-start',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: paintBeforeAppStart },
  };
}

const apiTarget = process.env.VITE_API_TARGET ?? 'http://localhost:3000';

const outDir = process.env.WEB_OUT_DIR ?? 'dist';

/** The app's source files (tests excluded): their words decide which Bootstrap rules the build keeps. */
function appSourceFiles(): string[] {
  const src = path.resolve(import.meta.dirname, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(?:ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith(`test${path.sep}`))
    .map((file) => path.join(src, file));
}

export default defineConfig(({ command, isSsrBuild }) => ({
  // The production build drops the Bootstrap rules no page uses (src/lib/css-purge.ts); the dev server keeps them all.
  ...(command === 'build' && !isSsrBuild && process.env.WEB_PURGE_CSS !== '0'
    ? { css: { postcss: { plugins: [purgeBootstrap(() => purgeContent(appSourceFiles()))] } } }
    : {}),
  plugins: [notIntoTheServedBuild(), react(), reactRouterTreeShaking(), themeScript(), ...(isSsrBuild ? [] : [paintFirst(), keepPreviousAssets()])],
  // The server-rendering build (`vite build --ssr src/entry-server.tsx`) goes beside the web build,
  // as `<outDir>-ssr` (web/dist-ssr), never inside it: the server serves the web build's files.
  build: isSsrBuild ? {
    outDir: `${outDir}-ssr`,
    emptyOutDir: true,
    sourcemap: false,
    copyPublicDir: false,
    rollupOptions: { onwarn: onBuildWarning },
  } : {
    outDir,
    rollupOptions: { onwarn: onBuildWarning },
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Terser rather than esbuild's minifier: its second compress pass and closer mangling make the
    // initial script about 2 KB (gzipped) smaller, which brings it under the 100 KB budget
    // (bench/lighthouse/run.ts), for some seconds more of build time.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    // Every browser the build targets supports <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    // dist/.vite/manifest.json: the server reads it to add <link rel="modulepreload"> for the chunk of
    // the page it serves (seo/route-preload.ts), so the page's code loads with the entry, not after it.
    manifest: true,
  },
  // The server bundle takes its packages in (react-bootstrap's per-component imports such as
  // react-bootstrap/Alert are folders, which Node's ES module loader cannot import): it runs on its own.
  ssr: { noExternal: true },
  // Vite leaves `process.env.NODE_ENV` to the runtime in a server build, so the bundled React would
  // run its development build (owner stacks, console.createTask, extra checks: ~5x the CPU per page)
  // wherever NODE_ENV is unset, as under `npm start`. The build is a production build: say so.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
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
    testTimeout: 40_000,
    // In CI a failed test is run once more (as the browser tests are): a timing miss on an overloaded
    // machine passes the second time, a real defect fails twice. Vitest reports the retried test.
    retry: process.env.CI ? 1 : 0,
  },
}));
