/** Browsers by the token that gives them away, most specific first (Edge also says Chrome…). */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\b(?:Headless)?Chrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

/** Systems, most specific first (Android and ChromeOS also say Linux). */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPad\b/, 'iPadOS'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export const UNKNOWN_DEVICE = 'Unknown device';

function firstMatch(userAgent: string, table: readonly (readonly [RegExp, string])[]) {
  return table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}

/**
 * A short, readable name for a device from its user agent, e.g. "Chrome on Linux" or
 * "Safari on iOS"; a program that is not a browser goes by its own name ("curl").
 */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent.trim();
  if (ua === '') return UNKNOWN_DEVICE;
  const browser = firstMatch(ua, BROWSERS);
  const system = firstMatch(ua, SYSTEMS);
  if (browser !== null && system !== null) return `${browser} on ${system}`;
  if (browser !== null) return browser;
  if (system !== null) return `Browser on ${system}`;
  const program = /^([A-Za-z][\w.-]*)(?:\/|\s|$)/.exec(ua)?.[1];
  return program !== undefined && program !== 'Mozilla' ? program : UNKNOWN_DEVICE;
}
