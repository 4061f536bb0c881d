import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `messages` has one owner, the channels module (docs/decisions/018-messages-owner.md): outside
 * it, only the files listed here may name it (or its satellites) in SQL, each for the access the
 * ADR gives it. A new reader or writer changes the ADR and this list together.
 */
const src = path.resolve(import.meta.dirname, '../src');

const TABLES = ['messages', 'message_events', 'early_receipts', 'inbound_messages', 'message_status_counts'];
type Access = 'read' | 'write';
type Use = { table: string; access: Access };

/** Outside modules/channels/: the files that may touch a table, and how (a writer may read it too). */
const ALLOWED: Record<string, Partial<Record<string, Access>>> = {
  // The dispatch core: snapshot, claim, unclaim, keep-alive, cancel (ADR 011, 018).
  'modules/campaigns/campaigns.recipients.repository.ts': { messages: 'write', message_events: 'read' },
  // The sending API's snapshot and the cancel of one queued message, in its batch's transaction (ADR 020).
  'modules/campaigns/campaigns.api-messages.repository.ts': { messages: 'write' },
  'modules/campaigns/campaigns.repository.ts': { messages: 'read' },
  'modules/campaigns/campaigns.reports.repository.ts': { messages: 'read', message_events: 'read' },
  // The hop's tracked-link code, one statement per click.
  'modules/links/links.repository.ts': { messages: 'read' },
};

const tableList = TABLES.join('|');
const WRITE = new RegExp(
  `\\b(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+(${tableList})\\b`,
  'gi',
);
const READ = new RegExp(`\\b(?:from|join)\\s+(${tableList})\\b`, 'gi');

/** The tables of `messages`' family a source text names in SQL, and how (comments ignored). */
export function messageTablesIn(text: string): Use[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const uses = new Map<string, Use>();
  for (const [, table] of code.matchAll(WRITE)) uses.set(`${table}`, { table: table!, access: 'write' });
  for (const [, table] of code.matchAll(READ))
    if (!uses.has(table!)) uses.set(table!, { table: table!, access: 'read' });
  return [...uses.values()];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|test-support)\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('messages has one owner (ADR 018)', () => {
  it('finds reads and writes in SQL text, not in comments', () => {
    expect(messageTablesIn('sql`select count(*) from messages m join message_events e on true`')).toEqual([
      { table: 'messages', access: 'read' },
      { table: 'message_events', access: 'read' },
    ]);
    expect(messageTablesIn("sql`UPDATE messages SET status = 'x'`; sql`delete from early_receipts`")).toEqual([
      { table: 'messages', access: 'write' },
      { table: 'early_receipts', access: 'write' },
    ]);
    expect(messageTablesIn('/** reads from messages */\n// update messages later\nconst a = 1;')).toEqual([]);
  });

  it('outside the channels module, only the files ADR 018 lists touch messages, each as it allows', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(src)) {
      const rel = path.relative(src, file).split(path.sep).join('/');
      if (rel.startsWith('modules/channels/')) continue;
      const text = fs.readFileSync(file, 'utf8');
      if (/from '[^']*channels\/channels\.schema\.ts'/.test(text)) offences.push(`${rel}: imports channels.schema.ts`);
      for (const use of messageTablesIn(text)) {
        const allowed = ALLOWED[rel]?.[use.table];
        if (!allowed || (use.access === 'write' && allowed !== 'write'))
          offences.push(`${rel}: ${use.access}s ${use.table}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
