/** Distinct on light and dark backgrounds; the first colours of the shop's palette. */
const PALETTE = ['#0d6efd', '#20c997', '#ffc107', '#dc3545', '#6f42c1', '#fd7e14', '#0dcaf0', '#198754', '#d63384', '#6c757d'];

/**
 * The colour of the i-th slice: the palette first, then hues spaced by the golden angle, so no two
 * slices of a chart share a colour however many categories there are.
 */
export function sliceColor(i: number): string {
  if (i < PALETTE.length) return PALETTE[i]!;
  const hue = Math.round(((i - PALETTE.length) * 137.508 + 15) % 360);
  const lightness = 42 + ((i - PALETTE.length) % 3) * 8;
  return `hsl(${hue}, 70%, ${lightness}%)`;
}
