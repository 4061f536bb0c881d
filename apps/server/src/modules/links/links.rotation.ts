/**
 * Which target a click goes to: pure functions of the link, its targets, the click's turn (the
 * next value of the link's sequence, unique per click) and the time. Round robin takes the available
 * targets in order; weighted walks the smooth weighted round-robin sequence (nginx's), so every
 * run of W turns (W = the sum of weights) gives each target exactly its weight, evenly spread.
 */
import { isInWindow, type LinkFallback } from '@ecoa/shared';
import type { LinkTargetRow, RotatingLinkRow } from './links.schema.ts';

export type HopTarget = Pick<
  LinkTargetRow,
  'id' | 'kind' | 'phone' | 'url' | 'label' | 'message' | 'weight' | 'active' | 'hours'
>;

/** Targets that may take a click now: switched on and inside their opening hours. */
export function availableTargets<T extends HopTarget>(targets: T[], now: Date): T[] {
  return targets.filter((t) => t.active && (!t.hours || isInWindow(t.hours, now)));
}

const sequences = new Map<string, number[]>();

/** The smooth weighted round-robin order of indexes for these weights (memoised: links rarely change). */
export function weightedSequence(weights: number[]): number[] {
  const key = weights.join(',');
  const known = sequences.get(key);
  if (known) return known;
  const total = weights.reduce((a, b) => a + b, 0);
  const current = weights.map(() => 0);
  const order: number[] = [];
  for (let step = 0; step < total; step++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i]! += weights[i]!;
      if (current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    order.push(best);
  }
  if (sequences.size > 1000) sequences.delete(sequences.keys().next().value!);
  sequences.set(key, order);
  return order;
}

/** The target of the click whose turn is `turn` (1, 2, 3…), or undefined when none is available. */
export function pickTarget<T extends HopTarget>(
  mode: RotatingLinkRow['mode'],
  available: T[],
  turn: number,
): T | undefined {
  if (available.length === 0) return undefined;
  const slot = (turn - 1) % (mode === 'weighted' ? available.reduce((n, t) => n + t.weight, 0) : available.length);
  if (mode !== 'weighted') return available[slot];
  return available[weightedSequence(available.map((t) => t.weight))[slot]!];
}

/** A prefilled message with its placeholders filled: `{nome_do_link}`, `{atendente}`. */
export function fillMessage(message: string, values: { linkName: string; label: string | null }): string {
  return message.replaceAll('{nome_do_link}', values.linkName).replaceAll('{atendente}', values.label ?? '');
}

/** Where the visitor is sent: `https://wa.me/<digits>?text=…` or the URL. */
export function destinationOf(
  target: Pick<HopTarget, 'kind' | 'phone' | 'url' | 'message' | 'label'> | LinkFallback,
  linkName: string,
): string {
  if (target.kind === 'url') return target.url ?? '';
  const digits = (target.phone ?? '').replace(/\D/g, '');
  const label = 'label' in target ? (target.label ?? null) : null;
  const text = target.message ? fillMessage(target.message, { linkName, label }) : '';
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
}
