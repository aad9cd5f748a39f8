/** Debian's Chromium, or the browser CHROME_PATH names: what the web figures run in. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
