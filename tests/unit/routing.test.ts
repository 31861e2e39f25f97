import { describe, expect, it } from 'vitest';
import { assertRouteMiddlewares } from '../../src/server/routing/middlewares.ts';
import { matchRoute, routeTable } from '../../src/server/routing/routes.ts';
import { desktopPathOf, variantPath } from '../../src/lib/paths.ts';

describe('route table', () => {
  it('names only middlewares that exist', () => {
    expect(() => assertRouteMiddlewares(routeTable)).not.toThrow();
  });

  it('refuses an unknown middleware name at start-up', () => {
    expect(() => assertRouteMiddlewares([{ pattern: '/x', middleware: ['nope'], mobile: true, fillable: false }])).toThrow(/Unknown route middleware "nope"/);
  });

  it('guards the routes that need a session or a sign-out', () => {
    expect(matchRoute('/create/project')?.middleware).toEqual(['auth']);
    expect(matchRoute('/create/success')?.middleware).toEqual(['auth']);
    // An app's web view opens the player with `?token=<one-time code>` (never a session token).
    expect(matchRoute('/video/player')?.middleware).toEqual(['token']);
    expect(matchRoute('/logout')?.middleware).toEqual(['logout']);
    expect(matchRoute('/d-abc')?.middleware).toEqual([]);
    expect(matchRoute('/user/alice/stars')?.mobile).toBe(true);
    // A member's collections, and one collection, have their /m mirrors.
    expect(matchRoute('/user/alice/collections')?.mobile).toBe(true);
    expect(matchRoute('/user/alice/collections/radios')?.mobile).toBe(true);
    // The sign-out confirmation has a mobile page too.
    expect(matchRoute('/logout')?.mobile).toBe(true);
    expect(matchRoute('/nothing/here')).toBeUndefined();
    // A project's tabs and the comparison of two versions have their /m mirrors.
    expect(matchRoute('/d-abc/versions')?.mobile).toBe(true);
    expect(matchRoute('/d-abc/versions/compare')?.mobile).toBe(true);
  });

  it('maps desktop paths to their /m mirrors and back', () => {
    expect(variantPath('mobile', '/')).toBe('/m');
    expect(variantPath('mobile', '/d-abc')).toBe('/m/d-abc');
    expect(desktopPathOf('/m')).toBe('/');
    expect(desktopPathOf('/m/user/alice')).toBe('/user/alice');
  });
});
