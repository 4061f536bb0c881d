import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, signUpAndSignIn } from './factories.test-support.ts';
import { killed, startEcoaServer } from './processes.test-support.ts';
import { remoteServer } from './remote-server.test-support.ts';
import { dbKind, isolatedDatabaseUrl, tempDir } from './server.test-support.ts';

/**
 * A rotating link served by two Ecoa processes on one PostgreSQL database: clicks arriving at
 * both at once still rotate exactly (each click's turn is the link's sequence's next value).
 * PostgreSQL only: a PGlite database belongs to one process.
 */
describe.skipIf(dbKind !== 'postgres')(`a rotating link across two server processes (${dbKind})`, () => {
  const children: ChildProcess[] = [];
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  afterAll(async () => {
    for (const child of children) await killed(child, 'SIGTERM');
    await own?.drop();
  });

  it('600 parallel clicks split between the processes give each of 3 targets exactly 200', async () => {
    own = await isolatedDatabaseUrl();
    const dataDirs = [tempDir(), tempDir()];
    const env = { DATABASE_URL: own!.url, LINK_CLICKS_PER_IP_PER_MINUTE: '100000' };
    const servers = await Promise.all(dataDirs.map((DATA_DIR) => startEcoaServer({ ...env, DATA_DIR })));
    children.push(...servers.map((s) => s.child));
    const bases = servers.map((s) => s.base);

    const server = remoteServer(bases[0]!, dataDirs[0]!);
    const { token, user } = await signUpAndSignIn(server);
    const slug = `dois-${user.id.slice(0, 8)}`;
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/rotating-links',
      headers: bearer(token),
      payload: {
        name: 'Dois processos',
        slug,
        targets: ['11987650201', '11987650202', '11987650203'].map((phone) => ({ kind: 'whatsapp', phone })),
      },
    });
    expect(created.statusCode, created.body).toBe(201);

    const answers = await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        fetch(`${bases[i % 2]}/l/${slug}`, {
          redirect: 'manual',
          headers: { 'user-agent': 'Mozilla/5.0 (Android 14) Mobile', 'x-forwarded-for': `10.7.${i >> 8}.${i & 255}` },
        }),
      ),
    );
    const counts: Record<string, number> = {};
    for (const a of answers) {
      expect(a.status).toBe(302);
      const digits = /wa\.me\/(\d+)/.exec(a.headers.get('location') ?? '')![1]!;
      counts[digits] = (counts[digits] ?? 0) + 1;
    }
    expect(counts).toEqual({ '5511987650201': 200, '5511987650202': 200, '5511987650203': 200 });
  }, 180_000);
});
