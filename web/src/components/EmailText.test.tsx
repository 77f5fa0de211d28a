import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emailText } from '../test/render';
import { EmailText, emailParts } from './EmailText';

describe('EmailText', () => {
  it('cuts an address after the @, and a long domain before each dot; the local part stays whole', () => {
    expect(emailParts('jane@example.com')).toEqual(['jane@', 'example.com']);
    expect(emailParts('first.last@example.co.uk')).toEqual(['first.last@', 'example.co.uk']);
    expect(emailParts('victim-lq3k9-12@mail.engineering.example.org')).toEqual(['victim-lq3k9-12@', 'mail', '.engineering', '.example', '.org']);
    expect(emailParts('no-at-sign')).toEqual(['no-at-sign']);
    expect(emailParts('@example.com')).toEqual(['@example.com']);
    expect(emailParts('trailing@')).toEqual(['trailing@']);
  });

  it('renders the address whole, each part unbreakable, a line-break opportunity only between them', () => {
    const { container } = render(<EmailText email="shopper-lq3k9-1@example.com" />);
    const email = container.querySelector('.shop-email')!;
    expect(email).toHaveTextContent('shopper-lq3k9-1@example.com');
    // Found as one text by a query that reads the element's whole text.
    expect(screen.getByText(emailText('shopper-lq3k9-1@example.com'))).toBe(email);
    expect(Array.from(email.children, (c) => (c.tagName === 'WBR' ? '|' : c.textContent))).toEqual(['shopper-lq3k9-1@', '|', 'example.com']);
  });
});
