import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, CHUNK_RELOAD_WINDOW_MS, lazyPage, reloadOnceForChunk } from './lazy-page';
import { PageErrorBoundary } from './PageErrorBoundary';

const reload = vi.fn();
beforeEach(() => {
  sessionStorage.clear();
  reload.mockReset();
  vi.stubGlobal('location', { ...window.location, reload });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('reloadOnceForChunk', () => {
  it('reloads once, then not again within the window, then again after it', () => {
    expect(reloadOnceForChunk(1_000_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1000000');
    expect(reloadOnceForChunk(1_000_000 + CHUNK_RELOAD_WINDOW_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunk(1_000_000 + CHUNK_RELOAD_WINDOW_MS + 1)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('a lazy page whose chunk fails after the reload', () => {
  it('shows the friendly message with Retry (not the bare error), and Retry imports again', async () => {
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now())); // the one reload happened already
    let attempts = 0;
    const Page = lazyPage(async () => {
      attempts += 1;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module: /assets/Page-abc.js');
      return { default: () => <p>The page</p> };
    });
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <PageErrorBoundary>
          <Suspense fallback={<p>Loading</p>}>
            <Page />
          </Suspense>
        </PageErrorBoundary>
      </MemoryRouter>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be loaded');
    expect(alert).not.toHaveTextContent('Unexpected Application Error');
    expect(reload).not.toHaveBeenCalled();
    expect(attempts).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('a first failure reloads the page instead of showing anything', async () => {
    const Page = lazyPage<object>(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    render(
      <MemoryRouter>
        <PageErrorBoundary>
          <Suspense fallback={<p>Loading</p>}>
            <Page />
          </Suspense>
        </PageErrorBoundary>
      </MemoryRouter>,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
