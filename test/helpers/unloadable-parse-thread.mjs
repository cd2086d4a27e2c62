// A parse thread whose modules fail to load (a broken deployment): it throws before it is ready.
throw new Error('this parse thread cannot load');
