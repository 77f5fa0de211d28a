import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScrollRestoration } from './ScrollRestoration';

function Nav() {
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => navigate('/product/mug')}>open</button>
      <button type="button" onClick={() => navigate(-1)}>back</button>
      <button type="button" onClick={() => navigate('/product/mug#reviews')}>reviews</button>
    </>
  );
}

const scrollTo = vi.fn();

beforeEach(() => {
  scrollTo.mockReset();
  vi.stubGlobal('scrollTo', scrollTo);
});
afterEach(() => {
  vi.unstubAllGlobals();
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
});

const scrollPageTo = (y: number) =>
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });

describe('ScrollRestoration', () => {
  it('opens a new page at the top and returns to the position of the entry on back', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/search']}>
        <ScrollRestoration />
        <Nav />
      </MemoryRouter>,
    );
    scrollPageTo(900);
    scrollTo.mockClear();
    await user.click(screen.getByRole('button', { name: 'open' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollPageTo(0);
    await user.click(screen.getByRole('button', { name: 'back' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 900);
  });

  it('scrolls to the element of a #hash on a new page', async () => {
    const user = userEvent.setup();
    const scrollIntoView = vi.fn();
    const target = document.createElement('div');
    target.id = 'reviews';
    target.scrollIntoView = scrollIntoView;
    document.body.append(target);
    render(
      <MemoryRouter initialEntries={['/search']}>
        <ScrollRestoration />
        <Nav />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'reviews' }));
    expect(scrollIntoView).toHaveBeenCalled();
    target.remove();
  });

  describe('the first render, by how the browser loaded the document', () => {
    /** A fresh module (its positions read from sessionStorage again), the document loaded as `type`. */
    async function loadAs(type: string | null, positions: Record<string, number>) {
      sessionStorage.setItem('shop-scroll-positions', JSON.stringify(positions));
      vi.spyOn(performance, 'getEntriesByType').mockReturnValue(type ? ([{ type }] as unknown as PerformanceEntryList) : []);
      vi.resetModules();
      return (await import('./ScrollRestoration')).ScrollRestoration;
    }
    afterEach(() => {
      vi.restoreAllMocks();
      sessionStorage.clear();
    });

    it('a page loaded in full from a link or an address starts at the top: no position of another page of the tab is applied (issue 36)', async () => {
      // The search page, loaded in full before, was left at y=778; then a product page is loaded in full.
      const Fresh = await loadAs('navigate', { 'default:/search': 778, default: 778 });
      render(<MemoryRouter initialEntries={['/product/mug']}><Fresh /></MemoryRouter>);
      expect(scrollTo).not.toHaveBeenCalled();
    });

    it('the same address loaded anew by a link starts at the top too, and forgets where it was', async () => {
      const Fresh = await loadAs('navigate', { 'default:/product/mug': 500 });
      render(<MemoryRouter initialEntries={['/product/mug']}><Fresh /></MemoryRouter>);
      expect(scrollTo).not.toHaveBeenCalled();
      window.dispatchEvent(new Event('pagehide'));
      expect(JSON.parse(sessionStorage.getItem('shop-scroll-positions')!)).toEqual({});
    });

    it('back or forward to a page loaded in full returns to where it was left', async () => {
      const Fresh = await loadAs('back_forward', { 'default:/search': 778, 'default:/product/mug': 120 });
      render(<MemoryRouter initialEntries={['/search']}><Fresh /></MemoryRouter>);
      expect(scrollTo).toHaveBeenCalledWith(0, 778);
    });

    it('a reload keeps the place, as browsers do', async () => {
      const Fresh = await loadAs('reload', { 'default:/search': 640 });
      render(<MemoryRouter initialEntries={['/search']}><Fresh /></MemoryRouter>);
      expect(scrollTo).toHaveBeenCalledWith(0, 640);
    });

    it('a browser that cannot say how it loaded the page: the top', async () => {
      const Fresh = await loadAs(null, { 'default:/search': 640 });
      render(<MemoryRouter initialEntries={['/search']}><Fresh /></MemoryRouter>);
      expect(scrollTo).not.toHaveBeenCalled();
    });
  });
});
