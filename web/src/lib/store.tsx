import type { CjData, Product, User } from '@shop/contracts';
import type { DEFAULT_PAYMENT_METHOD as CONTRACT_DEFAULT_PAYMENT_METHOD } from '@shop/contracts/constants';
import { createContext, useContext, useEffect, useMemo, useReducer, useRef, type Dispatch, type ReactNode } from 'react';
import { THEME_COOKIE } from '@shop/contracts/theme';
import { readJson, removeKey, storageKeys, writeJson } from './storage';

/** One line of the cart (SPEC.md section 3, "Cart item"). */
export interface CartItem {
  _id: string;
  product?: Product;
  name: string;
  slug: string;
  image: string;
  price: number;
  countInStock: number;
  quantity: number;
  isOnSale: boolean;
  saleDiscount: number;
  isTodaysDeal: boolean;
  isGift: boolean;
  cjData?: CjData | null;
  /** The chosen variant of a supplier product (two variants of one product are two lines). */
  variantId?: string | null;
  variantName?: string | null;
}

/** Whether two cart lines are the same line: the same product and the same variant. */
export const sameCartLine = (a: Pick<CartItem, '_id' | 'variantId'>, b: Pick<CartItem, '_id' | 'variantId'>) =>
  a._id === b._id && (a.variantId ?? null) === (b.variantId ?? null);

/** A React key for a cart line. */
export const cartLineKey = (x: Pick<CartItem, '_id' | 'variantId'>) => (x.variantId ? `${x._id}:${x.variantId}` : x._id);

export interface ShippingAddress {
  _id?: string;
  fullName: string;
  address: string;
  city: string;
  postalCode: string;
  country: string;
}

export type Mode = 'light' | 'dark';
/**
 * The contract's default, written out because a run-time import would put the contract constants
 * into the initial chunk; the type makes the compiler check that the two agree.
 */
export const DEFAULT_PAYMENT_METHOD = 'PayPal' satisfies typeof CONTRACT_DEFAULT_PAYMENT_METHOD;

export interface StoreState {
  userInfo: User | null;
  isLoggedOut: boolean;
  mode: Mode;
  cart: {
    cartItems: CartItem[];
    shippingAddress: ShippingAddress | null;
    paymentMethod: string;
  };
  message: string | null;
  /**
   * Set while the state is the server-rendered one (the theme cookie's mode; the signed-in visitor and
   * their cart when the request carried a valid session, else nobody and an empty cart): the first
   * render in the browser hydrates exactly what the server sent, then the state stored in the browser
   * replaces it (RESTORE), keeping the server's user and cart when it had them.
   */
  pendingRestore?: true;
  /**
   * Set while nobody is known to be signed in but the page's request carried a session cookie (a page
   * that is the same for everyone, rendered for no one): the header shows neither Sign In nor a name
   * until the stored user or GET users/current says who it is (no flash of the wrong header).
   */
  sessionPending?: true;
}

export type StoreAction =
  | { type: 'RESTORE'; payload: StoreState }
  | { type: 'USER_SIGNIN'; payload: User }
  | { type: 'USER_UPDATE'; payload: User }
  | { type: 'USER_SIGNOUT' }
  /** Marks the session as ended without touching a guest's data (a failed refresh with nobody signed in). */
  | { type: 'SET_LOGGED_OUT' }
  /** The server answered who is signed in (nobody) or could not be asked: the header stops waiting. */
  | { type: 'SESSION_SETTLED' }
  | { type: 'TOGGLE_MODE' }
  | { type: 'CART_ADD_ITEM'; payload: CartItem }
  | { type: 'CART_REMOVE_ITEM'; payload: { _id: string; variantId?: string | null } }
  | { type: 'CART_SET_ITEMS'; payload: CartItem[] }
  | { type: 'CART_CLEAR' }
  | { type: 'SAVE_SHIPPING_ADDRESS'; payload: ShippingAddress | null }
  | { type: 'SAVE_PAYMENT_METHOD'; payload: string }
  | { type: 'SET_MESSAGE'; payload: string | null };

