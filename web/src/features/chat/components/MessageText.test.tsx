import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { messagePreview, splitMessage } from './message-parts';
import { MessageText } from './MessageText';

const inRouter = (node: ReactNode) => render(<MemoryRouter>{node}</MemoryRouter>);

const links = (content: string) => splitMessage(content).filter((p) => p.kind === 'link').map((p) => p.text);

describe('MessageText', () => {
  it('makes an https address a link that opens a new tab with rel noopener noreferrer nofollow', () => {
    render(<p>
      <MessageText content="See https://shop.example/product/mug?x=1#top for details" />
    </p>);
    const link = screen.getByRole('link', { name: 'https://shop.example/product/mug?x=1#top' });
    expect(link).toHaveAttribute('href', 'https://shop.example/product/mug?x=1#top');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link.parentElement).toHaveTextContent('See https://shop.example/product/mug?x=1#top for details');
  });

  it('leaves javascript:, data:, vbscript:, file: and bare www addresses as inert text', () => {
    const content = 'javascript:alert(1) data:text/html,<script>alert(1)</script> vbscript:x file:///etc/passwd www.example.com JAVASCRIPT:alert(2)';
    const { container } = render(<p><MessageText content={content} /></p>);
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.querySelectorAll('script')).toHaveLength(0);
    expect(container.textContent).toBe(content);
  });

  it('never links an address glued to a scheme or word before it', () => {
    expect(links('javascript:http://evil.example/x')).toEqual([]);
    expect(links('xhttp://evil.example')).toEqual([]);
    expect(links('http://')).toEqual([]);
    expect(links('https://?q=1')).toEqual([]);
  });

  it('keeps markup in a message as text', () => {
    const { container } = render(<p><MessageText content={'<img src=x onerror=alert(1)> <a href="javascript:alert(1)">click</a> https://ok.example'} /></p>);
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://ok.example/']);
    expect(container.textContent).toContain('<a href="javascript:alert(1)">click</a>');
  });

  it('leaves trailing punctuation out of the link', () => {
    expect(links('Go to https://shop.example/a.')).toEqual(['https://shop.example/a']);
    expect(links('https://shop.example/a, then https://shop.example/b! Or https://shop.example/c?')).toEqual(['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c']);
    expect(links('"https://shop.example/q?x=1";')).toEqual(['https://shop.example/q?x=1']);
    expect(links('https://shop.example/a...')).toEqual(['https://shop.example/a']);
  });

  it('balances parentheses: a closing bracket of the sentence is not part of the link, one of the address is', () => {
    expect(links('(see https://shop.example/help)')).toEqual(['https://shop.example/help']);
    expect(links('https://en.wikipedia.org/wiki/Tea_(drink)')).toEqual(['https://en.wikipedia.org/wiki/Tea_(drink)']);
    expect(links('(https://en.wikipedia.org/wiki/Tea_(drink)).')).toEqual(['https://en.wikipedia.org/wiki/Tea_(drink)']);
    expect(links('[https://shop.example/x]')).toEqual(['https://shop.example/x']);
  });

  it('links a very long address whole but shows it shortened', () => {
    const long = `https://shop.example/${'a'.repeat(5000)}`;
    render(<p><MessageText content={`look ${long} now`} /></p>);
    const link = screen.getByRole('link');
    expect(link).toHaveAttribute('href', long);
    expect(link.textContent!.length).toBeLessThanOrEqual(60);
    expect(link.textContent!.endsWith('…')).toBe(true);
    expect(link).toHaveAttribute('title', long);
    // Address-like text glued together is one address at most, never one per repeat.
    expect(links('http://'.repeat(2000))).toHaveLength(1);
    expect(links(`${'https://x.example/('.repeat(500)}`)).toHaveLength(1);
  });

  it('links plain http and several addresses, with the text between them kept', () => {
    expect(splitMessage('a http://one.example b https://two.example c')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'link', text: 'http://one.example', href: 'http://one.example/' },
      { kind: 'text', text: ' b ' },
      { kind: 'link', text: 'https://two.example', href: 'https://two.example/' },
      { kind: 'text', text: ' c' },
    ]);
  });

  describe("product links in the assistant's answers (issue 36)", () => {
    const answer = 'I found this product:\n- [Nova X5 Smartphone](/product/nova-x5-smartphone) by Nova: $699.00, or see https://shop.example/help.';

    it('links a product name to its page in the app, in the assistant\'s message', () => {
      const { container } = inRouter(<p><MessageText content={answer} fromAssistant /></p>);
      const link = screen.getByRole('link', { name: 'Nova X5 Smartphone' });
      expect(link).toHaveAttribute('href', '/product/nova-x5-smartphone');
      expect(link).not.toHaveAttribute('target');
      expect(screen.getByRole('link', { name: 'https://shop.example/help' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
      expect(container.textContent).toBe('I found this product:\n- Nova X5 Smartphone by Nova: $699.00, or see https://shop.example/help.');
    });

    it("leaves the same markup as text in a customer's or an administrator's message", () => {
      const { container } = inRouter(<p><MessageText content={answer} /></p>);
      expect(screen.queryByRole('link', { name: 'Nova X5 Smartphone' })).toBeNull();
      expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://shop.example/help']);
      expect(container.textContent).toBe(answer);
    });

    it('links only same-origin product pages, even in the assistant\'s message', () => {
      const content = '[a](javascript:alert(1)) [b](//evil.example/product/x) [c](/admin/users) [d](https://evil.example/product/x) [e](/product/x"onmouseover=1) [f](/cj-product/cj-123_ab)';
      const { container } = inRouter(<p><MessageText content={content} fromAssistant /></p>);
      // In-app links: the product page only. (An https address is an ordinary external link, as in any message.)
      expect(screen.getAllByTestId('chat-product-link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['f', '/cj-product/cj-123_ab']]);
      expect([...container.querySelectorAll('a:not([target])')]).toHaveLength(1);
      expect(container.textContent).toContain('[a](javascript:alert(1))');
      expect(container.textContent).toContain('[e](/product/x"onmouseover=1)');
    });

    it('previews an assistant message with the product names only', () => {
      expect(messagePreview(answer, true)).toBe('I found this product:\n- Nova X5 Smartphone by Nova: $699.00, or see https://shop.example/help.');
      expect(messagePreview(answer, false)).toBe(answer);
    });
  });
});
