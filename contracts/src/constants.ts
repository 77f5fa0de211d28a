/**
 * The contract's plain values: limits, option lists, labels and messages. No zod here, so the web
 * imports them from '@shop/contracts/constants' without pulling every schema into its chunks. The
 * schema files use them, and index.ts re-exports them with the rest of the contract.
 */

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

export const PASSWORD_MIN = 8;

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, we have sent a password reset link.';
export const RESET_PASSWORD_SUCCESS = 'Password has been reset. You can now sign in.';
export const INVALID_RESET_TOKEN = 'Password reset link is invalid or has expired';
export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Confirming a sign-up whose e-mail got an account in the meantime (compared case-insensitively).
 * Sign-up itself answers the same for a known and an unknown address (SIGNUP_CHECK_EMAIL).
 */
export const USER_EXISTS = 'An account already exists for this email. Please sign in.';
/** POST users/signup: the same 202 answer whether or not the address has an account. */
export const SIGNUP_CHECK_EMAIL = 'Check your e-mail to finish creating your account.';
/** POST users/confirm-signup with an unknown, used or expired token. */
export const INVALID_SIGNUP_TOKEN = 'This confirmation link is invalid or has expired';
/** Sign-up confirmation links are valid this long. */
export const SIGNUP_TOKEN_TTL_HOURS = 24;
/** PUT users/profile changing the e-mail or the password without the current password. */
export const CURRENT_PASSWORD_REQUIRED = 'Current password is required to change your e-mail or password';
/** PUT users/profile with a wrong current password (401). */
export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';
/** Profile update to an e-mail that belongs to another account. */
export const EMAIL_IN_USE = 'Email is already in use by another account';
export const SIGNED_OUT_MESSAGE = 'Signed out successfully';
/** users/refresh-token without a refresh cookie. */
export const REFRESH_TOKEN_MISSING = 'Not signed in. Please sign in.';
/** users/refresh-token with an unknown, expired or revoked session. */
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';
/**
 * users/refresh-token with the token the session's latest rotation spent a moment ago (another tab of
 * the same browser refreshed at the same time): 200 with this message only, no cookies and no account data.
 */
export const SESSION_REFRESHED_ELSEWHERE = 'This session was just refreshed by another tab.';
/** users/refresh-token with a refresh token that was already used: the whole session is revoked. */
export const REFRESH_TOKEN_REUSED = 'This session has been ended for your security. Please sign in again.';
/**
 * GET users/current with no valid access cookie but a live refresh cookie: 401 with code
 * ACCESS_TOKEN_EXPIRED, so the client refreshes the session and replays (a stale access token must
 * not read as "signed out").
 */
export const ACCESS_TOKEN_EXPIRED = 'Your access token has expired. Refresh the session.';
/** 429 on sign-in, sign-up, forgot and reset password. */
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';
/** Client-side check on sign-up, profile and reset (SPEC section 5). */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
/** Reset tokens are valid this long after forgot-password. */
export const RESET_TOKEN_TTL_MINUTES = 60;

/**
 * Changing the e-mail (PUT users/profile): the new address gets a link that confirms it, valid this
 * long; the old address is told at once, with a password-reset link valid as long. The account keeps
 * (and signs in with) the old address until the link is opened.
 */
