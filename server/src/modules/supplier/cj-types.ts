/**
 * CJ Dropshipping API 2.0 shapes, as CJ documents them (developers.cjdropshipping.com, "API 2.0"):
 * every answer is an envelope `{ code, result, message, data, requestId }` with `code` 200 on success.
 * Only the fields the shop reads are declared; the rest pass through (loose objects).
 */
import { z } from 'zod';

export const CJ_CODES = {
  success: 200,
  systemBusy: 1600000,
  invalidToken: 1600001,
  tokenMissing: 1600002,
  invalidRefreshToken: 1600003,
  authorizationFailed: 1600004,
  wrongCredentials: 1600005,
  developerNotFound: 1600006,
  authorizationFailed2: 1600008,
  interfaceOffline: 1600100,
  interfaceNotFound: 1600101,
  tooManyRequests: 1600200,
  quotaUsedUp: 1600201,
  illegalParameter: 1600300,
  userNotFound: 1601000,
  variantNotFound: 1602000,
  productNotFound: 1602001,
  orderCreateFailed: 1603000,
  balanceInsufficient: 1604000,
  logisticNotFound: 1605000,
} as const;

/** Codes that mean the token (or key) was refused. */
export const CJ_AUTH_CODES: ReadonlySet<number> = new Set([
  CJ_CODES.invalidToken, CJ_CODES.tokenMissing, CJ_CODES.invalidRefreshToken, CJ_CODES.authorizationFailed,
  CJ_CODES.wrongCredentials, CJ_CODES.developerNotFound, CJ_CODES.authorizationFailed2, CJ_CODES.userNotFound,
]);

export const cjEnvelopeSchema = z.looseObject({
  code: z.number(),
  result: z.boolean().optional(),
  message: z.string().nullish(),
  data: z.unknown().optional(),
  requestId: z.string().nullish(),
});
export type CjEnvelope = z.infer<typeof cjEnvelopeSchema>;

/** authentication/getAccessToken and authentication/refreshAccessToken. */
export const cjTokenDataSchema = z.looseObject({
  accessToken: z.string().min(1),
  accessTokenExpiryDate: z.string(),
  refreshToken: z.string().min(1),
  refreshTokenExpiryDate: z.string(),
  openId: z.union([z.number(), z.string()]).optional(),
  createDate: z.string().optional(),
});
export type CjTokenData = z.infer<typeof cjTokenDataSchema>;

const text = z.string().nullish().transform((v) => v ?? '');
const money = z.union([z.number(), z.string()]).nullish();

/** One item of product/list. `productImage` is one URL here; `sellPrice` may be a range. */
export const cjListProductSchema = z.looseObject({
  pid: z.string(),
  productNameEn: text,
  productSku: text,
  productImage: text,
  sellPrice: z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined ? '' : String(v))),
  categoryId: text,
  categoryName: text,
});
export type CjListProduct = z.infer<typeof cjListProductSchema>;

export const cjListDataSchema = z.looseObject({
  pageNum: z.coerce.number(),
  pageSize: z.coerce.number(),
  total: z.coerce.number(),
  list: z.array(cjListProductSchema).nullish().transform((v) => v ?? []),
});
export type CjListData = z.infer<typeof cjListDataSchema>;

export const cjVariantDataSchema = z.looseObject({
  vid: z.string(),
  pid: z.string().nullish(),
  variantNameEn: text,
  variantSku: text,
  variantKey: text,
  variantImage: text,
  variantSellPrice: money,
});
export type CjVariantData = z.infer<typeof cjVariantDataSchema>;

/**
 * product/query: the details with variants. `productImage` is a JSON list string of URLs here,
 * `productImageSet` the same as an array; `description` is HTML.
 */
export const cjProductDataSchema = z.looseObject({
  pid: z.string(),
  productNameEn: text,
  productSku: text,
  bigImage: text,
  productImage: text,
  productImageSet: z.array(z.string()).nullish().transform((v) => v ?? []),
  sellPrice: z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined ? '' : String(v))),
  categoryId: text,
  categoryName: text,
  description: text,
  variants: z.array(cjVariantDataSchema).nullish().transform((v) => v ?? []),
});
export type CjProductData = z.infer<typeof cjProductDataSchema>;

