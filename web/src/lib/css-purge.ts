import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import purgeCss from '@fullhuman/postcss-purgecss';
import type { Plugin, Root } from 'postcss';

/**
 * Build-time removal of the Bootstrap rules the app never uses (issue #22: render-blocking CSS cut to
 * what the pages need). Bootstrap's stylesheet is render-blocking on every page and ~237 KB (32 KB
 * gzipped); most of it styles components this app does not have.
 *
 * A rule is kept when a class, id or element it names appears as a word in what builds the pages:
 * the app's sources, index.html, the theme script, and the code of the react-bootstrap components the
 * app imports (with the modules they import), since those compose their class names at run time.
 * Class names react-bootstrap composes from props (`btn-${variant}`, `offcanvas-${placement}`,
 * `modal-${size}`) are found by reading every word with those prefixes (extractWords); the ones its
 * transitions set (`fade`, `show`, `showing`, `hiding`, `collapsing`), validation states and grid
 * columns are kept by the safelist, and so are the dark theme (`[data-bs-theme=dark]`), Popper's
 * placement of dropdowns and every element selector (pages written in Markdown in the back office can
 * hold any element). Only Bootstrap's file is purged: the app's own stylesheet and the lazy chunks'
 * (react-toastify) are left whole.
 */

const WEB_DIR = path.resolve(import.meta.dirname, '../..');
const ROOT_DIR = path.resolve(WEB_DIR, '..');
const REACT_BOOTSTRAP_ESM = path.join(ROOT_DIR, 'node_modules/react-bootstrap/esm');

/**
 * How react-bootstrap makes a class from a prop's value: `<Button variant="outline-danger" size="sm">`
 * is `btn-outline-danger btn-sm`, `<Offcanvas placement="start">` is `offcanvas-start`, `<Badge
 * bg="secondary">` is `bg-secondary`. A word of the content that is such a value is also read with
 * each prefix that takes it, so a variant, size or placement written anywhere in the app keeps its class.
 */
const PROP_CLASSES: { values: RegExp; prefixes: string[] }[] = [
  {
    values: /^(?:outline-)?(?:primary|secondary|success|danger|warning|info|light|dark)$/,
    prefixes: ['btn', 'alert', 'bg', 'text', 'text-bg', 'border', 'link', 'badge', 'list-group-item', 'table', 'spinner-border', 'spinner-grow'],
  },
  { values: /^(?:sm|lg|xl)$/, prefixes: ['btn', 'modal', 'form-control', 'form-select', 'input-group', 'pagination', 'spinner-border', 'spinner-grow'] },
  { values: /^(?:start|end|top|bottom)$/, prefixes: ['offcanvas', 'dropdown-menu'] },
  { values: /^(?:flush|horizontal|numbered)$/, prefixes: ['list-group'] },
  { values: /^(?:tabs|pills|underline)$/, prefixes: ['nav'] },
  { values: /^(?:border|grow)$/, prefixes: ['spinner'] },
];

/** Class names set by react-bootstrap's transitions and components' states, and grid columns sized from props (`<Col md={8}>`). */
const SAFELIST_PATTERNS: RegExp[] = [
  /^(?:fade|show|showing|hiding|collapse|collapsing|collapse-horizontal|active|disabled)$/,
  /^(?:is-valid|is-invalid|was-validated|valid-feedback|invalid-feedback|valid-tooltip|invalid-tooltip)$/,
  /^col-(?:(?:sm|md|lg|xl|xxl)-)?(?:[1-9]|1[0-2]|auto)$/,
];

/** Rules whose selector mentions these are kept whole: the dark theme, Popper's placement of dropdowns. */
const SAFELIST_GREEDY: RegExp[] = [/data-bs-theme/, /data-bs-popper/];

/** The words of a file, each value of a prop that makes a class also with that class's prefixes. */
export function extractWords(content: string): string[] {
  const words = new Set(content.match(/[A-Za-z0-9_-]+/g) ?? []);
  for (const word of [...words]) {
    for (const { values, prefixes } of PROP_CLASSES) {
      if (values.test(word)) for (const prefix of prefixes) words.add(`${prefix}-${word}`);
    }
  }
  return [...words];
}

