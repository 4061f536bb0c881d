import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MetricFamily } from './exposition.ts';

/** The event loop is sampled every 10 ms (Node's default). */
const LOOP_RESOLUTION_MS = 10;

/** When this process started, in seconds since the epoch (what Prometheus's `process_start_time_seconds` means). */
const PROCESS_START_SECONDS = Math.round(Date.now() / 1000 - process.uptime());

export type ProcessMetrics = {
  families(): MetricFamily[];
  /** Stops sampling the event loop (the server's close). */
  stop(): void;
};

/**
 * The process's standard metrics under their usual names (the ones Grafana's Node.js dashboards
 * read): memory, CPU, event loop lag, start time.
 */
export function createProcessMetrics(): ProcessMetrics {
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const nsToLagSeconds = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS) / 1000;

  return {
    families() {
      const cpu = process.cpuUsage();
      // The histogram records the time between its timer's runs: the lag is what exceeds the
      // resolution. It is reset at each scrape, so the figures cover the last scrape interval
      // (NaN before the first sample is taken; 0 is the truthful answer then).
      const lagMean = loop.count > 0 ? nsToLagSeconds(loop.mean) : 0;
      const lagMax = loop.count > 0 ? nsToLagSeconds(loop.max) : 0;
      loop.reset();
      return [
        {
          name: 'process_resident_memory_bytes',
          help: 'Resident memory size in bytes.',
          type: 'gauge',
          samples: [{ value: process.memoryUsage.rss() }],
        },
        {
          name: 'process_cpu_seconds_total',
          help: 'Total user and system CPU time spent in seconds.',
          type: 'counter',
          samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
        },
        {
          name: 'process_start_time_seconds',
          help: 'Start time of the process since unix epoch in seconds.',
          type: 'gauge',
          samples: [{ value: PROCESS_START_SECONDS }],
        },
        {
          name: 'nodejs_eventloop_lag_seconds',
          help: 'Mean event loop lag in seconds since the previous scrape.',
          type: 'gauge',
          samples: [{ value: lagMean }],
        },
        {
          name: 'nodejs_eventloop_lag_max_seconds',
          help: 'Largest event loop lag in seconds since the previous scrape.',
          type: 'gauge',
          samples: [{ value: lagMax }],
        },
      ];
    },
    stop() {
      loop.disable();
    },
  };
}
