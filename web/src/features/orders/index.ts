/** What other features may use of orders: they import this file, never its inner files (re-exports only). */
export { OrderCard, OrderItemsList, OrderSummaryCard, PaymentCard, ShippingCard } from './components/OrderSections';
export { OrderStatusBadge, ORDER_STATUS_LABELS } from './components/OrderStatusBadge';