/** Every element selector Bootstrap's reboot and typography style (Markdown pages may use any). */
const ELEMENTS = [
  'html', 'body', 'a', 'abbr', 'address', 'article', 'aside', 'b', 'blockquote', 'button', 'caption', 'code', 'dd', 'details', 'dl', 'dt',
  'em', 'fieldset', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'iframe', 'img', 'input', 'kbd',
  'label', 'legend', 'li', 'main', 'mark', 'nav', 'ol', 'optgroup', 'output', 'p', 'pre', 'progress', 'samp', 'section', 'select', 'small',
  'strong', 'sub', 'summary', 'sup', 'svg', 'table', 'tbody', 'td', 'textarea', 'tfoot', 'th', 'thead', 'tr', 'ul', 'var', 'del', 'ins', 's', 'u',
];

/** The react-bootstrap modules the app imports (`react-bootstrap/Button`) and every module they import, as files. */
export function reactBootstrapModules(sources: string[]): string[] {
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const source of sources) {
    for (const m of source.matchAll(/from ['"]react-bootstrap\/(\w+)['"]/g)) queue.push(path.join(REACT_BOOTSTRAP_ESM, `${m[1]}.js`));
  }
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(?:from|import) ['"](\.\/[\w.-]+)['"]/g)) {
      const next = path.join(REACT_BOOTSTRAP_ESM, m[1]!.endsWith('.js') ? m[1]! : `${m[1]}.js`);
      queue.push(next);
    }
  }
  return [...seen].sort();
}

/**
 * The class names react-bootstrap's modules compose from their prefix and a fixed suffix
 * (`${bsPrefix}-dialog` in ModalDialog is `modal-dialog`, `${bsPrefix}-backdrop` in Offcanvas is
 * `offcanvas-backdrop`): each module's default prefix(es) with each fixed suffix it writes.
 */
export function composedClassNames(files: string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const prefixes = [...code.matchAll(/useBootstrapPrefix\(\w+, '([a-z-]+)'\)/g)].map((m) => m[1]!);
    // Names kept in a variable and composed further: `const dialogClass = `${bsPrefix}-dialog`` then `${dialogClass}-centered`.
    const named = new Map([...code.matchAll(/const (\w+) = `\$\{\w+\}-([a-z][a-z-]*)`/g)].map((m) => [m[1]!, m[2]!]));
    const suffixes = [...code.matchAll(/`\$\{(\w+)\}-([a-z][a-z-]*)(?:`|\$)/g)].map((m) => {
      const suffix = m[2]!.replace(/-$/, '');
      const base = named.get(m[1]!);
      return base ? `${base}-${suffix}` : suffix;
    });
    for (const prefix of prefixes) for (const suffix of suffixes) names.add(`${prefix}-${suffix}`);
  }
  return [...names].sort();
}

/** What decides which Bootstrap rules stay: files, and the class names react-bootstrap composes. */
export function purgeContent(appFiles: string[]): Array<string | { raw: string; extension: string }> {
  const sources = appFiles.map((file) => readFileSync(file, 'utf8'));
  const modules = reactBootstrapModules(sources);
  return [
    ...appFiles,
    path.join(WEB_DIR, 'index.html'),
    path.join(ROOT_DIR, 'contracts/src/theme.ts'),
    ...modules,
    { raw: composedClassNames(modules).join(' '), extension: 'txt' },
  ];
}

/** The PostCSS plugin: purges Bootstrap's stylesheet (and only it) against the files `content` lists. */
export function purgeBootstrap(content: () => ReturnType<typeof purgeContent>): Plugin {
  let purge: Plugin | null = null;
  return {
    postcssPlugin: 'shop-purge-bootstrap',
    async OnceExit(root: Root, helpers) {
      const file = root.source?.input.file ?? '';
      if (!/[\\/]node_modules[\\/]bootstrap[\\/]dist[\\/]css[\\/]/.test(file)) return;
      purge ??= purgeCss({
        content: content(),
        defaultExtractor: extractWords,
        safelist: { standard: [...ELEMENTS, ...SAFELIST_PATTERNS], greedy: SAFELIST_GREEDY },
        // Custom properties, keyframes and font faces are cheap and referenced indirectly: all kept.
        variables: false,
        keyframes: false,
        fontFace: false,
        rejected: Boolean(process.env.PURGE_CSS_REPORT),
      }) as Plugin;
      await purge.OnceExit!(root, helpers);
      if (process.env.PURGE_CSS_REPORT) {
        for (const message of helpers.result.messages) if (message.type === 'purgecss') writeFileSync(process.env.PURGE_CSS_REPORT, String(message.text));
      }
    },
  };
}