export const EMAIL_CHANGE_TOKEN_TTL_HOURS = 24;
/** POST users/confirm-email: the change is done. */
export const EMAIL_CHANGE_CONFIRMED = 'Your e-mail address has been changed. Sign in with it from now on.';
/** POST users/confirm-email with a token that matches no change (mistyped or cut short). */
export const EMAIL_CHANGE_INVALID = 'This e-mail confirmation link is not valid. Open the whole link from the e-mail, or change your e-mail again from your profile.';
/** POST users/confirm-email after the link's time (EMAIL_CHANGE_TOKEN_TTL_HOURS). */
export const EMAIL_CHANGE_EXPIRED = 'This e-mail confirmation link has expired. Change your e-mail again from your profile to get a new link.';
/** POST users/confirm-email with a link that was already used. */
export const EMAIL_CHANGE_USED = 'This e-mail confirmation link was already used: the e-mail address has been changed.';
/** POST users/confirm-email with a link replaced by a newer change, or voided by a password reset. */
export const EMAIL_CHANGE_CANCELLED = 'This e-mail confirmation link no longer works: a newer change was asked for, or the password was reset since. Change your e-mail again from your profile.';
/** POST users/confirm-email when another account took the new address meanwhile (409): nothing changes. */
export const EMAIL_CHANGE_TAKEN = 'Another account now uses this e-mail address, so your e-mail was not changed.';

// ---------------------------------------------------------------------------------------------
// Search (GET products/search)
// ---------------------------------------------------------------------------------------------

/** The query parameters the search page reads (/search?query=...&page=2); any other is ignored by it. */
export const SEARCH_PAGE_PARAMS = ['query', 'category', 'price', 'rating', 'order', 'page', 'tag'] as const;
export const SEARCH_ORDERS = ['newest', 'lowest', 'highest', 'toprated'] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];
/** Labels of the Sort by dropdown, in the spec's words. */
export const SEARCH_ORDER_LABELS: Record<SearchOrder, string> = {
  newest: 'Newest Arrivals',
  lowest: 'Price: Low to High',
  highest: 'Price: High to Low',
  toprated: 'Avg. Customer Reviews',
};
/**
 * Price Range filter values. A range `min-max` is applied to the price the shopper pays (after the
 * sale discount): `min <= finalPrice`, and when `max` is a whole number `finalPrice < max + 1`, so
 * whole-dollar buckets leave no gap (49.99 and 50.50 are both in 1-50). Any well-formed range is
 * accepted, not only these three.
 */
export const PRICE_BUCKETS = ['1-50', '51-200', '201-1000'] as const;
export const PRICE_BUCKET_LABELS: Record<(typeof PRICE_BUCKETS)[number], string> = {
  '1-50': '$1 to $50',
  '51-200': '$51 to $200',
  '201-1000': '$201 to $1000',
};
/** Customer Rating filter: "N stars & up" (rating >= N). */
export const RATING_FILTERS = [4, 3, 2, 1] as const;
export const SEARCH_TAGS = ['todays-deal', 'gifts', 'on-sale'] as const;
export type SearchTag = (typeof SEARCH_TAGS)[number];
/** Sub-header labels of the tags. */
export const SEARCH_TAG_LABELS: Record<SearchTag, string> = {
  'todays-deal': 'Todays Deal',
  gifts: 'Gifts',
  'on-sale': 'On Sale',
};
/** 12 fills both the 2-per-row (small) and 3-per-row (large) result grid. */
export const SEARCH_PAGE_SIZE = 12;
export const SEARCH_MAX_PAGE = 100_000;
export const SEARCH_QUERY_MAX_LENGTH = 200;
/** How many products the home grid shows (newest first). */
export const HOME_PRODUCTS_LIMIT = 24;

export const SEARCH_MESSAGES = {
  query: `Search text must be at most ${SEARCH_QUERY_MAX_LENGTH} characters`,
  category: 'Category must be at most 100 characters',
  price: "Price must be 'all' or a range like 1-50",
  rating: "Rating must be 'all' or a whole number from 1 to 5",
  order: `Sort order must be one of: ${SEARCH_ORDERS.join(', ')}`,
  page: 'Page must be a whole number of at least 1',
  pageMax: `Page must be at most ${SEARCH_MAX_PAGE}`,
  tag: `Tag must be 'all' or one of: ${SEARCH_TAGS.join(', ')}`,
} as const;

// ---------------------------------------------------------------------------------------------
// Product administration
// ---------------------------------------------------------------------------------------------

