/** The scenarios a run's `--only` asks for. */
import type { Scenario } from '../lib/load';
import type { RunOptions } from './options';

/** Names `--only` takes besides the scenarios'. */
export const STAGES = ['inprocess', 'web', 'events', 'timelines'] as const;

/** The scenarios `--only` asks for; an error for a name nothing answers to. */
export function selectScenarios(
  options: Pick<RunOptions, 'only' | 'wanted'>,
  scenarios: Scenario[],
): Scenario[] {
  const known = new Set<string>([...scenarios.map((scenario) => scenario.name), ...STAGES]);
  const unknown = [...(options.only ?? [])].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`unknown --only name ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  return scenarios.filter((scenario) => options.wanted(scenario.name));
}
