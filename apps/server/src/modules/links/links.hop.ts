/**
 * The public hop `GET /l/:slug`: the link comes from a one-second cache (links.hop-cache.ts), the
 * click's turn is the next value of the link's sequence (one tiny statement), the target is
 * picked in memory (links.rotation.ts), the visitor is redirected, and the click is recorded in
 * the background (links.clicks.ts). Link previews (WhatsApp, Facebook, Telegram… fetching the
 * URL to draw a card) are sent on without taking a turn or counting as a click.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock/clock.ts';
import type { ClickRecorder } from './links.clicks.ts';
import type { LinkCache } from './links.hop-cache.ts';
import { languageOf, messagePage, pixelPage } from './links.pages.ts';
import type { HopLink, LinksRepository, TrackedLink } from './links.repository.ts';
import { availableTargets, destinationOf, pickTarget } from './links.rotation.ts';

export type HopRequest = {
  slug: string;
  ip: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  acceptLanguage: string | undefined;
  query: Record<string, unknown>;
  cookies: Record<string, string>;
  /** A two-letter country code a trusted edge put on the request, if any. */
  country: string | undefined;
};

export type HopAnswer = {
  status: number;
  location?: string;
  html?: string;
  csp?: string;
  cookie?: { name: string; value: string; path: string; maxAgeSeconds: number };
};

const PREVIEW_AGENTS =
  /bot|crawl|spider|slurp|facebookexternalhit|facebookcatalog|whatsapp|telegrambot|twitterbot|linkedinbot|discordbot|skypeuripreview|embedly|preview/i;
const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
const STICKY_DAYS = 90;

export const stickyCookieName = (slug: string) => `ecoa_l_${slug.replace(/-/g, '_')}`;

function deviceOf(userAgent: string | undefined): string {
  if (!userAgent) return 'other';
  if (/ipad|tablet/i.test(userAgent)) return 'tablet';
  if (/mobi|android|iphone|ipod/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

/** The referring site's host (`instagram.com`), not its full address. */
function referrerHost(referrer: string | undefined): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname.replace(/^www\./, '').slice(0, 200) || null;
  } catch {
    return null;
  }
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : null);

export function createHop(deps: {
  repo: Pick<LinksRepository, 'nextTurn' | 'findTracked'>;
  links: LinkCache;
  clicks: ClickRecorder;
  secret: string;
  clock: Clock;
}) {
  const { repo, clock } = deps;

  /** A keyed hash of the visitor (IP and browser): counts unique visitors, never stores the IP. */
  const visitorOf = (ip: string, userAgent: string | undefined) =>
    createHmac('sha256', deps.secret)
      .update(`${ip}\n${userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 22);

  function answerWith(link: HopLink, location: string, request: HopRequest): HopAnswer {
    if (link.pixels && (link.pixels.meta || link.pixels.google)) {
      const page = pixelPage(
        location,
        link.pixels,
        languageOf(request.acceptLanguage),
        randomBytes(12).toString('base64'),
      );
      return { status: 200, html: page.html, csp: page.csp };
    }
    return { status: 302, location };
  }

  /** What a click recorded keeps: where it came from, never the IP itself. */
  function clickOf(request: HopRequest, now: Date) {
    return {
      at: now,
      referrer: referrerHost(request.referrer),
      utmSource: text(request.query[UTM[0]]),
      utmMedium: text(request.query[UTM[1]]),
      utmCampaign: text(request.query[UTM[2]]),
      utmTerm: text(request.query[UTM[3]]),
      utmContent: text(request.query[UTM[4]]),
      device: deviceOf(request.userAgent),
      country: request.country && /^[A-Z]{2}$/.test(request.country) ? request.country : null,
      visitor: visitorOf(request.ip, request.userAgent),
    };
  }

  /** A click on a rotating link (its own address, or a campaign recipient's tracked one: `from`). */
  async function serve(link: HopLink | undefined, request: HopRequest, from: TrackedLink | null): Promise<HopAnswer> {
    const language = languageOf(request.acceptLanguage);
    const now = clock.now();
    const preview = PREVIEW_AGENTS.test(request.userAgent ?? '');
    if (!link) return { status: 404, html: messagePage('notFound', language) };
    const stickyId = request.cookies[stickyCookieName(link.slug)];
    const available = availableTargets(link.targets, now);
    let target: HopLink['targets'][number] | undefined;
    // A preview takes no turn; a returning visitor of a sticky link keeps their target.
    if (preview) target = available[0];
    else if (link.sticky && stickyId) target = available.find((t) => t.id === stickyId);
    if (!preview && !target && available.length > 0)
      target = pickTarget(link.mode, available, await repo.nextTurn(link.turnSequence));
    const destination = target ?? link.fallback;
    const url = destination ? destinationOf(destination, link.name) : null;
    if (preview)
      return url !== null
        ? { status: 302, location: url }
        : { status: 200, html: messagePage('unavailable', language) };
    deps.clicks.record({
      linkId: link.id,
      targetId: target?.id ?? null,
      messageId: from?.messageId ?? null,
      campaignId: from?.campaignId ?? null,
      ...clickOf(request, now),
      clicked: {
        userId: from?.userId ?? link.userId,
        linkId: link.id,
        slug: link.slug,
        url,
        messageId: from?.messageId ?? null,
        campaignId: from?.campaignId ?? null,
        to: from?.to ?? null,
        at: now,
      },
    });
    if (url === null) return { status: 503, html: messagePage('unavailable', language) };
    const answer = answerWith(link, url, request);
    if (!target) return answer;
    if (link.sticky) {
      answer.cookie = {
        name: stickyCookieName(link.slug),
        value: target.id,
        path: `/l/${link.slug}`,
        maxAgeSeconds: STICKY_DAYS * 86_400,
      };
    }
    return answer;
  }

  return {
    /** `GET /l/<slug>`: a rotating link. */
    hop: async (request: HopRequest): Promise<HopAnswer> => serve(await deps.links.get(request.slug), request, null),

    /** `GET /l/_<code>`: a campaign recipient's tracked link, to its rotating link or URL, counted for the report. */
    async tracked(code: string, request: HopRequest): Promise<HopAnswer> {
      const found = await repo.findTracked(code);
      if (!found) return { status: 404, html: messagePage('notFound', languageOf(request.acceptLanguage)) };
      if (found.rotatingLinkSlug !== null) return serve(await deps.links.get(found.rotatingLinkSlug), request, found);
      if (!found.url) return { status: 404, html: messagePage('notFound', languageOf(request.acceptLanguage)) };
      if (!PREVIEW_AGENTS.test(request.userAgent ?? '')) {
        const { messageId, campaignId, userId, to, url } = found;
        const now = clock.now();
        deps.clicks.record({
          linkId: null,
          targetId: null,
          messageId,
          campaignId,
          ...clickOf(request, now),
          clicked: { userId, linkId: null, slug: null, url, messageId, campaignId, to, at: now },
        });
      }
      return { status: 302, location: found.url };
    },
  };
}

export type Hop = ReturnType<typeof createHop>;
