/**
 * The Prometheus text exposition format, version 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): one `# HELP` and one `# TYPE`
 * line per metric family, then its samples `name{label="value",…} value`.
 * Written by hand instead of pulling in prom-client: the format is a few lines, and the
 * request path (http-metrics.ts) then costs a Map lookup and an increment.
 */

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';

export type Labels = Readonly<Record<string, string>>;

export type Sample = {
  /** Appended to the family name: `_bucket`, `_sum`, `_count` for a histogram's series. */
  suffix?: string;
  labels?: Labels;
  value: number;
};

export type MetricFamily = {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
};

/** A label value may hold anything: the spec escapes backslash, double quote and line feed. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
}

/** HELP text escapes backslash and line feed (a double quote stays as it is). */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\\' ? '\\\\' : '\\n'));
}

/** Go's float formatting as Prometheus reads it: `+Inf`, `-Inf`, `NaN`, else the shortest decimal. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

export function formatLabels(labels: Labels | undefined): string {
  if (!labels) return '';
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(labels)) pairs.push(`${name}="${escapeLabelValue(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

export function renderFamily(family: MetricFamily): string {
  let out = `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`;
  for (const sample of family.samples) {
    out += `${family.name}${sample.suffix ?? ''}${formatLabels(sample.labels)} ${formatValue(sample.value)}\n`;
  }
  return out;
}

export function renderExposition(families: readonly MetricFamily[]): string {
  return families.map(renderFamily).join('');
}
