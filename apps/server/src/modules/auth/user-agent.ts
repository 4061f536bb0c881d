import type { Device, DeviceKind } from '@ecoa/shared';

/**
 * A readable device from a User-Agent header, for the sessions list ("Chrome on Linux"). Only
 * the names people recognise: no versions, no engines. Order matters: many browsers also claim
 * to be Chrome and Safari, so the specific ones are tested first.
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOPiOS\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bHeadlessChrome\//, 'Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
  [/^curl\//, 'curl'],
  [/^PostmanRuntime\//, 'Postman'],
  [/^(?:node|undici|node-fetch)\b/i, 'Node.js'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows Phone\b/, 'Windows Phone'],
  [/\bWindows\b/, 'Windows'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMacintosh\b|\bMac OS X\b/, 'macOS'],
  [/\bUbuntu\b/, 'Ubuntu'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function first(table: [RegExp, string][], ua: string): string | null {
  for (const [pattern, name] of table) if (pattern.test(ua)) return name;
  return null;
}

export function describeUserAgent(userAgent: string | null | undefined): Device {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return { browser: null, os: null, kind: 'unknown' };
  const os = first(SYSTEMS, ua);
  const browser = first(BROWSERS, ua);
  let kind: DeviceKind = 'unknown';
  if (/\biPad\b|\bTablet\b/.test(ua) || (os === 'Android' && !/\bMobile\b/.test(ua))) kind = 'tablet';
  else if (/\bMobi|\biPhone\b|\biPod\b|\bWindows Phone\b/.test(ua)) kind = 'mobile';
  else if (os) kind = 'desktop';
  return { browser, os, kind };
}
