import { parentPort } from 'node:worker_threads';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

parentPort.on('message', ({ url }) => {
  // A bug that never ends: the thread reads nothing more, and answers nothing.
  if (url.includes('hang-thread')) for (;;);
  // A slow page: 300 ms before it is read.
  if (url.includes('slow-thread')) Atomics.wait(sleeper, 0, 0, 300);
});
