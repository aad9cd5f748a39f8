import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

export type Db = Kysely<Database>;
