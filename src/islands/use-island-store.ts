import { useEffect, useState } from 'react';

/** What an island's store may do once the island is live in the browser; returns how to stop. */
interface Startable {
  start?: () => (() => void) | void;
}

/**
 * One store per island instance, made once from its first props (the same on the server and at
 * hydration). Its `start` runs after hydration, in the browser only, and its cleanup on unmount.
 */
export function useIslandStore<Store extends object>(create: () => Store): Store {
  const [store] = useState(create);
  useEffect(() => (store as Startable).start?.(), [store]);
  return store;
}
