// A parse thread that fails to load when it started with PARSE_THREAD_FAILS_TO_LOAD=1 in its environment
// (a thread's environment is its parent's as the thread starts), and otherwise is the real one.
if (process.env.PARSE_THREAD_FAILS_TO_LOAD === '1') throw new Error('this parse thread cannot load');
await import('@comps/shared/market/parse-thread-main');
