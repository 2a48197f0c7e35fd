// Every ```js block of the package's README runs, each as a program of its
// own in this project (as a user would paste it), against DATABASE_URL. The
// README's ```prisma block is the schema the Prisma example's client is
// generated from first (offline: only migrations need Prisma's schema
// engine, which it would download).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const readme = readFileSync(process.env.CHRONOID_NODE_README, 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
const [prismaSchema] = [...readme.matchAll(/```prisma\n([\s\S]*?)```/g)].map((m) => m[1]);

test('the README has examples', () => assert.ok(blocks.length >= 10 && prismaSchema, `${blocks.length} examples`));

test('the Prisma client is generated from the README\'s schema', () => {
  mkdirSync('prisma', { recursive: true });
  writeFileSync(join('prisma', 'schema.prisma'), prismaSchema);
  execFileSync(join('node_modules', '.bin', 'prisma'), ['generate'], {
    stdio: 'pipe', timeout: 120_000, env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true', PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
  });
});

blocks.forEach((code, n) => {
  test(`README example ${n + 1}`, () => {
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: process.cwd(), stdio: 'pipe', timeout: 120_000 });
  });
});
