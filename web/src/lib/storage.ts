/** Typed localStorage access that never throws (private mode, quota, bad JSON). */
export const storageKeys = {
  isLoggedOut: 'isLoggedOut',
  userInfo: 'userInfo',
  cartItems: 'cartItems',
  mode: 'mode',
  paymentMethod: 'paymentMethod',
  shippingAddress: 'shippingAddress',
  cookieConsent: 'cookieConsent',
  adminStatus: 'adminStatus',
} as const;

export function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    if (value === undefined || value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage unavailable: state still lives in memory */
  }
}

export function removeKey(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    /* ignore */
  }
}
