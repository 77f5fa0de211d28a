// Texts of the chat widget that SPEC.md leaves open (issue 19 point 5); the spec's own chat texts are in @shop/contracts.

/** Who answers a customer or guest (issue 19): always shown in the widget. */
export const RESPONDER_TEXT = {
  admin: 'An administrator is answering',
  ai: 'Our assistant is answering…',
} as const;
export const SIGNED_OUT_TEXT = 'You have been signed out of the chat.';
export const SIGN_IN_TO_CHAT = 'Sign in to chat again';
/** Beside the sender of an assistant answer given because no administrator replied in time (the answer itself says an administrator will follow up). */
export const FALLBACK_LABEL = 'standing in for an administrator';
/** On an administrator's view of an assistant answer given because no administrator replied in time. */
export const FALLBACK_BADGE = 'Assistant stood in';
