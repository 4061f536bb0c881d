/**
 * The auth module's public surface: the module as the composition root builds it, its service
 * (sessions are ended and listed through it) and the rule of a live session, which `/api/me` joins
 * in one statement (users.repository.ts).
 */
export { type AuthModule, createAuthModule } from './auth.module.ts';
export { type LiveSession, liveSessionColumns, liveSessionCondition } from './auth.repository.ts';
export { sessions } from './auth.schema.ts';
export { type AuthService, createAuthService, type SessionSummary } from './auth.service.ts';
