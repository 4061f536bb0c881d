/**
 * For the supervisor's tests: a campaigns server whose own supervisor timer is off, and supervisors
 * made on it with the server's real parts (repository, ledger, lifecycle, dispatcher, and the
 * dispatcher's worker id) whose log the test reads. A test runs each pass itself, at the manual
 * clock's time, so nothing moves between its steps but what the test does.
 */
import { randomUUID } from 'node:crypto';
import { createManualClock } from '../../platform/clock/clock.ts';
import { createLogger } from '../../platform/logger.ts';
import { createChannelsRepository } from '../channels/channels.repository.ts';
import { dispatchQueue } from './campaigns.jobs.ts';
import { type CampaignsRepository, createCampaignsRepository } from './campaigns.repository.ts';
import { createCampaignSupervisor } from './campaigns.supervisor.ts';
import {
  campaignsUser,
  freshMobiles,
  importList,
  MONDAY_8AM,
  smsCampaign,
  startCampaignsServer,
  WORKDAYS,
} from './campaigns.test-support.ts';

/** One JSON line of the supervisor's log. */
export type LogLine = {
  level: number;
  msg: string;
  campaignId?: string;
  step?: string;
  recipients?: number;
  err?: { message: string };
};
export const INFO = 30;
export const WARN = 40;
export const ERROR = 50;

export type SupervisorRig = Awaited<ReturnType<typeof openSupervisorRig>>;

export async function openSupervisorRig() {
  const clock = createManualClock(MONDAY_8AM);
  const server = await startCampaignsServer({ clock });
  const sql = async <T>(text: string, params: unknown[] = []) => (await server.db.executeSql(text, params)).rows as T[];
  // The dispatcher claims under this process's worker id: the supervisors here beat for it.
  const [worker] = await sql<{ id: string }>('select id from dispatch_workers');
  if (!worker) throw new Error('the server did not register its worker');
  await server.modules.supervisor.stop();
  const repo = createCampaignsRepository(server.db.db);
  const logs: LogLine[] = [];
  const logger = createLogger('info', false, { write: (line: string) => void logs.push(JSON.parse(line)) });

  /** A supervisor on the server's parts; `hooks` replace repository reads to play another process's move in between. */
  function supervisor(hooks: Partial<CampaignsRepository> = {}) {
    return createCampaignSupervisor({
      db: server.db.db,
      repo: { ...repo, ...hooks },
      store: createChannelsRepository(server.db.db),
      ledger: server.modules.ledger,
      lifecycle: server.modules.campaigns,
      dispatcher: server.modules.dispatcher,
      sweepEarlyReceipts: () => server.modules.channels.sweepEarlyReceipts(),
      workerId: worker!.id,
      singleProcess: false,
      share: server.modules.supervisor.share,
      carriers: server.providers.carriers,
      clock,
      logger,
    });
  }

  /** Dispatch jobs ever queued for the campaign, once none is open (the dispatcher ran each one). */
  async function dispatchJobs(campaignId: string, timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await sql<{ total: number; open: number }>(
        `select count(*)::int as total, (count(*) filter (where state in ('created', 'retry', 'active')))::int as open
           from pgboss.job where name = $1 and data->>'campaignId' = $2`,
        [dispatchQueue.name, campaignId],
      );
      if (row && row.open === 0) return row.total;
      if (Date.now() > deadline) throw new Error(`campaign ${campaignId}: dispatch jobs still open`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * A campaign of `recipients` one-part SMS, started with the clock at Monday 08:00 (its window,
   * WORKDAYS, closed): RUNNING with every recipient queued, the dispatch jobs of its start ended.
   */
  async function waitingCampaign(recipients: number, schedule?: Date) {
    clock.set(MONDAY_8AM);
    const { user, api } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, freshMobiles(recipients));
    const id = await api.create({
      ...smsCampaign('Supervisão', list),
      window: WORKDAYS,
      ...(schedule ? { schedule: schedule.toISOString() } : {}),
    });
    await api.move(id, 'start');
    if (!schedule) await dispatchJobs(id);
    return { id, user, api };
  }

  return {
    server,
    clock,
    repo,
    sql,
    logs,
    workerId: worker.id,
    supervisor,
    dispatchJobs,
    waitingCampaign,
    /** A worker that never beat (or stopped): what it claimed is cut off. */
    deadWorker: () => randomUUID(),
    logsOf: (campaignId: string, level: number) => logs.filter((l) => l.campaignId === campaignId && l.level === level),
    heartbeatOf: async (campaignId: string) =>
      (await sql<{ heartbeat_at: unknown }>('select heartbeat_at from campaigns where id = $1', [campaignId]))[0]
        ?.heartbeat_at ?? null,
    close: () => server.close(),
  };
}
