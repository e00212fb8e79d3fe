// Reads a V8 CPU profile (node --cpu-prof) and prints where the time went: self time by function and
// inclusive ("total") time by function, project files first. For finding why a benchmark misses.
//   npx tsx bench/tools/profile-summary.ts <file.cpuprofile> [--top 30] [--filter electron/] [--callers run] [--window <endUs>:<ms>]
// --window: only the samples of the <ms> before <endUs> (a stall the stall probe reported: maxStallAtUs, maxStallMs).
// --callers <name>: for the time spent in functions named <name> (say better-sqlite3's native `run`),
// which project function (electron/, shared/) called them.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({ options: { top: { type: 'string', default: '30' }, filter: { type: 'string' }, callers: { type: 'string' }, window: { type: 'string' } }, allowPositionals: true });
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
const [windowEnd, windowMs] = (values.window ?? '').split(':').map(Number);
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (values.window && (at > windowEnd || at < windowEnd - windowMs * 1000)) return;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
if (values.window) console.log(`window: ${windowMs} ms before ${windowEnd} (profile ${profile.startTime}–${profile.endTime})`);

const label = (n: Node) => {
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
};

const selfBy = new Map<string, number>();
const totalBy = new Map<string, number>();
for (const [id, us] of self) {
  const node = byId.get(id)!;
  selfBy.set(label(node), (selfBy.get(label(node)) ?? 0) + us);
  // Inclusive: every distinct frame on the stack gets the sample once.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l)) continue;
    seen.add(l);
    totalBy.set(l, (totalBy.get(l) ?? 0) + us);
  }
}

const totalUs = values.window ? windowMs * 1000 : profile.endTime - profile.startTime;
const show = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (of ${(totalUs / 1000).toFixed(0)} ms profiled)`);
  [...map.entries()]
    .filter(([l]) => !values.filter || l.includes(values.filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([l, us]) => console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)} %  ${l}`));
};
show('self time', selfBy);
show('total time', totalBy);

if (values.callers) {
  const callers = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName !== values.callers) continue;
    let cur = parent.get(id);
    const chain: string[] = [];
    while (cur !== undefined && chain.length < 2) {
      const n = byId.get(cur)!;
      if (/\/(electron|shared)\//.test(n.callFrame.url)) chain.push(label(n));
      cur = parent.get(cur);
    }
    const key = chain.join('  <-  ') || '(no project frame)';
    callers.set(key, (callers.get(key) ?? 0) + us);
  }
  show(`callers of ${values.callers}`, callers);
}
