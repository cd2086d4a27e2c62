// A parse thread whose modules take 1.5 s more to load, then reads pages as the real one does.
import './sleep-at-start.mjs';
import '@comps/shared/market/parse-thread-main';
