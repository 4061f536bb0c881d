import crypto from 'node:crypto';

/**
 * Links a carrier fetches without signing in (the voice provider's `<Play>`): the token carries
 * the audio id and an expiry, signed with HMAC-SHA256 under a key derived from the server secret
 * (AUTH_SECRET or DATA_DIR/auth-secret), so every process of a deployment makes and checks the
 * same links, and a link cannot be moved to another audio or made to last longer.
 *
 * Layout (37 bytes, 50 base64url characters): version 1 · audio id (16 bytes of the UUID) ·
 * expiry (uint32, Unix seconds) · the first 16 bytes of the HMAC of the 21 before.
 */
const VERSION = 1;
const BODY = 1 + 16 + 4;
const MAC = 16;
const TOKEN = /^[A-Za-z0-9_-]{50}$/;

export type PlaybackTokens = {
  sign(audioId: string, expiresAt: Date): string;
  /** The audio id of a genuine token, or why it is refused (a forged token is never "expired"). */
  verify(token: string, now: Date): { audioId: string; expiresAt: Date } | { refused: 'invalid' | 'expired' };
};

export function createPlaybackTokens(secret: string): PlaybackTokens {
  // A key of its own: a playback link says nothing about the login-code pepper it derives from.
  const key = crypto.createHmac('sha256', secret).update('ecoa:audio-playback-link:v1').digest();
  const mac = (body: Buffer) => crypto.createHmac('sha256', key).update(body).digest().subarray(0, MAC);
  return {
    sign(audioId, expiresAt) {
      const body = Buffer.alloc(BODY);
      body[0] = VERSION;
      Buffer.from(audioId.replaceAll('-', ''), 'hex').copy(body, 1);
      body.writeUInt32BE(Math.min(0xffffffff, Math.ceil(expiresAt.getTime() / 1000)), 17);
      return Buffer.concat([body, mac(body)]).toString('base64url');
    },
    verify(token, now) {
      if (!TOKEN.test(token)) return { refused: 'invalid' };
      const bytes = Buffer.from(token, 'base64url');
      const body = bytes.subarray(0, BODY);
      // The last character carries 4 unused bits: only the canonical spelling of a token is valid.
      if (bytes.length !== BODY + MAC || body[0] !== VERSION || bytes.toString('base64url') !== token) {
        return { refused: 'invalid' };
      }
      if (!crypto.timingSafeEqual(mac(body), bytes.subarray(BODY))) return { refused: 'invalid' };
      const expiresAt = new Date(body.readUInt32BE(17) * 1000);
      if (expiresAt.getTime() <= now.getTime()) return { refused: 'expired' };
      const hex = body.subarray(1, 17).toString('hex');
      const audioId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return { audioId, expiresAt };
    },
  };
}
