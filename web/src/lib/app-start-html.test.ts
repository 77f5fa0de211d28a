import { APP_START_SCRIPT } from '@shop/contracts/theme';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paintBeforeAppStart } from './app-start-html';

const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <script>theme()</script>
    <script type="module" crossorigin src="/assets/index-AbC1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-X.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('paintBeforeAppStart (the production index.html)', () => {
  it('turns the entry script into a low-priority modulepreload followed by the start script', () => {
    const html = paintBeforeAppStart(BUILT);
    expect(html).not.toContain('type="module"');
    expect(html).toContain(`<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-AbC1.js" data-app-entry>\n    <script>${APP_START_SCRIPT}</script>`);
    // The stylesheet and the theme script are left where they were.
    expect(html.indexOf('theme()')).toBeLessThan(html.indexOf('data-app-entry'));
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-X.css">');
  });

  it('fails the build unless there is exactly one entry script', () => {
    expect(() => paintBeforeAppStart('<html><head></head></html>')).toThrow(/found 0/);
    const twice = BUILT.replace('</head>', '<script type="module" crossorigin src="/assets/other.js"></script></head>');
    expect(() => paintBeforeAppStart(twice)).toThrow(/found 2/);
  });
});

/**
 * The start script as the page runs it, with its `import(...)` replaced by a recorder (jsdom cannot
 * import a module by URL); everything else is the script's own text.
 */
const started: string[] = [];
function runStartScript() {
  const text = APP_START_SCRIPT.replace('import(l.href)', 'window.__startedApp(l.href)');
  expect(text).not.toBe(APP_START_SCRIPT);
  new Function(text)();
}

/** A PerformanceObserver whose paint entries the test delivers. */
class FakePaintObserver {
  static supportedEntryTypes = ['paint'];
  static instances: FakePaintObserver[] = [];
  disconnected = false;
  constructor(private readonly callback: (list: { getEntriesByName(name: string): unknown[] }, observer: FakePaintObserver) => void) {
    FakePaintObserver.instances.push(this);
  }
  observe() {}
  disconnect() { this.disconnected = true; }
  deliver(names: string[]) {
    this.callback({ getEntriesByName: (name) => names.filter((n) => n === name) }, this);
  }
}

describe('APP_START_SCRIPT (imports the entry after the first contentful paint)', () => {
  let visibility: DocumentVisibilityState;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    started.length = 0;
    FakePaintObserver.instances = [];
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    (window as unknown as { __startedApp: (href: string) => void }).__startedApp = (href) => { started.push(href); };
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
    document.head.innerHTML = '<link rel="modulepreload" href="/assets/index-AbC1.js" data-app-entry>';
    document.body.innerHTML = '<div id="root"><header>Shop</header></div>';
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.head.innerHTML = '';
    document.body.innerHTML = '';
  });

  it('waits for the first contentful paint, then starts once, on the next task', () => {
    runStartScript();
    expect(started).toEqual([]);
    const observer = FakePaintObserver.instances[0]!;
    observer.deliver(['first-paint']);
    vi.advanceTimersByTime(10);
    expect(started).toEqual([]);
    observer.deliver(['first-contentful-paint']);
    expect(observer.disconnected).toBe(true);
    expect(started).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(started).toEqual([`${location.origin}/assets/index-AbC1.js`]);
    expect(performance.getEntriesByName('app-start').length).toBeGreaterThan(0);
    // The one-second fallback does not start it again.
    vi.advanceTimersByTime(2_000);
    expect(started).toHaveLength(1);
  });

  it('starts after a second when no paint is reported', () => {
    runStartScript();
    vi.advanceTimersByTime(999);
    expect(started).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(started).toHaveLength(1);
  });

  it('starts at once without server-rendered content, in a hidden tab, or without paint timing', () => {
    document.body.innerHTML = '<div id="root"></div>';
    runStartScript();
    expect(started).toHaveLength(1);

    document.body.innerHTML = '<div id="root"><main>page</main></div>';
    visibility = 'hidden';
    runStartScript();
    expect(started).toHaveLength(2);

    visibility = 'visible';
    FakePaintObserver.supportedEntryTypes = [];
    try {
      runStartScript();
      expect(started).toHaveLength(3);
    } finally {
      FakePaintObserver.supportedEntryTypes = ['paint'];
    }
    expect(FakePaintObserver.instances).toEqual([]);
  });

  it('waits for the document to be parsed', () => {
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    document.body.innerHTML = '<div id="root"></div>';
    runStartScript();
    expect(started).toEqual([]);
    state.mockReturnValue('interactive');
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(started).toHaveLength(1);
  });

  it('does nothing on a page without the entry link (the dev server)', () => {
    document.head.innerHTML = '';
    runStartScript();
    vi.advanceTimersByTime(2_000);
    expect(started).toEqual([]);
  });
});
