import { entitySchema, type Entity } from '@perch/contract';
import { z } from 'zod';

const storedEntitiesSchema = z.array(entitySchema);

/** How a text's entities are kept in its row: JSON, or null when it has none. */
export function encodeEntities(entities: readonly Entity[]): string | null {
  return entities.length === 0 ? null : JSON.stringify(entities);
}

/** A row's entities as the API answers them; a column that cannot be read counts as none. */
export function decodeEntities(stored: string | null): Entity[] {
  if (stored === null || stored === '') return [];
  try {
    const parsed = storedEntitiesSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
