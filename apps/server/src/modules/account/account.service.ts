import {
  type AccountProfile,
  PROFILE_IMAGE_MAX_BYTES,
  PROFILE_IMAGE_SIZE,
  type ProfileUpdate,
  type SessionInfo,
} from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { SessionSummary } from '../auth/index.ts';
import type { AccountRepository, ProfileRow } from './account.repository.ts';
import type { AvatarStorage } from './avatar-storage.ts';
import { ImageDecodeError, type ProfileImages, sniffImage } from './profile-images.ts';

/** Where pictures are served from; `users.profile_image_path` holds this prefix plus the file name. */
export const AVATAR_ROUTE_PREFIX = 'api/v1/avatars/';
/** Decoded size cap: 50 megapixels is more than any phone photo that fits in 2 MB. */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** What the account settings need from the auth module's sessions. */
export type AccountSessions = {
  listSessions(userId: string, currentSessionId: string): Promise<SessionSummary[]>;
  endSession(userId: string, sessionId: string): Promise<void>;
  endAllSessions(userId: string): Promise<number>;
};

export type AccountServiceDeps = {
  repo: AccountRepository;
  images: ProfileImages;
  avatars: AvatarStorage;
  sessions: AccountSessions;
  publicUrl: string;
  logger: Logger;
};

/** The file name inside a stored path we wrote; null for any other (or no) path. */
export function avatarNameOf(imagePath: string | null | undefined): string | null {
  if (!imagePath?.startsWith(AVATAR_ROUTE_PREFIX)) return null;
  return imagePath.slice(AVATAR_ROUTE_PREFIX.length) || null;
}

/**
 * The signed-in user's own account (`/configuracoes`): profile, profile picture and sessions.
 * No HTTP and no SQL here; images go through the image adapter and the avatar storage.
 */
export function createAccountService(deps: AccountServiceDeps) {
  const { repo, images, avatars, sessions } = deps;
  const log = deps.logger.child({ module: 'account' });

  // The same absolute form as GET /api/me's userProfileImageLink (users.service toPublicUser).
  const linkOf = (imagePath: string | null) =>
    imagePath ? `${deps.publicUrl}/${imagePath.replace(/^\/+/, '')}` : null;

  const toProfile = (row: ProfileRow): AccountProfile => ({
    fullName: row.fullName,
    name: row.name,
    email: row.email,
    cnpj: row.cnpj,
    mobilePhone: row.mobilePhone,
    userProfileImageLink: linkOf(row.profileImagePath),
  });

  async function swapPicture(userId: string, imagePath: string | null): Promise<void> {
    const swapped = await repo.swapProfileImage(userId, imagePath);
    if (!swapped) {
      await avatars.remove(avatarNameOf(imagePath));
      throw new AppError('USER_NOT_FOUND');
    }
    // Best effort: a file left behind is never linked again (new uploads get new names).
    await avatars.remove(avatarNameOf(swapped.previous)).catch((err) => log.warn({ err }, 'old picture not removed'));
  }

  async function getProfile(userId: string): Promise<AccountProfile> {
    const row = await repo.findProfile(userId);
    if (!row) throw new AppError('USER_NOT_FOUND');
    return toProfile(row);
  }

  return {
    getProfile,

    /** Full name, company name and mobile phone; input already validated by the shared schema. */
    async updateProfile(userId: string, changes: ProfileUpdate): Promise<AccountProfile> {
      const clean = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const row = Object.keys(clean).length ? await repo.updateProfile(userId, clean) : await repo.findProfile(userId);
      if (!row) throw new AppError('USER_NOT_FOUND');
      log.info({ userId, fields: Object.keys(clean) }, 'profile updated');
      return toProfile(row);
    },

    /**
     * A new profile picture: PNG, JPEG or WebP by content, at most 2 MB, stored as a 256×256
     * WebP under a new name (so its link changes with every upload); the old file is removed.
     */
    async setPicture(userId: string, bytes: Buffer | undefined): Promise<AccountProfile> {
      if (!bytes || bytes.length === 0) throw new AppError('IMAGE_REQUIRED');
      if (bytes.length > PROFILE_IMAGE_MAX_BYTES)
        throw new AppError('IMAGE_TOO_LARGE', { maxBytes: PROFILE_IMAGE_MAX_BYTES });
      const kind = sniffImage(bytes);
      if (kind !== 'png' && kind !== 'jpeg' && kind !== 'webp') {
        throw new AppError('IMAGE_TYPE_NOT_ALLOWED', { detected: kind });
      }
      let webp: Buffer;
      const started = performance.now();
      try {
        webp = await images.toSquareWebp(bytes, PROFILE_IMAGE_SIZE);
      } catch (err) {
        if (err instanceof ImageDecodeError) {
          throw err.reason === 'too-many-pixels'
            ? new AppError('IMAGE_DIMENSIONS_TOO_LARGE')
            : new AppError('IMAGE_INVALID');
        }
        throw err;
      }
      const name = await avatars.save(webp);
      await swapPicture(userId, `${AVATAR_ROUTE_PREFIX}${name}`);
      log.info(
        { userId, kind, inBytes: bytes.length, outBytes: webp.length, ms: Math.round(performance.now() - started) },
        'profile picture set',
      );
      return getProfile(userId);
    },

    async removePicture(userId: string): Promise<AccountProfile> {
      await swapPicture(userId, null);
      return getProfile(userId);
    },

    /** A stored picture's bytes by its public file name; null when there is none. */
    readPicture: (fileName: string) => avatars.read(fileName),

    /** The user's live sessions, this one first, with the times as the API shows them (ISO 8601). */
    async listSessions(userId: string, currentSessionId: string): Promise<SessionInfo[]> {
      const list = await sessions.listSessions(userId, currentSessionId);
      return list.map((s) => ({
        ...s,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
      }));
    },

    /** Ends one of the user's sessions; `current` tells the caller it just signed itself out. */
    async endSession(userId: string, currentSessionId: string, sessionId: string): Promise<{ current: boolean }> {
      await sessions.endSession(userId, sessionId);
      return { current: sessionId === currentSessionId };
    },

    /** "Sign out of all devices": every session, this one included. */
    async endAllSessions(userId: string): Promise<{ ended: number }> {
      const ended = await sessions.endAllSessions(userId);
      log.info({ userId, ended }, 'signed out of all devices');
      return { ended };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
