import type http from 'node:http';

/**
 * Asks `mayGoOn` every `everyMs` while `res` is still being sent, and cuts the response when it
 * answers no. A browser reads a whole film through one response when nothing makes it ask again,
 * so a check at the start alone would let a video hidden (or deleted) since play on to its end;
 * cut, the browser asks again for the rest with a Range request, which is checked like any. A
 * check that fails to run (the database out of reach) leaves the response be.
 */
export function cutWhenRefused(res: http.ServerResponse, mayGoOn: () => Promise<boolean>, everyMs: number): void {
  const timer = setInterval(() => {
    void mayGoOn().then(
      (allowed) => {
        if (!allowed) res.destroy();
      },
      () => undefined,
    );
  }, everyMs);
  // An open response must not keep a stopping process alive for the next check.
  timer.unref();
  res.once('close', () => clearInterval(timer));
}
