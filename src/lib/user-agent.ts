import { isbot } from 'isbot';

const MOBILE = /Mobi|Android.+Mobile|iPhone|iPod|Windows Phone|IEMobile|Opera Mini|BlackBerry|webOS|HarmonyOS.+Mobile/i;

/**
 * Search engines, link unfurlers and other automated clients (isbot's maintained list, which
 * also counts command-line clients such as curl and headless browsers): they get the status with
 * a short plain body on errors, and their downloads are not counted.
 */
export function isCrawler(userAgent: string | null | undefined): boolean {
  return isbot(userAgent);
}

/** Phones (not tablets) are sent to the `/m` mirror. */
export function isMobileBrowser(userAgent: string | null | undefined): boolean {
  return Boolean(userAgent && MOBILE.test(userAgent));
}
