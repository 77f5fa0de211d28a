import type { Db } from '../../db/client.ts';
import type { TokenSigner } from '../../lib/tokens.ts';

/** What the session use cases need from app.ctx. */
export interface SessionDeps {
  db: Db;
  signer: TokenSigner;
  refreshTokenTtlDays: number;
  /** Told when a use case ended sessions of a user (app.ctx.recheckChatSockets: their chat sockets are checked again). */
  onSessionsEnded?: (userId: string) => void;
}

export interface RequestMeta {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}
