import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose code loads on first use. The form schemas need zod (about 40 KB
 * gzipped), which the pages would otherwise download and run before they can show an empty form;
 * this way it loads with the first validation (blur, change or submit, as the form's mode says),
 * which then waits for it once. A failed load is tried again on the next validation.
 */
export function lazyResolver<TFieldValues extends FieldValues, TContext, TTransformedValues>(
  load: () => Promise<Resolver<TFieldValues, TContext, TTransformedValues>>,
): Resolver<TFieldValues, TContext, TTransformedValues> {
  let loading: Promise<Resolver<TFieldValues, TContext, TTransformedValues>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    const resolver = await loading;
    return resolver(values, context, options);
  };
}
