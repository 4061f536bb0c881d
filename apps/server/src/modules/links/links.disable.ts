/**
 * The administrators' abuse switch, one rule for a rotating link and for a campaign's tracked
 * links alike: turning it off takes a reason (`LINK_DISABLE_REASON`), turning it on clears it;
 * the switch and its audit entry (`<kind>.disable` / `<kind>.enable`, from → to) are written in
 * one transaction.
 */
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { AuditChanges } from '../audit/index.ts';

/** The audit log's write, in the caller's transaction (the audit module's, wired by the composition root). */
export type LinksAudit = (
  entry: { actorId: string; subjectId: string; action: string; changes: AuditChanges },
  tx: DbOrTx,
) => Promise<void>;

/** The repository's write of the switch (the rotating links' and the tracked links' alike). */
type SwitchWriter = {
  setDisabled: (id: string, disabled: boolean, reason: string | null, now: Date, tx: DbOrTx) => Promise<unknown>;
};
/** What is switched, as it stands before. */
type Switched = { id: string; disabledAt: Date | null; disabledReason: string | null };

export async function setDisabledAudited(
  deps: { db: Database; clock: Clock; audit: LinksAudit; repo: SwitchWriter },
  change: { actorId: string; kind: 'link' | 'tracked_link'; target: Switched; disabled: boolean; reason?: string },
): Promise<void> {
  const { actorId, kind, target, disabled } = change;
  const reason = disabled ? (change.reason?.trim() ?? '') : null;
  if (reason === '') throw new AppError('LINK_DISABLE_REASON');
  await deps.db.transaction(async (tx) => {
    await deps.repo.setDisabled(target.id, disabled, reason, deps.clock.now(), tx);
    await deps.audit(
      {
        actorId,
        subjectId: target.id,
        action: `${kind}.${disabled ? 'disable' : 'enable'}`,
        changes: {
          disabled: { from: target.disabledAt !== null, to: disabled },
          reason: { from: target.disabledReason, to: reason },
        },
      },
      tx,
    );
  });
}
