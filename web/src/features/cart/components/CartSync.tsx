/**
 * Keeps the cart in step with the session: loads the server cart for signed-in users and merges the
 * guest cart into it on sign-in. Mounted once in the layout. Implemented by the cart feature.
 */
export function CartSync() {
  return null;
}
