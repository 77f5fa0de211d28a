/** `/order/{id}?refund=1`: the order page opens its Refund dialog (the admin list's Refund links there). */
export const REFUND_PARAM = 'refund';
