/**
 * Every table, gathered for drizzle (queries and drizzle-kit). Tables are defined beside
 * their feature in `modules/<feature>/<feature>.schema.ts` (the platform's own beside it).
 */

import * as audiosSchema from '../../modules/audios/audios.schema.ts';
import * as auditSchema from '../../modules/audit/audit.schema.ts';
import * as authSchema from '../../modules/auth/auth.schema.ts';
import * as campaignsSchema from '../../modules/campaigns/campaigns.schema.ts';
import * as channelsSchema from '../../modules/channels/channels.schema.ts';
import * as ledgerSchema from '../../modules/ledger/ledger.schema.ts';
import * as listsSchema from '../../modules/lists/lists.schema.ts';
import * as optOutsSchema from '../../modules/opt-outs/opt-outs.schema.ts';
import * as usersSchema from '../../modules/users/users.schema.ts';
import * as jobsSchema from '../jobs/jobs.schema.ts';

export const schema = {
  ...usersSchema,
  ...ledgerSchema,
  ...authSchema,
  ...listsSchema,
  ...optOutsSchema,
  ...auditSchema,
  ...channelsSchema,
  ...audiosSchema,
  ...campaignsSchema,
  ...jobsSchema,
};
