import { zodResolver } from '@hookform/resolvers/zod';
import { addressBodySchema } from '@shop/contracts';

/** The address form's resolver, loaded on first validation (lib/lazy-resolver.ts), with zod and the contract's schema. */
export const addressResolver = zodResolver(addressBodySchema);
