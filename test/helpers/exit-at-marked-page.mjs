import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ url }) => {
  if (url.includes('exit-thread')) process.exit(3);
});
