// The verdict of one conformance run: reads every checks.json the suite wrote
// under RESULTS (one folder per run, named by its label: server/<era>/<scenario>
// or client/<client>/<scenario>), holds each FAILURE and WARNING against
// EXPECTED (expected-failures.txt), and exits 1 on any that is not listed
// there, on a listed entry that matched nothing in a run that took place
// (stale), and on a run that wrote no checks at all. In a client run a
// SKIPPED check counts as a failure too: the client never reached it.
//
//   node verdict.mjs RESULTS EXPECTED LABEL...
//
// LABEL is every run that was started, so that one which crashed before
// writing checks.json is a failure rather than a silence.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [results, expectedPath, ...labels] = process.argv.slice(2);
if (!results || !expectedPath) {
  console.error('usage: node verdict.mjs RESULTS EXPECTED LABEL...');
  process.exit(2);
}

// expected-failures.txt: `PATTERN REASON…` per line, `#` comments. PATTERN is
// `<label>:<check-id>` (or `<label>` for every check of a run); `*` in it
// stands for any run of characters other than `/` and `:`.
const expected = [];
readFileSync(expectedPath, 'utf8')
  .split('\n')
  .forEach((line, index) => {
    const text = line.replace(/#.*$/, '').trim();
    if (!text) return;
    const [pattern, ...reason] = text.split(/\s+/);
    const where = `${expectedPath}:${index + 1}`;
    if (reason.length === 0) {
      console.error(`${where}: \`${pattern}\` gives no reason; write why it is expected after it`);
      process.exit(2);
    }
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/:]*');
    const regex = new RegExp(pattern.includes(':') ? `^${source}$` : `^${source}:.*$`);
    // The run part alone: an entry whose runs did not take place (one side,
    // one scenario) is not stale.
    const run = new RegExp(`^${source.split(':')[0]}$`);
    expected.push({ pattern, reason: reason.join(' '), where, regex, run, used: 0 });
  });

// Every checks.json under a folder (the suite adds a timestamped folder).
function checkFiles(folder) {
  if (!existsSync(folder)) return [];
  const found = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...checkFiles(path));
    else if (name === 'checks.json') found.push(path);
  }
  return found;
}

const counts = { passed: 0, failed: 0, expected: 0, skipped: 0, info: 0 };
const unexpected = [];
const perRun = [];
for (const label of labels) {
  const files = checkFiles(join(results, label));
  if (files.length === 0) {
    unexpected.push(`${label}: the suite wrote no checks.json (did it start? see its output above)`);
    counts.failed += 1;
    perRun.push(`  ${label}: no checks`);
    continue;
  }
  const run = { passed: 0, failed: 0, expected: 0, skipped: 0, info: 0 };
  for (const file of files) {
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    for (const check of checks) {
      const key = `${label}:${check.id}`;
      switch (check.status) {
        case 'SUCCESS':
          run.passed += 1;
          break;
        case 'INFO':
          run.info += 1;
          break;
        case 'SKIPPED':
          // A client scenario skips when the client never got as far as the
          // check (it did not start, or never listed skills): that tested
          // nothing, so it is a failure. A server scenario skips what the
          // server does not declare, which its checks already say.
          if (!label.startsWith('client/')) {
            run.skipped += 1;
            break;
          }
        // falls through
        default: {
          // FAILURE, WARNING, or a status this script does not know yet.
          const entry = expected.find((candidate) => candidate.regex.test(key));
          if (entry) {
            entry.used += 1;
            run.expected += 1;
          } else {
            run.failed += 1;
            const why = check.errorMessage ?? JSON.stringify(check.details ?? {});
            unexpected.push(`${key}: ${check.status}: ${why}`);
          }
        }
      }
    }
  }
  for (const key of Object.keys(counts)) counts[key] += run[key];
  perRun.push(
    `  ${label}: ${run.passed} passed, ${run.failed} failed, ${run.expected} expected` +
      `${run.skipped ? `, ${run.skipped} skipped` : ''}${run.info ? `, ${run.info} info` : ''}`,
  );
}

console.log('Conformance checks per run:');
console.log(perRun.join('\n'));
const stale = expected.filter(
  (entry) => entry.used === 0 && labels.some((label) => entry.run.test(label)),
);
if (unexpected.length > 0) {
  console.log('\nNot listed in expected-failures.txt (fix them, or list them there with the reason):');
  for (const line of unexpected) console.log(`  ${line}`);
}
if (stale.length > 0) {
  console.log('\nListed in expected-failures.txt but not seen in this run (remove them):');
  for (const entry of stale) console.log(`  ${entry.where}: ${entry.pattern}`);
}
if (counts.expected > 0) {
  console.log(`\n${counts.expected} expected (listed with their reasons in expected-failures.txt):`);
  for (const entry of expected.filter((entry) => entry.used > 0)) {
    console.log(`  ${entry.pattern} (${entry.used}): ${entry.reason}`);
  }
}
console.log(`\n${counts.expected} expected failures, ${counts.info} informational checks`);
console.log(`conformance: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(unexpected.length > 0 || stale.length > 0 ? 1 : 0);
