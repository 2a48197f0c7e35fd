// npm's prepack hook (package.json "prepack": npm pack and npm publish run
// it before they collect the files): builds what the tarball ships.
//
// Why: package.json's "files" is dist/ alone, and dist/ is a build output
// (ignored by git). Without this hook, `npm pack` in a fresh clone's node/
// packed a package whose every entry point was missing, and importing it
// failed with ERR_MODULE_NOT_FOUND (issue 31).
//
// The build is the one scripts/clients.sh (`make clients`) has always made:
// the formats crate compiled to WebAssembly (the chronoid-wasm crate,
// node/wasm, built from the Rust workspace around node/), embedded as
// src/wasm-bytes.ts by scripts/embed-wasm.mjs, then tsup's ESM, CommonJS and
// .d.ts builds. It therefore needs the chronoid checkout around node/ and
// cargo with the wasm32-unknown-unknown target; without them it stops with
// a message, so that no package without code is ever packed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const nodeDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(nodeDir, '..');
// `npm pack --silent` (as scripts/clients.sh calls it): the builds quiet too.
const quiet = process.env.npm_config_loglevel === 'silent';
const WASM_TARGET = 'wasm32-unknown-unknown';

function stop(why) {
  console.error(`chronoid: npm pack: ${why}.\n` +
    'The package is built from its sources with cargo (the codecs, compiled to WebAssembly) and tsup:\n' +
    'run `make clients` from a chronoid checkout (it packs dist/chronoid-VERSION.tgz),\n' +
    `or npm pack in the node/ of a checkout where cargo and its ${WASM_TARGET} target are installed\n` +
    `(rustup target add ${WASM_TARGET}).`);
  process.exit(1);
}

function run(what, command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) stop(`${what}: ${result.error.message}`);
  if (result.status !== 0) stop(`${what} failed (exit status ${result.status ?? result.signal})`);
  return result;
}

// 1. A chronoid checkout: the Rust workspace whose member node/wasm is.
const manifest = join(root, 'Cargo.toml');
if (!existsSync(join(nodeDir, 'wasm', 'Cargo.toml')) || !existsSync(join(root, 'formats', 'Cargo.toml'))
  || !existsSync(manifest) || !readFileSync(manifest, 'utf8').includes('"node/wasm"')) {
  stop(`${nodeDir} is not the node/ directory of a chronoid checkout`);
}

// 2. cargo, and the WebAssembly target of the toolchain it uses here.
const rustc = spawnSync('rustc', ['--print', 'sysroot'], { cwd: root, encoding: 'utf8' });
if (spawnSync('cargo', ['--version'], { cwd: root, stdio: 'ignore' }).status !== 0 || rustc.status !== 0) {
  stop('cargo (Rust) is not installed');
}
if (!existsSync(join(rustc.stdout.trim(), 'lib', 'rustlib', WASM_TARGET))) {
  stop(`Rust's ${WASM_TARGET} target is not installed`);
}

// 3. The WebAssembly build of the codecs, where cargo puts it (its target
// directory may be moved by CARGO_TARGET_DIR or .cargo/config.toml).
run('cargo build of chronoid-wasm', 'cargo',
  ['build', ...(quiet ? ['-q'] : []), '--release', '--target', WASM_TARGET, '-p', 'chronoid-wasm'], { cwd: root });
const metadata = run('cargo metadata', 'cargo', ['metadata', '--format-version', '1', '--no-deps'],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 << 20 });
const wasm = join(JSON.parse(metadata.stdout).target_directory, WASM_TARGET, 'release', 'chronoid_wasm.wasm');

// 4. Embedded in the sources (src/wasm-bytes.ts).
run('embedding the WebAssembly', process.execPath, [join(nodeDir, 'scripts', 'embed-wasm.mjs'), wasm]);

// 5. tsup, a locked dev dependency: installed first if this node/ has none
// (a fresh clone).
const bin = (name) => join(nodeDir, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const shell = process.platform === 'win32';
if (!existsSync(bin('tsup'))) {
  const npm = process.env.npm_execpath;
  const ci = ['ci', '--no-audit', '--no-fund', ...(quiet ? ['--silent'] : [])];
  run('npm ci (the dev dependencies)', npm ? process.execPath : 'npm', npm ? [npm, ...ci] : ci, { cwd: nodeDir, shell: !npm && shell });
}
run('tsup', bin('tsup'), quiet ? ['--silent'] : [], { cwd: nodeDir, shell, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });

// 6. What the tarball's package.json points at is there.
for (const file of ['index.js', 'index.cjs', 'index.d.ts']) {
  if (!existsSync(join(nodeDir, 'dist', file))) stop(`tsup built no dist/${file}`);
}
