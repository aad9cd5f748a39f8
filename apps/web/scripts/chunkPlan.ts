import path from 'node:path';

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Every module `roots` import statically, directly or not (dynamic imports are left out). */
function staticClosure(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const waiting = [...roots];
  for (let id = waiting.pop(); id !== undefined; id = waiting.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    waiting.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

export interface ChunkPlan {
  /** The app's entry module, relative to the source folder. */
  entry: string;
  /** The module of the response schemas (zod and the contract's schemas), loaded on demand. */
  schemas: string;
  /** Screens a visitor without a session opens: one chunk for all of them. */
  signedOut: readonly string[];
  /** Screens a member moves between: one chunk for all of them. */
  signedIn: readonly string[];
}

const CONTRACT = /[\\/]packages[\\/]contract[\\/]src[\\/]/;
const ZOD = /[\\/]node_modules[\\/]zod[\\/]/;

/**
 * Names the chunk of each module, so that a phone fetches a screen in a few requests rather
 * than some sixty small ones: what the signed-out screens need beyond the entry goes into
 * `signed-out`, what the everyday signed-in screens need beyond both into `signed-in`, and the
 * contract's plain rules (no zod) into `contract-rules`. The entry, the schemas and what only
 * they need, and the rarely opened screens are left to Rolldown.
 */
export function chunkNamer(srcDir: string, plan: ChunkPlan) {
  const resolve = (file: string) => path.join(srcDir, file);
  let graph: ModuleGraph | null = null;
  let chunkOf = new Map<string, string>();

  const classify = (context: ModuleGraph) => {
    const entry = staticClosure(context, [resolve(plan.entry)]);
    const schemas = staticClosure(context, [resolve(plan.schemas)]);
    const signedOut = staticClosure(context, plan.signedOut.map(resolve));
    const signedIn = staticClosure(context, plan.signedIn.map(resolve));
    const chunks = new Map<string, string>();
    const withoutZod = (id: string) =>
      ![...staticClosure(context, [id])].some((imported) => ZOD.test(imported));
    for (const id of new Set([...entry, ...schemas, ...signedOut, ...signedIn])) {
      if (CONTRACT.test(id) && withoutZod(id)) {
        chunks.set(id, 'contract-rules');
      } else if (entry.has(id) || schemas.has(id)) {
        continue;
      } else if (signedOut.has(id)) {
        chunks.set(id, 'signed-out');
      } else if (signedIn.has(id)) {
        chunks.set(id, 'signed-in');
      }
    }
    return chunks;
  };

  return (id: string, context: ModuleGraph): string | null => {
    if (graph !== context) {
      graph = context;
      chunkOf = classify(context);
    }
    return chunkOf.get(id) ?? null;
  };
}
