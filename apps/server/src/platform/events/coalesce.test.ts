import { expect, it } from 'vitest';
import { coalesce } from './coalesce';

it('folds calls made during a run into one more run, one run at a time', async () => {
  let runs = 0;
  let concurrent = 0;
  let most = 0;
  const task = coalesce(
    async () => {
      runs += 1;
      concurrent += 1;
      most = Math.max(most, concurrent);
      await new Promise((resolve) => setTimeout(resolve, 10));
      concurrent -= 1;
    },
    () => true,
  );
  const first = task.run();
  for (let i = 0; i < 5; i += 1) void task.run();
  await first;
  await task.idle();
  expect(runs).toBe(2);
  expect(most).toBe(1);
  await task.run();
  expect(runs).toBe(3);
});

it('does not repeat once told to stop', async () => {
  let runs = 0;
  let allowed = true;
  const task = coalesce(
    async () => {
      runs += 1;
      allowed = false;
      await Promise.resolve();
    },
    () => allowed,
  );
  const first = task.run();
  void task.run();
  await first;
  expect(runs).toBe(1);
});
