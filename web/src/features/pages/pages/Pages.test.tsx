import type { Page, PageList } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { admin, makeState, mockApi, renderWithProviders } from '../../../test/render';
import AdminPagesPage from './AdminPagesPage';
import InfoPage from './InfoPage';
import PageEditPage from './PageEditPage';

vi.mock('react-toastify', async (orig) => ({ ...(await orig<object>()), toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

const shipping: Page = {
  slug: 'shipping', title: 'Shipping Policy', updatedAt: '2026-03-01T10:00:00.000Z',
  body: '## Cost\n\nShipping is **free**. See [returns](/pages/returns) or [elsewhere](https://example.com).\n\n<img src=x onerror="alert(1)"><script>alert(2)</script>\n\n[bad](javascript:alert(3))',
};
const faq: Page = {
  slug: 'faq', title: 'Frequently Asked Questions', updatedAt: '2026-03-01T10:00:00.000Z', body: 'Quick answers.',
  faq: [
    { id: 'shipping', question: 'How much is shipping?', answer: 'Free.', keywords: ['shipping', 'ship'] },
    { id: 'returns', question: 'Can I return?', answer: 'Within 30 days.', keywords: ['return'] },
  ],
};

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

describe('InfoPage (/pages/:slug)', () => {
  it('shows the title and the Markdown without any raw HTML or script links', async () => {
    mockApi({ 'GET pages/shipping': () => ({ body: shipping }) });
    const { container } = renderWithProviders(<InfoPage />, { route: '/pages/shipping', path: '/pages/:slug' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Shipping Policy' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Cost' })).toBeInTheDocument();
    expect(screen.getByText('free').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'returns' })).toHaveAttribute('href', '/pages/returns');
    expect(screen.getByRole('link', { name: 'elsewhere' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(container.querySelector('img, script')).toBeNull();
    expect(screen.getByText('bad').getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(document.title).toBe('Shipping Policy');
  });

  it('the FAQ page lists its questions and answers', async () => {
    mockApi({ 'GET pages/faq': () => ({ body: faq }) });
    renderWithProviders(<InfoPage />, { route: '/pages/faq', path: '/pages/:slug' });
    expect(await screen.findByRole('heading', { level: 2, name: 'How much is shipping?' })).toBeInTheDocument();
    expect(screen.getByText('Within 30 days.')).toBeInTheDocument();
  });

  it('an unknown page is the not-found page', async () => {
    mockApi({ 'GET pages/careers': () => ({ status: 404, body: { message: 'Page Not Found' } }) });
    renderWithProviders(<InfoPage />, { route: '/pages/careers', path: '/pages/:slug' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });
});

describe('Admin → Pages', () => {
  it('lists the pages with Edit links', async () => {
    const list: PageList = { pages: [{ slug: 'faq', title: 'FAQ', updatedAt: faq.updatedAt }, { slug: 'shipping', title: 'Shipping Policy', updatedAt: faq.updatedAt }] };
    mockApi({ 'GET pages': () => ({ body: list }) });
    renderWithProviders(<AdminPagesPage />, { state: makeState({ userInfo: admin }) });
    const row = (await screen.findByText('Shipping Policy')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Edit Shipping Policy' })).toHaveAttribute('href', '/admin/page/shipping');
    expect(within(row).getByRole('link', { name: '/pages/shipping' })).toHaveAttribute('href', '/pages/shipping');
  });

  it('edits the FAQ: title, body, a new question (keywords split on commas); checks input first', async () => {
    const { callsTo } = mockApi({
      'GET pages/faq': () => ({ body: faq }),
      'PUT pages/faq': (body) => ({ body: { message: 'Page Updated', page: { ...faq, ...(body as object) } } }),
    });
    renderWithProviders(<PageEditPage />, { route: '/admin/page/faq', path: '/admin/page/:slug', state: makeState({ userInfo: admin }) });
    const user = userEvent.setup();
    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'FAQ');
    await user.click(screen.getByRole('button', { name: 'Add Question' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Question 3: Question is required');
    expect(callsTo('PUT pages/faq')).toHaveLength(0);
    await user.type(within(screen.getByRole('group', { name: 'Question 3' })).getByLabelText('Question 3'), 'Gift cards?');
    await user.type(within(screen.getByRole('group', { name: 'Question 3' })).getByLabelText('Answer'), 'Yes.');
    await user.type(within(screen.getByRole('group', { name: 'Question 3' })).getByLabelText('Keywords (comma-separated)'), 'gift card, Voucher ,');
    await user.click(screen.getByRole('button', { name: 'Remove question 1' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(callsTo('PUT pages/faq')).toHaveLength(1));
    expect(callsTo('PUT pages/faq')[0]!.body).toEqual({
      title: 'FAQ', body: 'Quick answers.',
      faq: [
        { question: 'Can I return?', answer: 'Within 30 days.', keywords: ['return'] },
        { question: 'Gift cards?', answer: 'Yes.', keywords: ['gift card', 'voucher'] },
      ],
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Page Updated'));
  });

  it('previews the Markdown of an ordinary page and sends no questions', async () => {
    const asked: string[] = [];
    const { callsTo } = mockApi({
      'GET pages/shipping': (_body, url) => {
        asked.push(url.search);
        return { body: { ...shipping, body: '## Hi' } };
      },
      'PUT pages/shipping': (body) => ({ body: { message: 'Page Updated', page: { ...shipping, ...(body as object) } } }),
    });
    renderWithProviders(<PageEditPage />, { route: '/admin/page/shipping', path: '/admin/page/:slug', state: makeState({ userInfo: admin }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Preview' }));
    expect(within(screen.getByTestId('page-preview')).getByRole('heading', { name: 'Hi' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Question' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(callsTo('PUT pages/shipping')[0]?.body).toEqual({ title: 'Shipping Policy', body: '## Hi' }));
    // The editor reads the text as stored (shipping placeholders unfilled), and names the placeholders.
    expect(asked[0]).toBe('?source=true');
    expect(screen.getByText('{{shipping.summary}}')).toBeInTheDocument();
  });
});
