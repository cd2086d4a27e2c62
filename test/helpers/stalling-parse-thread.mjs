// A parse thread that never ends reading a page whose address contains "hang-thread", takes 500 ms more for
// one whose address contains "slow-thread", and reads every page it ends as the real one does (the listener
// that stalls is in place first: see exiting-parse-thread.mjs).
import './stall-at-marked-page.mjs';
import '@comps/shared/market/parse-thread-main';
