import type http from 'node:http';
import Negotiator from 'negotiator';

type EncodingNegotiator = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

/**
 * The content encoding to answer with among `available` (in our order of preference: brotli,
 * then gzip, then none), by the request's `Accept-Encoding` and its weights. Equal weights go to
 * our preference, so a browser sending `gzip, deflate, br` gets the smaller brotli body.
 * (`preferred` is in negotiator 1.0, not yet in its types.)
 */
export function preferredEncoding(req: Pick<http.IncomingMessage, 'headers'>, available: readonly ('br' | 'gzip' | 'identity')[]): 'br' | 'gzip' | 'identity' {
  const list = [...available];
  return ((new Negotiator(req) as unknown as EncodingNegotiator).encoding(list, { preferred: list }) ?? 'identity') as 'br' | 'gzip' | 'identity';
}
