/**
 * The rotating link form's state and its translation to the API body: the form keeps every
 * field as text (what the user typed), the body drops what is empty or does not apply.
 */
import {
  type LinkFallback,
  type LinkInput,
  type LinkMode,
  type LinkTargetInput,
  linkInputSchema,
  type RotatingLink,
  type TargetHours,
} from '@ecoa/shared';
import { z } from 'zod';

export type TargetDraft = {
  id?: string;
  kind: 'whatsapp' | 'url';
  /** The phone or the URL, as typed. */
  value: string;
  label: string;
  message: string;
  weight: number;
  active: boolean;
  /** Opening hours; null: always open. */
  hours: TargetHours | null;
};

export type LinkDraft = {
  name: string;
  slug: string;
  mode: LinkMode;
  sticky: boolean;
  targets: TargetDraft[];
  /** Where visitors go when no target is available; `none`: the friendly page. */
  fallback: { kind: 'none' | 'whatsapp' | 'url'; value: string; message: string };
  pixels: { meta: string; google: string };
};

/** Business hours, Monday to Friday: what a salesperson's opening hours usually are. */
export const DEFAULT_TARGET_HOURS: TargetHours = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' };

export const emptyTarget = (): TargetDraft => ({
  kind: 'whatsapp',
  value: '',
  label: '',
  message: '',
  weight: 1,
  active: true,
  hours: null,
});

function fallbackDraft(fallback: LinkFallback | null): LinkDraft['fallback'] {
  if (!fallback) return { kind: 'none', value: '', message: '' };
  return fallback.kind === 'url'
    ? { kind: 'url', value: fallback.url, message: '' }
    : { kind: 'whatsapp', value: fallback.phone, message: fallback.message ?? '' };
}

export function draftOf(link: RotatingLink | null): LinkDraft {
  if (!link)
    return {
      name: '',
      slug: '',
      mode: 'round_robin',
      sticky: false,
      targets: [emptyTarget()],
      fallback: fallbackDraft(null),
      pixels: { meta: '', google: '' },
    };
  return {
    name: link.name,
    slug: link.slug,
    mode: link.mode,
    sticky: link.sticky,
    targets: link.targets.map((t) => ({
      id: t.id,
      kind: t.kind,
      value: (t.kind === 'url' ? t.url : t.phone) ?? '',
      label: t.label ?? '',
      message: t.message ?? '',
      weight: t.weight,
      active: t.active,
      hours: t.hours,
    })),
    fallback: fallbackDraft(link.fallback),
    pixels: { meta: link.pixels?.meta ?? '', google: link.pixels?.google ?? '' },
  };
}

function targetInput(t: TargetDraft, weighted: boolean): LinkTargetInput {
  const common = {
    ...(t.id ? { id: t.id } : {}),
    ...(t.label.trim() ? { label: t.label.trim() } : {}),
    ...(weighted ? { weight: t.weight } : {}),
    active: t.active,
    hours: t.hours,
  };
  return t.kind === 'url'
    ? { kind: 'url', url: t.value.trim(), ...common }
    : { kind: 'whatsapp', phone: t.value.trim(), ...(t.message.trim() ? { message: t.message } : {}), ...common };
}

function fallbackInput(f: LinkDraft['fallback']): LinkFallback | null {
  if (f.kind === 'none' || !f.value.trim()) return null;
  return f.kind === 'url'
    ? { kind: 'url', url: f.value.trim() }
    : { kind: 'whatsapp', phone: f.value.trim(), ...(f.message.trim() ? { message: f.message } : {}) };
}

export function inputOf(draft: LinkDraft): LinkInput {
  const meta = draft.pixels.meta.trim();
  const google = draft.pixels.google.trim();
  return {
    name: draft.name.trim(),
    slug: draft.slug.trim(),
    mode: draft.mode,
    sticky: draft.sticky,
    targets: draft.targets.map((x) => targetInput(x, draft.mode === 'weighted')),
    fallback: fallbackInput(draft.fallback),
    pixels: meta || google ? { ...(meta ? { meta } : {}), ...(google ? { google } : {}) } : null,
  };
}

/** The form's rules: what it holds, as the API body, checked by the server's own link schema. */
export const linkDraftSchema = z
  .custom<LinkDraft>()
  .transform((draft): z.input<typeof linkInputSchema> => inputOf(draft))
  .pipe(linkInputSchema);
