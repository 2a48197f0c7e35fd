// Every ```js block of the package's README runs, each as a program of its
// own in this project (as a user would paste it), against DATABASE_URL.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const readme = readFileSync(process.env.CHRONOID_NODE_README, 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

test('the README has examples', () => assert.ok(blocks.length >= 4, `${blocks.length} examples`));

blocks.forEach((code, n) => {
  test(`README example ${n + 1}`, () => {
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: process.cwd(), stdio: 'pipe', timeout: 120_000 });
  });
});
