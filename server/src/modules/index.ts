import type { FastifyPluginAsync } from 'fastify';
import { addressesRoutes } from './addresses/addresses.routes.ts';
import { chatRoutes } from './chat/chat.routes.ts';
import { cartRoutes } from './cart/cart.routes.ts';
import { newsletterRoutes } from './newsletter/newsletter.routes.ts';
import { ordersRoutes } from './orders/orders.routes.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { productsRoutes } from './products/products.routes.ts';
import { supplierRoutes } from './supplier/supplier.routes.ts';
import { uploadsRoutes } from './uploads/uploads.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { usersAdminRoutes } from './users/users-admin.routes.ts';
import { leadsRoutes } from './leads/leads.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { devMailboxRoutes } from './dev-mailbox/dev-mailbox.routes.ts';
import { pagesRoutes } from './pages/pages.routes.ts';
import { discountsRoutes } from './discounts/discounts.routes.ts';
import { shippingRoutes } from './shipping/shipping.routes.ts';

/** Every API module, registered under /api by buildApp. */
export const apiModules: FastifyPluginAsync[] = [
  usersRoutes,
  productsRoutes,
  uploadsRoutes,
  cartRoutes,
  addressesRoutes,
  ordersRoutes,
  paymentsRoutes,
  supplierRoutes,
  usersAdminRoutes,
  leadsRoutes,
  dashboardRoutes,
  newsletterRoutes,
  chatRoutes,
  devMailboxRoutes,
  pagesRoutes,
  discountsRoutes,
  shippingRoutes,
] as FastifyPluginAsync[];
