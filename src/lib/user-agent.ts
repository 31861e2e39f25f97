const CRAWLER = /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|quora link preview|whatsapp|telegram|baiduspider|yandex|duckduckgo|sogou|360spider|bytespider|petalbot|headlesschrome\/.*lighthouse/i;
const MOBILE = /Mobi|Android.+Mobile|iPhone|iPod|Windows Phone|IEMobile|Opera Mini|BlackBerry|webOS|HarmonyOS.+Mobile/i;

/** Search engines and link unfurlers: they get the status with a short plain body on errors. */
export function isCrawler(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && CRAWLER.test(userAgent));
}

/** Phones (not tablets) are sent to the `/m` mirror. */
export function isMobileBrowser(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && MOBILE.test(userAgent));
}
