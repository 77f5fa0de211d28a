import type { Resolver } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { lazyResolver } from './lazy-resolver';

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];

describe('lazyResolver', () => {
  it('loads the resolver on first use, once, and passes every call through', async () => {
    const inner = vi.fn<Resolver<Values>>(async (values) => ({ values, errors: {} }));
    const load = vi.fn(async () => inner);
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    await expect(resolver({ email: 'a@b.co' }, undefined, options)).resolves.toEqual({ values: { email: 'a@b.co' }, errors: {} });
    await resolver({ email: 'c@d.co' }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
    expect(inner.mock.calls.map((c) => c[0])).toEqual([{ email: 'a@b.co' }, { email: 'c@d.co' }]);
  });

  it('tries the load again after a failure', async () => {
    const inner: Resolver<Values> = async () => ({ values: {}, errors: { email: { type: 'x', message: 'Email is required' } } });
    const load = vi.fn<() => Promise<Resolver<Values>>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(inner);
    const resolver = lazyResolver(load);
    await expect(resolver({ email: '' }, undefined, options)).rejects.toThrow('offline');
    await expect(resolver({ email: '' }, undefined, options)).resolves.toMatchObject({ errors: { email: { message: 'Email is required' } } });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