export const ADMIN_PAGE_SIZE = 10;

/** Back-office product list: a product with 1 to this many in stock is "low stock" (0 is "out of stock"). */
export const ADMIN_LOW_STOCK_MAX = 5;
/** Stock filters of GET products/admin: every product, none left, or 1 to ADMIN_LOW_STOCK_MAX left. */
export const ADMIN_STOCK_FILTERS = ['all', 'out', 'low'] as const;
export type AdminStockFilter = (typeof ADMIN_STOCK_FILTERS)[number];
/** Sorts of GET products/admin: newest first, name A-Z, price low to high, stock low to high. */
export const ADMIN_PRODUCT_SORTS = ['newest', 'name', 'price', 'stock'] as const;
export type AdminProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];
export const ADMIN_PRODUCT_QUERY_MESSAGES = {
  search: 'Search must be at most 100 characters',
  category: SEARCH_MESSAGES.category,
  stock: `Stock must be one of: ${ADMIN_STOCK_FILTERS.join(', ')}`,
  sort: `Sort must be one of: ${ADMIN_PRODUCT_SORTS.join(', ')}`,
} as const;

/** The spec's messages for the product form; the server answers them as `fieldErrors`. */
export const PRODUCT_FORM_MESSAGES = {
  idRequired: 'Product ID is required',
  categoryBrandDescriptionRequired: 'Category, Brand, and Description are required fields',
  name: 'Name is required',
  slug: 'Slug is required',
  slugFormat: 'Slug may only contain lowercase letters, numbers and hyphens',
  slugTaken: 'Slug is already in use',
  price: 'Price must be greater than 0',
  priceMax: 'Price must be at most 1000000',
  image: 'Image is required',
  category: 'Category is required',
  brand: 'Brand is required',
  countInStock: 'Count in stock must be greater than 0',
  description: 'Description is required',
  saleDiscount: 'Sale discount must be between 1 and 100',
  /** On sale: the discounted price would round below $0.01 (every 100 % discount does). */
  finalPriceMin: 'Price after the sale discount must be at least $0.01',
  /** Decimal notation only (contracts/src/numbers.ts): "0x10", "1e1", "12,50" are refused. */
  priceFormat: 'Price must be a number written like 19.99',
  priceDecimals: 'Price must have at most 2 decimal places',
  countInStockFormat: 'Count in stock must be a whole number written like 12',
  saleDiscountFormat: 'Sale discount must be a whole number written like 15',
  /** The shop's own uploads or http(s) addresses (contracts/src/images.ts, isProductImageUrl). */
  imageUrl: 'Image must be an uploaded image (/uploads/…) or a web address starting with https://',
  imagesUrl: 'Images must be uploaded images (/uploads/…) or web addresses starting with https://',
  created: 'Product created successfully',
  updated: 'Product updated successfully',
  deleted: 'Product deleted successfully',
  notFound: 'Product not found',
} as const;

export const PRODUCT_PRICE_MAX = 1_000_000;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// ---------------------------------------------------------------------------------------------
// Reviews
// ---------------------------------------------------------------------------------------------

export const REVIEW_MESSAGES = {
  required: 'Please enter comment and rating',
  rating: 'Rating must be a whole number from 1 to 5',
  commentMax: 'Comment must be at most 2000 characters',
  duplicate: 'You have already submitted a review for this product',
  created: 'Review submitted successfully',
} as const;
export const REVIEW_RATING_LABELS = { 1: 'Poor', 2: 'Fair', 3: 'Good', 4: 'Very good', 5: 'Excellent' } as const;

// ---------------------------------------------------------------------------------------------
// Upload
// ---------------------------------------------------------------------------------------------

export const UPLOAD_MAX_MB = 5;
export const UPLOAD_MESSAGES = {
  tooLarge: `File too large (max ${UPLOAD_MAX_MB} MB)`,
  noFile: "No file uploaded: send the image as multipart field 'file'",
  notImage: 'File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)',
  tooManyPixels: 'Image dimensions are too large',
} as const;

