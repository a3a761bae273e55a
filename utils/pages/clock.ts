/** A span of time as a clock shows it: `m:ss`, whole seconds rounded up ("0:12", "10:00"). */
export function minutesSeconds(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
