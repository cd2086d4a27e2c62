// 1.5 s before the modules imported after this one load: a thread that starts slowly.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
