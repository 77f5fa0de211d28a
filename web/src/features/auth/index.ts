/**
 * What other features may use of auth: they import this file, never auth's inner files (app/
 * composes its pages and guards directly). Re-exports only: nothing here may run on load, so
 * importing it adds only what is used to a chunk (the zod schemas stay behind lazyResolver).
 */
export { AuthCard } from './components/AuthCard';
export { FormField } from './components/FormField';
export { AdminRoute, Redirect } from './components/guards';
export { SubmitButton } from './components/SubmitButton';
export { useReplaceSessionUser } from './hooks/use-session-user';
export { alertMessageFor, applyFieldErrors } from './lib/apply-field-errors';
export { withRedirect } from './lib/redirect';
export { currentUserKey } from './api/get-current-user';
export { SessionSync } from './components/SessionSync';
