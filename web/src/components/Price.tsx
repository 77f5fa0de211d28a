import { formatMoney } from '../lib/format';

/** True when the product is on sale with a discount that actually lowers its price. */
export function hasSaleDiscount(p: { isOnSale: boolean; saleDiscount: number }): boolean {
  return p.isOnSale && p.saleDiscount > 0;
}

interface PriceProps {
  price: number;
  finalPrice: number;
  isOnSale: boolean;
  saleDiscount: number;
  /** Shows '(N% OFF)' after the price (product page). */
  showDiscount?: boolean;
  className?: string;
}

/** The price a shopper pays; on sale, the sale price followed by the struck-through regular price. */
export function Price({ price, finalPrice, isOnSale, saleDiscount, showDiscount = false, className }: PriceProps) {
  const onSale = hasSaleDiscount({ isOnSale, saleDiscount }) && finalPrice < price;
  if (!onSale) {
    return (
      <span className={className}>
        <span className="fw-bold">{formatMoney(price)}</span>
      </span>
    );
  }
  return (
    <span className={className}>
      <span className="fw-bold text-danger-emphasis">{formatMoney(finalPrice)}</span>{' '}
      <del className="text-body-secondary small">
        <span className="visually-hidden">Regular price </span>
        {formatMoney(price)}
      </del>
      {showDiscount && <span className="ms-1 text-danger-emphasis fw-semibold">({saleDiscount}% OFF)</span>}
    </span>
  );
}

/** A product whose variants differ in price (issue 34): 'From $X', X the lowest price paid. */
export function FromPrice({ min, className }: { min: number; className?: string }) {
  return (
    <span className={className}>
      <span className="fw-bold">From {formatMoney(min)}</span>
    </span>
  );
}
