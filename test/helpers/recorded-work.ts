/** Work for an idle collector that only records, into `events`, each start ('begin') and end ('end'). */
export function recordedWork(events: string[]): { begin(): () => void } {
  return {
    begin: () => {
      events.push('begin');
      return () => void events.push('end');
    },
  };
}
