import { EARLY_CLICK_SCRIPT } from '@shop/contracts/theme';
import { afterEach, describe, expect, it } from 'vitest';
import { earlyKey, replayEarlyClicks } from './early-clicks';

/** Runs index.html's head script as the browser does, before the app. */
const runHeadScript = () => new Function(EARLY_CLICK_SCRIPT)();

function button(key: string, onClick: () => void): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.setAttribute('data-early', key);
  el.textContent = key;
  el.addEventListener('click', onClick);
  document.body.append(el);
  return el;
}

afterEach(() => {
  replayEarlyClicks();
  delete window.__shopEarlyClicks;
  document.body.innerHTML = '';
});

describe('clicks before the app starts (EARLY_CLICK_SCRIPT + replayEarlyClicks)', () => {
  it('holds the submission of an app form (no action) until the app is live, then submits it once; a real form (with an action) goes as it is', () => {
    runHeadScript();
    const form = document.createElement('form');
    const password = document.createElement('input');
    password.type = 'password';
    password.name = 'password';
    password.value = 'secret-typed-early';
    const submit = document.createElement('button');
    submit.type = 'submit';
    form.append(password, submit);
    document.body.append(form);
    const seen: boolean[] = [];
    // The app's own handler (React's onSubmit once hydrated) sees the submission; the browser's default would navigate.
    form.addEventListener('submit', (e) => { seen.push(e.defaultPrevented); e.preventDefault(); });
    submit.click();
    submit.click(); // impatient: still one submission kept
    expect(seen).toEqual([]);
    expect(form).toHaveAttribute('aria-busy', 'true');

    replayEarlyClicks();
    expect(seen).toEqual([false]);
    expect(form).not.toHaveAttribute('aria-busy');
    expect(password.value).toBe('secret-typed-early');

    // A real form: never held (before or after).
    delete window.__shopEarlyClicks;
    runHeadScript();
    const search = document.createElement('form');
    search.setAttribute('action', '/search');
    document.body.append(search);
    let searched = 0;
    search.addEventListener('submit', (e) => { searched += 1; e.preventDefault(); });
    search.requestSubmit();
    expect(searched).toBe(1);
  });

  it('keeps a click on a data-early control (nothing happens yet), once per control, then makes it once when the app is live', () => {
    runHeadScript();
    let added = 0;
    const add = button('add-to-cart', () => { added += 1; });
    const inner = document.createElement('span');
    add.append(inner);
    add.click();
    inner.click(); // a second, impatient click on the same control (on its label text)
    expect(added).toBe(0);
    expect(add).toHaveAttribute('data-early-pending');
    expect(add).toHaveAttribute('aria-busy', 'true');
    expect(window.__shopEarlyClicks?.kept()).toEqual(['add-to-cart']);

    replayEarlyClicks();
    expect(added).toBe(1);
    expect(add).not.toHaveAttribute('data-early-pending');
    expect(add).not.toHaveAttribute('aria-busy');
    // Live: clicks go straight through, and a second replay makes nothing again.
    add.click();
    replayEarlyClicks();
    expect(added).toBe(2);
  });

  it('does not toggle a switch before the app starts; the replayed click toggles it once', () => {
    runHeadScript();
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.setAttribute('data-early', 'mode-switch');
    const label = document.createElement('label');
    label.append(input, 'Dark mode');
    document.body.append(label);
    let changes = 0;
    input.addEventListener('change', () => { changes += 1; });
    label.click(); // the label's click reaches the input as the browser's own click
    expect(input.checked).toBe(false);
    expect(changes).toBe(0);
    replayEarlyClicks();
    expect(input.checked).toBe(true);
    expect(changes).toBe(1);
  });

  it('replays in order on the element with the same key when hydration replaced it; never a disabled one; other clicks are left alone', () => {
    runHeadScript();
    const seen: string[] = [];
    const first = button(earlyKey('option', 'Size', 'M'), () => seen.push('old M'));
    const plain = document.createElement('button');
    let plainClicks = 0;
    plain.addEventListener('click', () => { plainClicks += 1; });
    document.body.append(plain);
    const off = button('cart-remove', () => seen.push('remove'));
    first.click();
    off.click();
    button('add-to-cart', () => seen.push('add')).click();
    plain.click();
    expect(plainClicks).toBe(1);
    expect(window.__shopEarlyClicks?.kept()).toEqual(['option:size:m', 'cart-remove', 'add-to-cart']);

    first.remove();
    button(earlyKey('option', 'Size', 'M'), () => seen.push('new M'));
    off.disabled = true;
    replayEarlyClicks();
    expect(seen).toEqual(['new M', 'add']);
  });

  it('is harmless without the head script (tests, a page without it)', () => {
    expect(() => replayEarlyClicks()).not.toThrow();
    expect(earlyKey('Cart Increase', 'abc')).toBe('cart-increase:abc');
  });
});
