/**
 * Preloaded (`node --import`) into a server process started by a test: on SIGUSR2 it throws
 * where nothing catches and rejects a promise nobody awaits, as a bug in some callback would.
 */
process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error('stray exception from the test');
  });
  void Promise.reject(new Error('stray rejection from the test'));
});
