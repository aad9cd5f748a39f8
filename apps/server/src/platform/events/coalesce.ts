export interface Coalesced {
  /** Runs the task, or, while it runs, asks for one more run after it (however many ask). */
  run: () => Promise<void>;
  /** Resolves when no run is under way. */
  idle: () => Promise<void>;
}

/**
 * One run at a time of a task that reads "whatever is new": calls during a run fold into one
 * more run, so a burst of wake-ups costs one or two runs. `mayRepeat` false stops the repeats.
 */
export function coalesce(task: () => Promise<void>, mayRepeat: () => boolean): Coalesced {
  // A field rather than a variable: it changes while the task's await is pending.
  const state = { running: null as Promise<void> | null, again: false };
  const repeat = () => state.again && mayRepeat();
  return {
    run() {
      if (state.running) {
        state.again = true;
        return state.running;
      }
      state.running = (async () => {
        do {
          state.again = false;
          await task();
        } while (repeat());
      })().finally(() => {
        state.running = null;
      });
      return state.running;
    },
    idle: () => state.running ?? Promise.resolve(),
  };
}
