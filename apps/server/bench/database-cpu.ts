/**
 * The CPU the PostgreSQL backends serving one database spend, while other work on the machine
 * (CI, other databases) uses the same server: every 250 ms the backends connected to this
 * database (`pg_stat_activity`) are read from /proc, and each one's CPU from when it was first
 * seen (or from 0 if it connected during the run) to when it was last seen is summed. A backend
 * that both connects and quits between two reads is missed; pools keep theirs open.
 */
import type { DbHandle } from '../src/platform/db/client.ts';
import { processCpuMs } from './smpp.bench.ts';

export function databaseCpu(db: DbHandle): { stop(): Promise<number> } {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let started = false;
  const sample = async () => {
    const { rows } = await db.executeSql('select pid from pg_stat_activity where datname = current_database()');
    for (const { pid } of rows as { pid: number }[]) {
      const cpu = processCpuMs(Number(pid));
      if (!first.has(pid)) first.set(pid, started ? 0 : cpu);
      last.set(pid, cpu);
    }
  };
  const ready = sample().then(() => {
    started = true;
  });
  const timer = setInterval(() => void sample().catch(() => {}), 250);
  return {
    async stop() {
      clearInterval(timer);
      await ready;
      await sample();
      let total = 0;
      for (const [pid, cpu] of last) total += cpu - (first.get(pid) ?? 0);
      return total;
    },
  };
}