function initialMode(): Mode {
  const stored = readJson<Mode | null>(storageKeys.mode, null);
  if (stored === 'dark' || stored === 'light') return stored;
  // First visit: follow the operating system's preference (remembered from then on).
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function loadInitialState(): StoreState {
  return {
    userInfo: readJson<User | null>(storageKeys.userInfo, null),
    isLoggedOut: readJson<boolean>(storageKeys.isLoggedOut, false),
    mode: initialMode(),
    cart: {
      cartItems: readJson<CartItem[]>(storageKeys.cartItems, []),
      shippingAddress: readJson<ShippingAddress | null>(storageKeys.shippingAddress, null),
      paymentMethod: readJson<string>(storageKeys.paymentMethod, DEFAULT_PAYMENT_METHOD),
    },
    message: null,
  };
}

/** The signed-in visitor a page was rendered for (their session checked by the server) and their cart's lines. */
export interface ServerViewer {
  user: User;
  cartItems: CartItem[];
}

/**
 * The state a page is rendered with on the server, and hydrated with in the browser: the given theme,
 * and the visitor whose session the server checked with their cart, or nobody and an empty cart.
 */
export function serverInitialState(mode: Mode, viewer: ServerViewer | null = null, sessionPending = false): StoreState {
  return {
    userInfo: viewer?.user ?? null,
    isLoggedOut: false,
    mode,
    cart: { cartItems: viewer?.cartItems ?? [], shippingAddress: null, paymentMethod: DEFAULT_PAYMENT_METHOD },
    message: null,
    pendingRestore: true,
    ...(sessionPending && !viewer ? { sessionPending: true as const } : {}),
  };
}

/** The state without the wait for the session (someone is known, or known to be nobody). */
function settled(state: StoreState): StoreState {
  if (!state.sessionPending) return state;
  const { sessionPending: _settled, ...rest } = state;
  return rest;
}

/** The cookie the server reads to render the chosen theme (SSR); localStorage `mode` stays the client's own record. */
function writeModeCookie(mode: Mode): void {
  try {
    document.cookie = `${THEME_COOKIE}=${mode}; path=/; max-age=31536000; samesite=lax`;
  } catch {
    /* no document (tests without one) */
  }
}

export function storeReducer(state: StoreState, action: StoreAction): StoreState {
  switch (action.type) {
    case 'RESTORE':
      if (!state.pendingRestore) return state;
      // The server saw a valid session: it knows best who is signed in and what is in their cart
      // (which this browser does not keep for a signed-in user).
      if (state.userInfo) {
        return { ...action.payload, userInfo: state.userInfo, isLoggedOut: false, cart: { ...action.payload.cart, cartItems: state.cart.cartItems } };
      }
      // A session cookie came with the page and this browser stores nobody (or signed out here): still
      // waiting for users/current, unless it stores the user.
      return state.sessionPending && !action.payload.userInfo && !action.payload.isLoggedOut ? { ...action.payload, sessionPending: true } : action.payload;
    case 'USER_SIGNIN':
      return settled({ ...state, userInfo: action.payload, isLoggedOut: false });
    case 'USER_UPDATE':
      return { ...state, userInfo: action.payload };
    case 'SESSION_SETTLED':
      return settled(state);
    case 'USER_SIGNOUT':
      return {
        ...settled(state),
        userInfo: null,
        isLoggedOut: true,
        cart: { cartItems: [], shippingAddress: null, paymentMethod: DEFAULT_PAYMENT_METHOD },
        message: null,
      };
    case 'SET_LOGGED_OUT':
      return state.isLoggedOut ? settled(state) : settled({ ...state, isLoggedOut: true });
    case 'TOGGLE_MODE':
      return { ...state, mode: state.mode === 'dark' ? 'light' : 'dark' };
    case 'CART_ADD_ITEM': {
      const item = action.payload;
      const exists = state.cart.cartItems.some((x) => sameCartLine(x, item));
      const cartItems = exists ? state.cart.cartItems.map((x) => (sameCartLine(x, item) ? item : x)) : [...state.cart.cartItems, item];
      return { ...state, cart: { ...state.cart, cartItems } };
    }
    case 'CART_REMOVE_ITEM':
      return { ...state, cart: { ...state.cart, cartItems: state.cart.cartItems.filter((x) => !sameCartLine(x, action.payload)) } };
    case 'CART_SET_ITEMS':
      return { ...state, cart: { ...state.cart, cartItems: action.payload } };
    case 'CART_CLEAR':
      return { ...state, cart: { ...state.cart, cartItems: [] } };
    case 'SAVE_SHIPPING_ADDRESS':
      return { ...state, cart: { ...state.cart, shippingAddress: action.payload } };
    case 'SAVE_PAYMENT_METHOD':
      return { ...state, cart: { ...state.cart, paymentMethod: action.payload } };
    case 'SET_MESSAGE':
      return { ...state, message: action.payload };
    default:
      return state;
  }
}

const StoreContext = createContext<{ state: StoreState; dispatch: Dispatch<StoreAction> } | null>(null);

/** Client state (SPEC.md "Client state"), persisted to localStorage under the spec's keys. */
export function StoreProvider({ children, initialState }: { children: ReactNode; initialState?: StoreState }) {
  const [state, dispatch] = useReducer(storeReducer, initialState ?? loadInitialState());
  // The guest cart as read from localStorage at start is written back only once it changes: the app
  // mounts a moment after it reads, and writing the same cart again then could only overwrite a
  // newer one saved meanwhile (by another tab).
  const cartAsLoaded = useRef(initialState ? null : state.cart.cartItems);

  // After hydration: the state stored in this browser replaces the server-rendered one.
  useEffect(() => {
    if (!state.pendingRestore) return;
    const stored = loadInitialState();
    cartAsLoaded.current = stored.cart.cartItems;
    dispatch({ type: 'RESTORE', payload: stored });
  }, [state.pendingRestore]);

  useEffect(() => {
    if (state.pendingRestore) return;
    writeJson(storageKeys.userInfo, state.userInfo);
    writeJson(storageKeys.isLoggedOut, state.isLoggedOut);
    writeJson(storageKeys.mode, state.mode);
    writeJson(storageKeys.paymentMethod, state.cart.paymentMethod);
    writeJson(storageKeys.shippingAddress, state.cart.shippingAddress);
    // Guests keep the cart locally; signed-in users' carts live on the server.
    if (state.userInfo) removeKey(storageKeys.cartItems);
    else if (state.cart.cartItems !== cartAsLoaded.current) writeJson(storageKeys.cartItems, state.cart.cartItems);
  }, [state]);

  useEffect(() => {
    // The page's theme was set before the first paint (index.html's theme script, the server's cookie).
    if (state.pendingRestore) return;
    document.documentElement.setAttribute('data-bs-theme', state.mode);
    writeModeCookie(state.mode);
  }, [state.mode, state.pendingRestore]);

  const value = useMemo(() => ({ state, dispatch }), [state]);
  return <StoreContext.Provider value={value}>{children}</StoreContext.Provider>;
}

export function useStore() {
  const ctx = useContext(StoreContext);
  if (!ctx) throw new Error('useStore must be used inside StoreProvider');
  return ctx;
}
