import fs from 'node:fs';

/**
 * CPU seconds (user + system) the processes `pids` have used so far, from /proc (in clock ticks
 * of 1/100 s): the database backends serving a bench, which `process.cpuUsage()` cannot see.
 */
export function cpuSecondsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // A backend that ended: its CPU is lost to the figure (the pool keeps its connections).
    }
  }
  return ticks / 100;
}
