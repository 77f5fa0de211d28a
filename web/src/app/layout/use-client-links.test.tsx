import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PlainLink } from '../../components/PlainLink';
import { useClientLinks } from './use-client-links';

function Where() {
  const location = useLocation();
  return <output aria-label="where">{location.pathname + location.search + location.hash}</output>;
}

function Shell() {
  useClientLinks();
  return (
    <>
      <Where />
      <PlainLink to="/product/blue-mug">Blue Mug</PlainLink>
      <PlainLink to="/search?query=mug#top">Mugs</PlainLink>
      <PlainLink to="/product/red-mug" target="_blank">New tab</PlainLink>
      <PlainLink to="https://elsewhere.example/product/x">Elsewhere</PlainLink>
      <PlainLink to="/product/file" download>Download</PlainLink>
    </>
  );
}

/** Clicks and says whether the app took the click (prevented the browser's own navigation). */
function appTakes(element: Element, init?: MouseEventInit): boolean {
  let taken = false;
  // After the app's document listener (bubbling reaches window last): note what it did, then stop
  // jsdom's own navigation, which it does not implement.
  const after = (e: Event) => { taken = e.defaultPrevented; e.preventDefault(); };
  window.addEventListener('click', after);
  fireEvent.click(element, init);
  window.removeEventListener('click', after);
  return taken;
}

function renderShell() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="*" element={<Shell />} />
      </Routes>
    </MemoryRouter>,
  );
  return () => screen.getByRole('status', { name: 'where' }).textContent;
}

describe('PlainLink and useClientLinks', () => {
  it('renders an ordinary link (it works without JavaScript)', () => {
    renderShell();
    expect(screen.getByRole('link', { name: 'Blue Mug' })).toHaveAttribute('href', '/product/blue-mug');
  });

  it('follows a plain click inside the app, with the query and hash', () => {
    const where = renderShell();
    expect(appTakes(screen.getByRole('link', { name: 'Blue Mug' }))).toBe(true); // no full page load
    expect(where()).toBe('/product/blue-mug');
    fireEvent.click(screen.getByRole('link', { name: 'Mugs' }));
    expect(where()).toBe('/search?query=mug#top');
  });

  it('follows a click on an element inside the link', () => {
    const where = renderShell();
    const link = screen.getByRole('link', { name: 'Blue Mug' });
    const inner = document.createElement('span');
    link.appendChild(inner);
    fireEvent.click(inner);
    expect(where()).toBe('/product/blue-mug');
  });

  it('leaves modifier clicks, other buttons, targets, downloads and other origins to the browser', () => {
    const where = renderShell();
    const link = screen.getByRole('link', { name: 'Blue Mug' });
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      expect(appTakes(link, init)).toBe(false);
    }
    expect(appTakes(screen.getByRole('link', { name: 'New tab' }))).toBe(false);
    expect(appTakes(screen.getByRole('link', { name: 'Download' }))).toBe(false);
    expect(appTakes(screen.getByRole('link', { name: 'Elsewhere' }))).toBe(false);
    expect(where()).toBe('/');
  });

  it('leaves a click another handler already took', () => {
    const where = renderShell();
    const link = screen.getByRole('link', { name: 'Blue Mug' });
    link.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(link);
    expect(where()).toBe('/');
  });
});