// ---------------------------------------------------------------------------------------------
// Cart
// ---------------------------------------------------------------------------------------------

export const CART_MAX_QUANTITY = 999;
export const CART_MAX_LINES = 100;

export const OUT_OF_STOCK_MESSAGE = 'Sorry. Product is out of stock';
export const PRODUCT_ID_REQUIRED_MESSAGE = 'Product ID is required to remove item from cart';
export const PRODUCT_NOT_FOUND_MESSAGE = 'Product not found';
export const CART_ITEM_NOT_FOUND_MESSAGE = 'Item not found in cart';

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

export const ADDRESS_LIMIT = 50;
export const DUPLICATE_ADDRESS_MESSAGE = 'This address already exists in your address book';
export const ADDRESS_NOT_FOUND_MESSAGE = 'Address not found';
export const ADDRESS_DELETED_MESSAGE = 'Address deleted successfully';

// ---------------------------------------------------------------------------------------------
// Orders and payment
// ---------------------------------------------------------------------------------------------

export const PAYMENT_PROVIDERS = ['paypal', 'demo'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_METHODS = ['PayPal'] as const;
export const DEFAULT_PAYMENT_METHOD = 'PayPal';

export const DEMO_CLIENT_ID = 'demo';
export const DEMO_PAYMENT_LABEL = 'Demo payment: no money is taken';

export const ORDER_MESSAGES = {
  notFound: 'Order Not Found',
  cartEmpty: 'Cart is empty',
  addressRequired: 'Shipping address is required',
  paid: 'Order is paid successfully',
  alreadyPaid: 'Order is paid',
  delivered: 'Order is delivered',
  undelivered: 'Order status updated to not delivered',
  deleted: 'Order deleted successfully',
  notPaid: 'Order is not paid yet',
  expired: 'This order has expired. Please place a new order.',
  productsUnavailable: 'Some products in your cart are no longer available. Please review your cart.',
  paypalError: 'Error in connecting to PayPal',
  paymentNotCompleted: 'The PayPal payment was not completed',
  paymentMismatch: 'The PayPal payment does not match this order',
  paymentReused: 'This payment has already been used for another order',
  demoDisabled: 'Demo payments are disabled on this server',
  demoUnavailable: 'Demo payments are not available: pay with PayPal',
  paypalUnavailable: 'PayPal is not configured on this server',
  paymentRequired: 'Payment details are required',
  paidNotDeletable: 'Refund or cancel a paid order before deleting it',
  cancelled: 'Order is cancelled',
  refunded: 'Refund recorded',
  noteAdded: 'Note added',
  alreadyCancelled: 'This order is already cancelled',
  cancelledNotPayable: 'This order has been cancelled: it can no longer be paid',
  cancelledWhilePaying: 'This order was cancelled while it was being paid: your payment has been refunded in full',
  deliveredNotCancellable: 'A delivered order cannot be cancelled: refund it instead',
  expiredNotCancellable: 'This order has expired: there is nothing to cancel',
  paidOwnerCancel: 'This order is paid: please contact us to cancel it',
  notRefundable: 'Only a paid order can be refunded',
  fullyRefunded: 'This order has been refunded in full',
  refundTooLarge: 'That is more than is left to refund on this order',
  refundEmpty: 'Choose the lines to refund or enter an amount',
  refundPending: 'A refund of this order is still waiting for PayPal\'s answer. It is asked again automatically; try again in a minute.',
  supplierSending: 'This order is being sent to the supplier right now. Try again in a minute.',
  paypalCheckFailed: 'PayPal could not be reached to check whether this order was paid. Try again in a moment.',
  paypalPending: 'The PayPal payment of this order is still pending at PayPal: it can be cancelled once PayPal has settled it.',
} as const;
