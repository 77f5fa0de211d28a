import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderPage, stateWith } from '../../../test/catalogue-utils';
import { admin } from '../../../test/render';
import { PricingRuleForm } from './PricingRuleForm';

vi.mock('react-toastify', () => ({ toast: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } }));

beforeEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

const rule = { markupPercent: 50, fixedAmount: 0, rounding: '.99' };

describe('PricingRuleForm (admin supplier screen)', () => {
  it('shows the saved rule, saves a new one with a toast', async () => {
    const api = mockApi({
      'GET cj/pricing': () => ({ body: { pricing: rule } }),
      'PUT cj/pricing': (body) => ({ body: { pricing: body } }),
    });
    renderPage(<PricingRuleForm />, { state: stateWith(admin) });
    const markup = await screen.findByLabelText('Markup (%)');
    expect(markup).toHaveValue(50);
    expect(screen.getByTestId('pricing-example')).toHaveTextContent('A cost of $10.00 sells for $15.99');
    await userEvent.clear(markup);
    await userEvent.type(markup, '100');
    await userEvent.clear(screen.getByLabelText('Fixed amount ($)'));
    await userEvent.type(screen.getByLabelText('Fixed amount ($)'), '2');
    await userEvent.selectOptions(screen.getByLabelText('Rounding'), '.00');
    expect(screen.getByTestId('pricing-example')).toHaveTextContent('sells for $22.00');
    await userEvent.click(screen.getByRole('button', { name: 'Save Pricing Rule' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Pricing rule saved'));
    expect(api.callsTo('PUT cj/pricing')[0]?.body).toEqual({ markupPercent: 100, fixedAmount: 2, rounding: '.00' });
  });

  it('refuses bad values with a message on the field, and sends nothing', async () => {
    const api = mockApi({ 'GET cj/pricing': () => ({ body: { pricing: rule } }) });
    renderPage(<PricingRuleForm />, { state: stateWith(admin) });
    const markup = await screen.findByLabelText('Markup (%)');
    await userEvent.clear(markup);
    await userEvent.type(markup, '2000');
    await userEvent.click(screen.getByRole('button', { name: 'Save Pricing Rule' }));
    expect(await screen.findByText('Markup must be from 0 to 1000 %')).toBeInTheDocument();
    expect(markup).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(markup);
    await userEvent.click(screen.getByRole('button', { name: 'Save Pricing Rule' }));
    expect(await screen.findByText('Markup is required')).toBeInTheDocument();
    expect(api.callsTo('PUT cj/pricing')).toHaveLength(0);
  });

  it("shows the server's refusal", async () => {
    mockApi({
      'GET cj/pricing': () => ({ body: { pricing: rule } }),
      'PUT cj/pricing': () => ({ status: 400, body: { message: 'Rounding must be .99 or .00', fieldErrors: { rounding: 'Rounding must be .99 or .00' } } }),
    });
    renderPage(<PricingRuleForm />, { state: stateWith(admin) });
    await userEvent.click(await screen.findByRole('button', { name: 'Save Pricing Rule' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Rounding must be .99 or .00'));
    expect(screen.getByText('Rounding must be .99 or .00')).toBeInTheDocument();
  });
});
