// A parse thread whose modules never finish loading and which never exits (a start that hangs): it keeps its
// event loop alive and never says it is ready.
setInterval(() => undefined, 60_000);
