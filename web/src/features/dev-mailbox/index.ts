/** What other features may use of the development mailbox: they import this file, never its inner files (re-exports only). */
export { DevMailboxLink } from './components/DevMailboxLink';
