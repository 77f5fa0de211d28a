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
});
