import { describe, expect, it } from 'vitest';
import { escapeHelp, escapeLabelValue, formatValue, renderFamily } from './exposition.ts';
import { createHttpMetrics } from './http-metrics.ts';

describe('the text exposition', () => {
  it('escapes backslash, double quote and line feed in label values, and nothing else', () => {
    expect(escapeLabelValue('a"b')).toBe('a\\"b');
    expect(escapeLabelValue('a\\b')).toBe('a\\\\b');
    expect(escapeLabelValue('a\nb')).toBe('a\\nb');
    expect(escapeLabelValue('\\"\n')).toBe('\\\\\\"\\n');
    expect(escapeLabelValue("/api/v1/lists/:id {}'é\t")).toBe("/api/v1/lists/:id {}'é\t");
  });

  it('escapes backslash and line feed in HELP, keeping quotes', () => {
    expect(escapeHelp('say "hi"\\\nbye')).toBe('say "hi"\\\\\\nbye');
  });

  it('writes HELP, TYPE and one line per sample', () => {
    const text = renderFamily({
      name: 'ecoa_things',
      help: 'Things.',
      type: 'gauge',
      samples: [{ labels: { kind: 'say "x"\n', other: 'b\\' }, value: 2 }, { value: 0.5 }],
    });
    expect(text).toBe(
      '# HELP ecoa_things Things.\n# TYPE ecoa_things gauge\n' +
        'ecoa_things{kind="say \\"x\\"\\n",other="b\\\\"} 2\n' +
        'ecoa_things 0.5\n',
    );
  });

  it('formats special values the way Prometheus reads them', () => {
    expect(formatValue(Number.POSITIVE_INFINITY)).toBe('+Inf');
    expect(formatValue(Number.NEGATIVE_INFINITY)).toBe('-Inf');
    expect(formatValue(Number.NaN)).toBe('NaN');
    expect(formatValue(1e21)).toBe('1e+21');
  });
});

describe('HTTP metrics', () => {
  it('counts per status and fills cumulative buckets, +Inf included', () => {
    const metrics = createHttpMetrics([0.1, 1]);
    metrics.record('GET', '/a/:id', 200, 0.05);
    metrics.record('GET', '/a/:id', 200, 0.1);
    metrics.record('GET', '/a/:id', 404, 0.5);
    metrics.record('GET', '/a/:id', 200, 3);
    const [requests, durations] = metrics.families();
    expect(requests?.samples).toEqual([
      { labels: { method: 'GET', route: '/a/:id', status: '200' }, value: 3 },
      { labels: { method: 'GET', route: '/a/:id', status: '404' }, value: 1 },
    ]);
    const byLe = Object.fromEntries(
      (durations?.samples ?? []).filter((s) => s.suffix === '_bucket').map((s) => [s.labels?.le, s.value]),
    );
    // A duration equal to a bound falls in that bound's bucket (`le`: less or equal).
    expect(byLe).toEqual({ '0.1': 2, '1': 3, '+Inf': 4 });
    const count = durations?.samples.find((s) => s.suffix === '_count');
    const sum = durations?.samples.find((s) => s.suffix === '_sum');
    expect(count?.value).toBe(4);
    expect(sum?.value).toBeCloseTo(3.65);
  });
});
