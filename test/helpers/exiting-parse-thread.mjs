// A parse thread that exits (code 3) at a page whose address contains "exit-thread", before reading it, and
// reads every other page as the real one does. Imports are evaluated in order: the listener that exits is in
// place before the real thread's, so it sees each page first.
import './exit-at-marked-page.mjs';
import '@comps/shared/market/parse-thread-main';
