/** Whether `promise` has settled once the microtasks queued now have run (a few hops: `then` chains and `await`s). */
export async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}
