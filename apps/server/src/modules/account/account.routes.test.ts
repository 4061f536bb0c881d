import crypto from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bearer, readLoginCode, requestCode, signUpAndSignIn, uniqueIp } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import { createTestServer, dbKind, tempDir, testConfig } from '../../../test/server.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const HOUR = 3_600_000;
const AVATAR_LINK = /^http:\/\/localhost:3000\/api\/v1\/avatars\/[0-9a-f]{32}\.webp$/;

/** Real small images, made by sharp: a gradient-ish picture in the asked format. */
async function image(format: 'png' | 'jpeg' | 'webp' | 'gif', width = 600, height = 400): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 20, g: 160, b: 120 } } }).composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fa5"/></svg>`,
      ),
    },
  ]);
  return base.toFormat(format).toBuffer();
}

/**
 * A 12-megapixel JPEG (4000×3000, a phone camera's size) just under `maxBytes`: smooth random
 * blotches, which compress about like a photo, at the best quality that fits.
 */
async function photoJpeg(maxBytes: number): Promise<Buffer> {
  const [width, height] = [4000, 3000];
  const pixels = await sharp(crypto.randomBytes(500 * 375 * 3), { raw: { width: 500, height: 375, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let quality = 70; ; quality -= 5) {
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= maxBytes) return jpeg;
  }
}

/** A valid 1×1 PNG whose header claims `width`×`height` (CRC fixed): tiny file, huge decode. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await image('png', 1, 1));
  // IHDR data starts at byte 16 (8 signature + 4 length + 4 type); its CRC follows the 13 bytes.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

describe(`account settings: profile, picture, sessions (${dbKind})`, () => {
  const clock = createManualClock(new Date('2031-05-01T12:00:00Z'));
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ clock }),
    (opened) => (server = opened),
  );

  const inject = (
    method: 'GET' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    token?: string,
    extra: { payload?: unknown; headers?: Record<string, string> } = {},
  ) =>
    server.app.inject({
      method,
      url,
      headers: { ...(token ? bearer(token) : {}), ...extra.headers },
      ...(extra.payload === undefined ? {} : { payload: extra.payload as string }),
    });

  const upload = (token: string | undefined, content: Buffer, filename = 'foto.png') => {
    const form = multipart([{ name: 'file', filename, content }]);
    return inject('PUT', '/api/v1/me/avatar', token, { payload: form.payload, headers: form.headers });
  };

  async function userRow(id: string) {
    const { rows } = await server.db.executeSql(
      'select name, fantasy_name, full_name, mobile_phone, cnpj, email, profile_image_path from users where id = $1',
      [id],
    );
    return rows[0] as Record<string, string | null>;
  }

  /** Signs an existing account in again from another "device". */
  async function signInFrom(email: string, userAgent: string, ip = uniqueIp()): Promise<string> {
    const requested = await requestCode(server, email, ip);
    expect(requested.statusCode).toBe(200);
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, code: readLoginCode(server, email) },
      headers: { 'user-agent': userAgent },
      remoteAddress: ip,
    });
    expect(login.statusCode, login.body).toBe(200);
    return login.json().accessToken;
  }

  const avatarPath = (link: string) => new URL(link).pathname;

  describe('profile', () => {
    it('shows the full name, company, e-mail, CNPJ and mobile phone (digits), no picture yet', async () => {
      const { token, user, email } = await signUpAndSignIn(server, { fullName: 'Ana Souza', name: 'Acme Ltda' });
      const res = await inject('GET', '/api/v1/me/profile', token);
      expect(res.statusCode).toBe(200);
      const stored = await userRow(user.id);
      expect(res.json()).toEqual({
        fullName: 'Ana Souza',
        name: 'Acme Ltda',
        email,
        cnpj: stored.cnpj,
        mobilePhone: '11987654321',
        userProfileImageLink: null,
      });
      expect(res.json().cnpj).toMatch(/^\d{14}$/);
    });

    it('changes the full name, company (and fantasy name) and phone; /api/me follows', async () => {
      const { token, user } = await signUpAndSignIn(server);
      const before = await userRow(user.id);
      const res = await inject('PATCH', '/api/v1/me/profile', token, {
        payload: { fullName: '  João Pereira ', name: 'Pereira & Filhos', mobilePhone: '(21) 99876-5432' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        fullName: 'João Pereira',
        name: 'Pereira & Filhos',
        mobilePhone: '21998765432',
      });
      expect(await userRow(user.id)).toMatchObject({
        full_name: 'João Pereira',
        name: 'Pereira & Filhos',
        fantasy_name: 'Pereira & Filhos',
        mobile_phone: '21998765432',
        email: before.email,
        cnpj: before.cnpj,
      });
      expect((await inject('GET', '/api/me', token)).json().name).toBe('Pereira & Filhos');

      // A PATCH may send one field; the others stay.
      const one = await inject('PATCH', '/api/v1/me/profile', token, { payload: { fullName: 'João P.' } });
      expect(one.json()).toMatchObject({ fullName: 'João P.', name: 'Pereira & Filhos', mobilePhone: '21998765432' });
    });

    it('never changes the e-mail or the CNPJ, whatever is sent', async () => {
      const { token, user } = await signUpAndSignIn(server);
      const before = await userRow(user.id);
      const res = await inject('PATCH', '/api/v1/me/profile', token, {
        payload: { fullName: 'Outra Pessoa', email: 'someone-else@ecoa.test', cnpj: '11222333000181' },
      });
      expect(res.statusCode).toBe(200);
      const after = await userRow(user.id);
      expect(after.email).toBe(before.email);
      expect(after.cnpj).toBe(before.cnpj);
      expect(after.full_name).toBe('Outra Pessoa');
    });

    const bad: [string, Record<string, unknown>, string][] = [
      ['full name empty', { fullName: '' }, '* Nome completo é obrigatório'],
      ['full name blank', { fullName: '   ' }, '* Nome completo é obrigatório'],
      ['company empty', { name: '' }, '* Empresa é obrigatório'],
      ['company not text', { name: 42 }, '* Empresa é obrigatório'],
      ['phone with 10 digits', { mobilePhone: '(11) 9876-5432' }, '* Número do Celular é obrigatório'],
      ['phone with 12 digits', { mobilePhone: '119876543210' }, '* Número do Celular é obrigatório'],
      ['phone without digits', { mobilePhone: 'abc' }, '* Número do Celular é obrigatório'],
      ['phone empty', { mobilePhone: '' }, '* Número do Celular é obrigatório'],
    ];
    it.each(bad)('refuses a %s with the sign-up message, and changes nothing', async (_label, change, message) => {
      const { token, user } = await signUpAndSignIn(server);
      const before = await userRow(user.id);
      const res = await inject('PATCH', '/api/v1/me/profile', token, {
        payload: { fullName: 'Nome Novo', name: 'Empresa Nova', mobilePhone: '31988887777', ...change },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
      expect(await userRow(user.id)).toEqual(before);
    });

    it('answers 401 without a session, before looking at the body', async () => {
      expect((await inject('GET', '/api/v1/me/profile')).statusCode).toBe(401);
      const res = await inject('PATCH', '/api/v1/me/profile', undefined, { payload: { fullName: '' } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    });
  });

  describe('profile picture', () => {
    it('stores a PNG as a 256×256 WebP behind a public, unguessable, cached link; /api/me shows it', async () => {
      const { token } = await signUpAndSignIn(server);
      const res = await upload(token, await image('png'));
      expect(res.statusCode, res.body).toBe(200);
      const link = res.json().userProfileImageLink as string;
      expect(link).toMatch(AVATAR_LINK);
      expect((await inject('GET', '/api/me', token)).json().userProfileImageLink).toBe(link);

      // No Authorization header: an <img> loads it as it is.
      const file = await inject('GET', avatarPath(link));
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/webp');
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(file.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(file.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
      expect(meta.exif).toBeUndefined();
    });

    it('accepts JPEG and WebP too; every upload gets a new link and the old file is gone', async () => {
      const { token, user } = await signUpAndSignIn(server);
      const first = (await upload(token, await image('jpeg', 300, 900), 'foto.jpg')).json().userProfileImageLink;
      const second = await upload(token, await image('webp', 1024, 256), 'foto.webp');
      expect(second.statusCode, second.body).toBe(200);
      const link = second.json().userProfileImageLink;
      expect(link).toMatch(AVATAR_LINK);
      expect(link).not.toBe(first);
      expect((await inject('GET', avatarPath(first))).statusCode).toBe(404);
      expect((await inject('GET', avatarPath(link))).statusCode).toBe(200);
      expect((await userRow(user.id)).profile_image_path).toBe(avatarPath(link).slice(1));
      const meta = await sharp((await inject('GET', avatarPath(link))).rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([256, 256]);
    });

    it('goes by content, not by name or declared type: a .jpg that is really a PNG is fine', async () => {
      const { token } = await signUpAndSignIn(server);
      const form = multipart([{ name: 'file', filename: 'foto.jpg', content: await image('png') }]);
      const res = await inject('PUT', '/api/v1/me/avatar', token, { payload: form.payload, headers: form.headers });
      expect(res.statusCode, res.body).toBe(200);
    });

    async function expectRefused(content: Buffer, filename: string, status: number, code: string) {
      const { token, user } = await signUpAndSignIn(server);
      const kept = (await upload(token, await image('png'))).json().userProfileImageLink;
      const res = await upload(token, content, filename);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
      expect(res.json().message).toEqual(expect.any(String));
      // Nothing changed: the previous picture is still the one, and still served.
      expect((await userRow(user.id)).profile_image_path).toBe(avatarPath(kept).slice(1));
      expect((await inject('GET', avatarPath(kept))).statusCode).toBe(200);
      return res.json();
    }

    it('refuses a "PNG" that is really text (415)', async () => {
      const body = await expectRefused(
        Buffer.from('this is not an image, only text pretending\n'),
        'foto.png',
        415,
        'IMAGE_TYPE_NOT_ALLOWED',
      );
      expect(body.message).toBe('Formato de imagem não aceito. Envie PNG, JPEG ou WebP.');
    });

    it('refuses a real GIF (415)', async () => {
      const body = await expectRefused(await image('gif', 64, 64), 'anim.gif', 415, 'IMAGE_TYPE_NOT_ALLOWED');
      expect(body.details).toEqual({ detected: 'gif' });
    });

    it('refuses a file over 2 MB (413)', async () => {
      const big = Buffer.concat([await image('png'), Buffer.alloc(2 * 1024 * 1024)]);
      const body = await expectRefused(big, 'grande.png', 413, 'IMAGE_TOO_LARGE');
      expect(body.message).toBe('A imagem deve ter no máximo 2 MB.');
    });

    it('refuses a broken image (400) and one that would decode to over 50 megapixels (400)', async () => {
      const png = await image('png');
      await expectRefused(png.subarray(0, 120), 'cortada.png', 400, 'IMAGE_INVALID');
      await expectRefused(await pngClaiming(10_000, 10_000), 'bomba.png', 400, 'IMAGE_DIMENSIONS_TOO_LARGE');
    });

    it('asks for the file when none is sent (400), and needs a session (401)', async () => {
      const { token } = await signUpAndSignIn(server);
      const noFile = multipart([{ name: 'other', value: 'x' }]);
      const res = await inject('PUT', '/api/v1/me/avatar', token, { payload: noFile.payload, headers: noFile.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('IMAGE_REQUIRED');
      const json = await inject('PUT', '/api/v1/me/avatar', token, { payload: { file: 'x' } });
      expect(json.statusCode).toBe(400);
      expect(json.json().code).toBe('IMAGE_REQUIRED');
      expect((await upload(undefined, await image('png'))).statusCode).toBe(401);
      expect((await inject('DELETE', '/api/v1/me/avatar')).statusCode).toBe(401);
    });

    it('a 2 MB, 12-megapixel JPEG photo is resized in well under two seconds', async () => {
      const { token } = await signUpAndSignIn(server);
      const photo = await photoJpeg(2 * 1024 * 1024);
      expect(photo.length).toBeGreaterThan(1.7 * 1024 * 1024);
      const started = performance.now();
      const res = await upload(token, photo, 'foto.jpg');
      const ms = performance.now() - started;
      expect(res.statusCode, res.body).toBe(200);
      console.info(
        `[figure] ${dbKind}: upload + resize of a ${(photo.length / 1048576).toFixed(2)} MB 4000×3000 JPEG: ${ms.toFixed(0)} ms`,
      );
      expect(ms).toBeLessThan(2000);
    });

    it('removes the picture: the link is gone and the file answers 404', async () => {
      const { token, user } = await signUpAndSignIn(server);
      const link = (await upload(token, await image('png'))).json().userProfileImageLink;
      const res = await inject('DELETE', '/api/v1/me/avatar', token);
      expect(res.statusCode).toBe(200);
      expect(res.json().userProfileImageLink).toBeNull();
      expect((await inject('GET', '/api/me', token)).json().userProfileImageLink).toBeNull();
      expect((await userRow(user.id)).profile_image_path).toBeNull();
      const gone = await inject('GET', avatarPath(link));
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe('AVATAR_NOT_FOUND');
      // Removing again is harmless.
      expect((await inject('DELETE', '/api/v1/me/avatar', token)).statusCode).toBe(200);
    });

    it('serves only names it made: anything else is 404', async () => {
      for (const name of ['abc.webp', `${'a'.repeat(32)}.png`, '..%2F..%2Fpackage.json', `${'0'.repeat(32)}.webp`]) {
        const res = await inject('GET', `/api/v1/avatars/${name}`);
        expect(res.statusCode, name).toBe(404);
      }
    });

    it("lets the page's images come from PUBLIC_URL's origin (CSP img-src)", async () => {
      const res = await inject('GET', '/');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/img-src 'self' data: blob: http:\/\/localhost:3000(;|$)/);
    });
  });

  describe('sessions', () => {
    it("lists the user's live sessions, this one first, with device, IP and times", async () => {
      const { email } = await signUpAndSignIn(server);
      const laptopIp = uniqueIp();
      const laptop = await signInFrom(email, CHROME_LINUX, laptopIp);
      clock.advance(5 * 60_000);
      const phone = await signInFrom(email, SAFARI_IPHONE);
      const res = await inject('GET', '/api/v1/me/sessions', laptop);
      expect(res.statusCode).toBe(200);
      const { items } = res.json();
      expect(items).toHaveLength(3);
      expect(items[0]).toMatchObject({
        current: true,
        ip: laptopIp,
        userAgent: CHROME_LINUX,
        device: { browser: 'Chrome', os: 'Linux', kind: 'desktop' },
        remainLogin: false,
      });
      expect(items[1]).toMatchObject({ current: false, device: { browser: 'Safari', os: 'iOS', kind: 'mobile' } });
      expect(items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      for (const s of items) {
        expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(new Date(s.createdAt).getTime()).not.toBeNaN();
        expect(new Date(s.lastSeenAt).getTime()).not.toBeNaN();
      }
      // The phone sees the same sessions, itself first.
      const fromPhone = (await inject('GET', '/api/v1/me/sessions', phone)).json().items;
      expect(fromPhone[0]).toMatchObject({ current: true, device: { browser: 'Safari' } });
    });

    it('signs another device out: its token stops working at once, the list shrinks', async () => {
      const { email, token } = await signUpAndSignIn(server);
      const other = await signInFrom(email, SAFARI_IPHONE);
      const otherId = (await inject('GET', '/api/v1/me/sessions', other)).json().items[0].id;
      const res = await inject('DELETE', `/api/v1/me/sessions/${otherId}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ current: false });
      expect((await inject('GET', '/api/me', other)).statusCode).toBe(401);
      expect((await inject('GET', '/api/me', token)).statusCode).toBe(200);
      const items = (await inject('GET', '/api/v1/me/sessions', token)).json().items;
      expect(items.map((s: { id: string }) => s.id)).not.toContain(otherId);
      // Ending it again: it is over, 404.
      const again = await inject('DELETE', `/api/v1/me/sessions/${otherId}`, token);
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('SESSION_NOT_FOUND');
    });

    it("never shows nor ends another user's session: 404, and it keeps working", async () => {
      const alice = await signUpAndSignIn(server);
      const bob = await signUpAndSignIn(server);
      const bobSessions = (await inject('GET', '/api/v1/me/sessions', bob.token)).json().items;
      const aliceIds = (await inject('GET', '/api/v1/me/sessions', alice.token))
        .json()
        .items.map((s: { id: string }) => s.id);
      expect(aliceIds).not.toContain(bobSessions[0].id);

      const res = await inject('DELETE', `/api/v1/me/sessions/${bobSessions[0].id}`, alice.token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'SESSION_NOT_FOUND', message: 'Sessão não encontrada ou já encerrada.' });
      expect((await inject('GET', '/api/me', bob.token)).statusCode).toBe(200);

      expect((await inject('DELETE', `/api/v1/me/sessions/${crypto.randomUUID()}`, alice.token)).statusCode).toBe(404);
      const notUuid = await inject('DELETE', '/api/v1/me/sessions/not-a-uuid', alice.token);
      expect(notUuid.statusCode).toBe(400);
      expect(notUuid.json().code).toBe('VALIDATION_FAILED');
    });

    it('signs this device out when asked for its own session', async () => {
      const { token } = await signUpAndSignIn(server);
      const mine = (await inject('GET', '/api/v1/me/sessions', token)).json().items[0];
      const res = await inject('DELETE', `/api/v1/me/sessions/${mine.id}`, token);
      expect(res.json()).toEqual({ current: true });
      expect((await inject('GET', '/api/me', token)).statusCode).toBe(401);
    });

    it("signs out of all devices, this one included, and no one else's", async () => {
      const { email, token } = await signUpAndSignIn(server);
      const second = await signInFrom(email, SAFARI_IPHONE);
      const third = await signInFrom(email, CHROME_LINUX);
      const stranger = await signUpAndSignIn(server);
      const res = await inject('DELETE', '/api/v1/me/sessions', second);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ended: 3 });
      for (const t of [token, second, third]) expect((await inject('GET', '/api/me', t)).statusCode).toBe(401);
      expect((await inject('GET', '/api/me', stranger.token)).statusCode).toBe(200);
    });

    it('leaves expired sessions out', async () => {
      const { email, token } = await signUpAndSignIn(server, { remainLogin: true });
      await signInFrom(email, SAFARI_IPHONE); // 12 hours
      expect((await inject('GET', '/api/v1/me/sessions', token)).json().items).toHaveLength(2);
      clock.advance(13 * HOUR);
      const items = (await inject('GET', '/api/v1/me/sessions', token)).json().items;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ current: true, remainLogin: true });
    });

    it('needs a session (401)', async () => {
      expect((await inject('GET', '/api/v1/me/sessions')).statusCode).toBe(401);
      expect((await inject('DELETE', '/api/v1/me/sessions')).statusCode).toBe(401);
      expect((await inject('DELETE', `/api/v1/me/sessions/${crypto.randomUUID()}`)).statusCode).toBe(401);
    });
  });
});

describe.runIf(dbKind === 'postgres')('profile pictures across server processes (postgres)', () => {
  it('a picture uploaded through one process is served by another sharing DATA_DIR', async () => {
    const dataDir = tempDir('ecoa-avatars-');
    const a = await createTestServer({ config: testConfig({ DATA_DIR: dataDir }), work: false });
    const b = await createTestServer({ config: testConfig({ DATA_DIR: dataDir }), work: false });
    try {
      const { token } = await signUpAndSignIn(a);
      const form = multipart([{ name: 'file', filename: 'f.png', content: await image('png') }]);
      const res = await a.app.inject({
        method: 'PUT',
        url: '/api/v1/me/avatar',
        headers: { ...bearer(token), ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      const url = new URL(res.json().userProfileImageLink).pathname;
      // The other process knows the user's link (same database) and has the file (same DATA_DIR).
      expect((await b.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).json()).toMatchObject({
        userProfileImageLink: res.json().userProfileImageLink,
      });
      const served = await b.app.inject({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
