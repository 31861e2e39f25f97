import type { AstroGlobal } from 'astro';
import { isAppError, isInvalidTextInput } from '../http/errors.ts';

/**
 * Runs a page loader. A 404 `AppError` sets the status and returns null so the page renders
 * its not-found view; anything else propagates to the 500 page.
 */
export async function loadPage<T>(astro: AstroGlobal, loader: () => Promise<T>): Promise<T | null> {
  try {
    return await loader();
  } catch (error) {
    // An address PostgreSQL cannot even compare (e.g. with a NUL character) names nothing here.
    if ((isAppError(error) && error.status === 404) || isInvalidTextInput(error)) {
      astro.response.status = 404;
      return null;
    }
    throw error;
  }
}

/** `?page=` as a positive integer (1 when absent or invalid). */
export function pageParam(url: URL): number {
  const value = Number(url.searchParams.get('page') ?? 1);
  return Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : 1;
}
