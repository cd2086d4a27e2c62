import { parentPort } from 'node:worker_threads';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

parentPort.on('message', ({ url }) => {
  // A read that never ends (without taking a core from the other tests: it waits, and only terminate wakes it).
  if (url.includes('hang-thread')) Atomics.wait(sleeper, 0, 0);
  // A slow page: 500 ms before it is read.
  if (url.includes('slow-thread')) Atomics.wait(sleeper, 0, 0, 500);
});
