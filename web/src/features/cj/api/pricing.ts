import type { PricingRule, PricingRuleResponse } from '@shop/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const pricingKey = ['cj', 'pricing'] as const;

/** GET cj/pricing (admin): the rule that prices newly imported products and variants. */
export const getPricingRule = () => api.get<PricingRuleResponse>('cj/pricing').then((r) => r.pricing);

export function usePricingRule(enabled = true) {
  return useQuery({ queryKey: pricingKey, queryFn: getPricingRule, enabled });
}

/** PUT cj/pricing (admin); 400 carries the field's message. */
export const savePricingRule = (rule: PricingRule) => api.put<PricingRuleResponse>('cj/pricing', rule).then((r) => r.pricing);

export function useSavePricingRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePricingRule,
    onSuccess: (rule) => queryClient.setQueryData(pricingKey, rule),
  });
}
