import type { Member } from './copy';
import type { SqlRunner } from './instance';

/**
 * Has every member read Home once and waits until the server has built their timelines, as an
 * active member's already is: the scenarios then measure Home as it is read day to day, not the
 * first read after a long absence (which the in-process figures include).
 */
export async function warmTimelines(
  url: string,
  members: readonly Member[],
  runner: () => Promise<SqlRunner>,
  timeoutSeconds = 120,
): Promise<{ built: number; seconds: number }> {
  const started = performance.now();
  for (const member of members) {
    const response = await fetch(`${url}/api/posts/feed?limit=1`, {
      headers: { authorization: member.token, prefer: 'return=minimal' },
    });
    await response.arrayBuffer();
  }
  const db = await runner();
  try {
    const ids = members.map((member) => member.id);
    const placeholders = ids.map((_, i) => `$${i + 1}`).join(',');
    for (;;) {
      const [row] = await db.all<{ n: number | string }>(
        `SELECT count(*) AS n FROM home_timelines WHERE user_id IN (${placeholders})`,
        ids,
      );
      const built = Number(row?.n ?? 0);
      const seconds = (performance.now() - started) / 1000;
      if (built >= ids.length || seconds > timeoutSeconds) return { built, seconds };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await db.close();
  }
}