/** product/stock/queryByVid: stock per warehouse. */
export const cjStockDataSchema = z.array(z.looseObject({
  vid: z.string().nullish(),
  areaId: z.union([z.number(), z.string()]).nullish(),
  areaEn: text,
  countryCode: text,
  storageNum: z.coerce.number().nullish(),
  totalInventoryNum: z.coerce.number().nullish(),
})).nullish().transform((v) => v ?? []);
export type CjStockData = z.infer<typeof cjStockDataSchema>;

/** product/getCategory: three levels; the third has the ids. */
export const cjCategoryDataSchema = z.array(z.looseObject({
  categoryFirstName: text,
  categoryFirstList: z.array(z.looseObject({
    categorySecondName: text,
    categorySecondList: z.array(z.looseObject({ categoryId: z.string(), categoryName: text })).nullish().transform((v) => v ?? []),
  })).nullish().transform((v) => v ?? []),
})).nullish().transform((v) => v ?? []);
export type CjCategoryData = z.infer<typeof cjCategoryDataSchema>;

/** shopping/order/createOrderV2 request body (the fields the shop sends). */
export interface CjCreateOrderBody {
  orderNumber: string;
  shippingZip: string;
  shippingCountryCode: string;
  shippingCountry: string;
  shippingProvince: string;
  shippingCity: string;
  shippingAddress: string;
  shippingCustomerName: string;
  shippingPhone: string;
  remark: string;
  logisticName: string;
  fromCountryCode: string;
  /** 3: create the order without paying from the CJ balance (pay it in MyCJ). */
  payType: number;
  products: Array<{ vid: string; quantity: number; storeLineItemId?: string }>;
}

export const cjCreatedOrderSchema = z.looseObject({
  orderId: z.union([z.string(), z.number()]).transform(String),
  orderNumber: z.string().nullish(),
  orderStatus: z.string().nullish(),
  orderAmount: money,
});
export type CjCreatedOrder = z.infer<typeof cjCreatedOrderSchema>;

/** First number of a CJ price or price range ("2.09 -- 7.46" -> 2.09); NaN when there is none. */
export function firstPrice(value: string | number | null | undefined): number {
  if (typeof value === 'number') return value;
  const m = /\d+(?:\.\d+)?/.exec(value ?? '');
  return m ? Number(m[0]) : Number.NaN;
}

/** A CJ image list: a JSON list string, a comma-separated string or one URL. */
export function parseImageList(value: string | null | undefined): string[] {
  const v = (value ?? '').trim();
  if (!v) return [];
  if (v.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    } catch {
      /* not JSON: treat as text below */
    }
  }
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * shopping/order/getOrderDetail (GET, query `orderId`: CJ's order id): the order's status
 * (CREATED, IN_CART, UNPAID, UNSHIPPED, SHIPPED, DELIVERED, CANCELLED), and once shipped the
 * tracking number and carrier (`trackNumber`, `logisticName`).
 */
export const cjOrderDetailSchema = z.looseObject({
  orderId: z.union([z.string(), z.number()]).transform(String),
  orderNum: z.string().nullish(),
  cjOrderId: z.union([z.string(), z.number()]).nullish(),
  orderStatus: text,
  trackNumber: z.string().nullish().transform((v) => (v && v.trim() ? v.trim() : null)),
  logisticName: z.string().nullish().transform((v) => (v && v.trim() ? v.trim() : null)),
});
export type CjOrderDetail = z.infer<typeof cjOrderDetailSchema>;

/**
 * shopping/order/deleteOrder (DELETE, query `orderId`: CJ's order id): withdraws an order CJ has not
 * shipped; `data` is the order id. CJ refuses it (another code than 200) once the order is on its
 * way. The CJ states in which the shop asks at all: not SHIPPED, DELIVERED or CANCELLED.
 */
export const cjDeletedOrderSchema = z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined ? null : String(v)));
/** CJ order states after which an order can no longer be withdrawn (it has left the warehouse). */
export const CJ_SHIPPED_STATES: ReadonlySet<string> = new Set(['SHIPPED', 'DELIVERED']);

/** logistic/freightCalculate request body. */
export interface CjFreightBody {
  startCountryCode: string;
  endCountryCode: string;
  products: Array<{ quantity: number; vid: string }>;
}

/** logistic/freightCalculate: one option per carrier, `logisticPrice` in USD. */
export const cjFreightDataSchema = z.array(z.looseObject({
  logisticName: text,
  logisticAging: text,
  logisticPrice: z.coerce.number(),
})).nullish().transform((v) => v ?? []);
export type CjFreightData = z.infer<typeof cjFreightDataSchema>;
