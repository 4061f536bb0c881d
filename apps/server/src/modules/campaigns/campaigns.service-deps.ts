/**
 * What the campaigns service is built from: apart from the service so the lifecycle and the
 * dispatcher read it without importing the service (no cycle).
 */

import type { CampaignCounts } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database, DbOrTx, Tx } from '../../platform/db/client.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditChanges } from '../audit/index.ts';
import type { MessageTallies, ProviderRegistry } from '../channels/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';

/** Loops per campaign per process: a start queues four; a job pg-boss retried after its expiry adds none. */
export const MAX_LOOPS_PER_CAMPAIGN = 4;

export type CampaignsServiceDeps = {
  db: Database;
  repo: CampaignsRepository;
  ledger: Pick<LedgerService, 'reserve' | 'capture' | 'release' | 'getBalances'>;
  providers: Pick<ProviderRegistry, 'forChannel'>;
  /** A campaign's recipients counted per status and reason (the channels module's tallies). */
  tallies: Pick<MessageTallies, 'campaigns'>;
  /** Whether the user owns this audio (the audios module). */
  audioExists: (userId: string, audioId: string) => Promise<boolean>;
  /** Whether the user owns this live rotating link (the links module), for a tracked `{link}`. */
  rotatingLinkExists: (userId: string, linkId: string) => Promise<boolean>;
  /** The address tracked links are under (`PUBLIC_URL/l/_<code>`). */
  publicUrl: string;
  jobs: Pick<Jobs, 'send' | 'wake'>;
  /** Records an administrator's action on a campaign, in the caller's transaction. */
  audit: (
    entry: { actorId: string; subjectId: string; action: string; changes: AuditChanges },
    tx: Tx,
  ) => Promise<void>;
  /**
   * This process's dispatcher stops handing the campaign's recipients over (called right after
   * a pause or cancel commits, before it is answered; other processes see it within a second).
   */
  halt: (campaignId: string) => void;
  /**
   * Locks the user's audio for the rest of the transaction (shared), false when it is gone: a
   * start and the audio's delete (which locks it and asks whether a campaign plays it) serialise.
   */
  lockAudio: (userId: string, audioId: string, tx: Tx) => Promise<boolean>;
  /** How many dispatching processes are alive (a start queues a dispatch job for each, and at least four). */
  liveWorkers: () => number;
  clock: Clock;
  logger: Logger;
  /** A campaign started, paused, completed or was canceled (the customer's webhooks), in the move's transaction. */
  onStatus: CampaignStatusListener;
};

export type CampaignStatusEvent = 'started' | 'paused' | 'completed' | 'canceled';
export type CampaignStatusListener = (
  campaign: Pick<CampaignRow, 'id' | 'userId' | 'name'>,
  status: CampaignStatusEvent,
  counts: CampaignCounts,
  tx: DbOrTx,
) => Promise<void>;
